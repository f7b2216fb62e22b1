// Group 7 too: the agents' in-process plugins (pi's, Cline's, opencode's: src/agents/<agent>/node/plugin.ts), in
// the real extension host. Each plugin is loaded the way its agent loads it — from the file the extension wrote
// into the agent's user folder once its setting is `user` — and each of its hooks is called as the agent calls it,
// timed from the call to its answer. The baseline, in the same rounds, is a hook that does nothing: what the agent
// pays for any plugin. Rows (ids stable; <agent> is pi, cline, opencode); the goal of each call is at most the floor
// (one round trip to the workbench, `Editor.sync`, timed in the same rounds) + 2 ms added, median per round:
//   plugin.<agent>.readStart     the check before a read (the version the read will show)
//   plugin.<agent>.readMark      the hook after it (the read mark)
//   plugin.<agent>.editAllowed   the check before an edit of a read file
//   plugin.<agent>.editDenied    the check before an edit of an unread file: refused
//   plugin.<agent>.noWindow      the check before an edit with no window to ask (no address, no window's record): let through
import * as vscode from 'vscode';
import { SYNC_URI } from '../../src/editor/vscodeEditor';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { userPluginFile as clineUserFile } from '../../src/agents/cline/node/pluginFile';
import { userPluginFile as opencodeUserFile } from '../../src/agents/opencode/node/pluginFile';
import { userExtensionFile as piUserFile } from '../../src/agents/pi/node/extensionFile';
import { compare, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { BRIDGE_ENV } from './bridge';

const GROUP = '7 hooks bridge';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Hook = (...args: never[]) => Promise<unknown>;

/** One agent's plugin as the bench drives it: its hooks for a chat, each answering whether the call was refused. */
interface PluginUnderTest {
  /** the agent's id in the rows, and how the labels name it */
  id: string;
  name: string;
  setting: string;
  file: string;
  /** the plugin loaded from `file` as the agent loads it */
  load(file: string): {
    prompt(chat: string): Promise<unknown>;
    beforeRead(chat: string, file: string, call: string): Promise<boolean>;
    afterRead(chat: string, file: string, call: string): Promise<unknown>;
    beforeEdit(chat: string, file: string, call: string): Promise<boolean>;
    /** the edit's result: it settles the call, so the file is free for the chat's next edit (rule 14) */
    afterEdit(chat: string, file: string, call: string): Promise<unknown>;
  };
}

/** The bundled plugin a file of ours requires (its `const plugin = "<path>"` line), as the file itself does. */
function requiredBy(file: string): unknown {
  const m = /^const plugin = (".*");$/m.exec(fs.readFileSync(file, 'utf8'));
  if (!m) throw new Error(`plugins bench: ${file} names no plugin`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(JSON.parse(m[1]) as string);
}

const PLUGINS: PluginUnderTest[] = [
  {
    id: 'pi',
    name: "pi's extension",
    setting: 'guardPi',
    file: piUserFile(),
    load(file) {
      const handlers = new Map<string, Hook>();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require(file) as (pi: { on(event: string, handler: Hook): void }) => void)({ on: (event, h) => handlers.set(event, h) });
      const on = (event: string) => handlers.get(event) as (event: object, ctx: object) => Promise<unknown>;
      const ctx = (chat: string) => ({ cwd: os.homedir(), sessionManager: { getSessionId: () => chat } });
      const tool = (toolName: string, file: string, call: string) =>
        toolName === 'read'
          ? { toolName, toolCallId: call, input: { path: file } }
          : { toolName, toolCallId: call, input: { path: file, edits: [{ oldText: 'x', newText: 'y' }] } };
      const blocked = (r: unknown) => (r as { block?: boolean } | undefined)?.block === true;
      return {
        prompt: (chat) => on('before_agent_start')({ prompt: 'bench' }, ctx(chat)),
        beforeRead: async (chat, file, call) => blocked(await on('tool_call')(tool('read', file, call), ctx(chat))),
        afterRead: (chat, file, call) => on('tool_result')(tool('read', file, call), ctx(chat)),
        beforeEdit: async (chat, file, call) => blocked(await on('tool_call')(tool('edit', file, call), ctx(chat))),
        afterEdit: (chat, file, call) => on('tool_result')(tool('edit', file, call), ctx(chat)),
      };
    },
  },
  {
    id: 'cline',
    name: "Cline's plugin",
    setting: 'guardCline',
    file: clineUserFile(),
    load(file) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const plugin = require(file) as { setup(api: unknown, ctx: unknown): void; hooks: Record<string, (e: object) => Promise<unknown>> };
      // no session of Cline's: each chat is named by its snapshot's conversation
      plugin.setup({}, {});
      const snapshot = (chat: string) => ({ agentId: 'bench', conversationId: chat });
      const read = (chat: string, file: string, call: string) => ({
        snapshot: snapshot(chat),
        toolCall: { toolCallId: call, toolName: 'read_files' },
        input: { files: [{ path: file }] },
        result: { output: [{ success: true }] },
      });
      const edit = (chat: string, file: string, call: string) => ({
        snapshot: snapshot(chat),
        toolCall: { toolCallId: call, toolName: 'editor' },
        input: { path: file, old_text: 'x', new_text: 'y' },
      });
      const skipped = (r: unknown) => (r as { skip?: boolean } | undefined)?.skip === true;
      return {
        prompt: (chat) => plugin.hooks.beforeRun({ snapshot: { ...snapshot(chat), messages: [{ role: 'user', content: 'bench' }] } }),
        beforeRead: async (chat, file, call) => skipped(await plugin.hooks.beforeTool(read(chat, file, call))),
        afterRead: (chat, file, call) => plugin.hooks.afterTool(read(chat, file, call)),
        beforeEdit: async (chat, file, call) => skipped(await plugin.hooks.beforeTool(edit(chat, file, call))),
        afterEdit: (chat, file, call) => plugin.hooks.afterTool({ ...edit(chat, file, call), result: { output: [{ success: true }] } }),
      };
    },
  },
  {
    id: 'opencode',
    name: "opencode's plugin",
    setting: 'guardOpencode',
    file: opencodeUserFile(),
    load(file) {
      // opencode imports the file (an ES module), which hands over the bundle's hooks for its folder
      const hooks = (
        requiredBy(file) as { opencodeHooks(ctx: object): Record<string, (input: object, output: object) => Promise<unknown>> }
      ).opencodeHooks({
        directory: os.homedir(),
      });
      const refused = (run: Promise<unknown>) =>
        run.then(
          () => false,
          () => true,
        );
      return {
        prompt: (chat) => hooks['chat.message']({ sessionID: chat }, { parts: [{ type: 'text', text: 'bench' }] }),
        beforeRead: (chat, file, call) =>
          refused(hooks['tool.execute.before']({ tool: 'read', sessionID: chat, callID: call }, { args: { filePath: file } })),
        afterRead: (chat, file, call) =>
          hooks['tool.execute.after']({ tool: 'read', sessionID: chat, callID: call, args: { filePath: file } }, {}),
        beforeEdit: (chat, file, call) =>
          refused(
            hooks['tool.execute.before'](
              { tool: 'edit', sessionID: chat, callID: call },
              { args: { filePath: file, oldString: 'x', newString: 'y' } },
            ),
          ),
        afterEdit: (chat, file, call) =>
          hooks['tool.execute.after'](
            { tool: 'edit', sessionID: chat, callID: call, args: { filePath: file, oldString: 'x', newString: 'y' } },
            {},
          ),
      };
    },
  },
];

export async function pluginRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  for (const plugin of PLUGINS) await roundTrips(plugin, rows, info, ws, quick);
}

async function roundTrips(plugin: PluginUnderTest, rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  const { file } = plugin;
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update(plugin.setting, 'user', vscode.ConfigurationTarget.Global);
  const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-bench-plugin-'));
  try {
    for (const end = Date.now() + 15000; !fs.existsSync(file); await sleep(50)) {
      if (Date.now() > end) throw new Error(`plugins bench: ${file} was not written`);
    }
    // the extension host's environment holds the bridge's address: the plugin, in this process, reaches it
    const hooks = plugin.load(file);
    const target = path.join(ws, `plugin-roundtrip-${plugin.id}.txt`);
    fs.writeFileSync(target, 'x\n'.repeat(50));
    // the denials' file: no chat has a write of it in flight (the allowed edits never run, and rule 14 holds theirs)
    const unread = path.join(ws, `plugin-roundtrip-${plugin.id}-unread.txt`);
    fs.writeFileSync(unread, 'x\n'.repeat(50));
    let n = 0;
    const call = () => `call_${++n}`;
    // one chat that has read the file (its edits pass, and none lands: the edit never runs); a fresh chat per denial
    const reader = `bench-plugin-${plugin.id}-reader`;
    await hooks.prompt(reader);
    const first = call();
    await hooks.beforeRead(reader, target, first);
    await hooks.afterRead(reader, target, first);
    const refused: Record<string, boolean> = {};
    // no window to ask: the address out of the environment and a home without records, for that call alone
    const saved: Record<string, string | undefined> = {};
    const noWindow = {
      setup: () => {
        for (const k of [...BRIDGE_ENV, 'HOME']) saved[k] = process.env[k];
        for (const k of BRIDGE_ENV) delete process.env[k];
        process.env.HOME = emptyHome;
      },
      teardown: () => {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      },
    };
    const c = await compare(
      [
        { name: 'nothing', run: async () => undefined },
        // the round trip to the workbench an event that needs a held document's text makes once (Editor.sync)
        { name: 'floor', run: async () => void (await vscode.workspace.fs.stat(SYNC_URI)) },
        { name: 'readStart', run: async () => (refused.readStart = await hooks.beforeRead(reader, target, call())) },
        { name: 'readMark', run: async () => void (await hooks.afterRead(reader, target, `call_${n}`)) },
        {
          name: 'editAllowed',
          run: async () => (refused.editAllowed = await hooks.beforeEdit(reader, target, call())),
          // the edit "ran": its result settles it, untimed, so the chat's next edit is not a sibling's of one in flight (rule 14)
          teardown: async () => void (await hooks.afterEdit(reader, target, `call_${n}`)),
        },
        { name: 'editDenied', run: async () => (refused.editDenied = await hooks.beforeEdit(`bench-plugin-unread-${n}`, unread, call())) },
        {
          name: 'noWindow',
          ...noWindow,
          run: async () => (refused.noWindow = await hooks.beforeEdit(`bench-plugin-away-${n}`, unread, call())),
        },
      ],
      { warmup: 3, rounds: quick ? 9 : 41 },
    );
    if (refused.readStart || refused.editAllowed || !refused.editDenied || refused.noWindow)
      throw new Error(`plugins bench: ${plugin.name}, unexpected answers ${JSON.stringify(refused)}`);
    info[`plugin.${plugin.id}`] = { file };
    const added = (variant: string) => stat(c.samples[variant].map((t, i) => t - c.samples.nothing[i]));
    const floor = c.times.floor.median;
    const goal = { text: `≤ floor + 2 ms (${(floor + 2).toFixed(2)})`, max: floor + 2, on: 'value' as const };
    const row = (variant: string, label: string): Row => ({
      id: `plugin.${plugin.id}.${variant}`,
      group: GROUP,
      label: `${plugin.name}: ${label}`,
      value: added(variant),
      baseline: { label: 'a do-nothing hook', ...c.times.nothing },
      unit: 'ms',
      goal,
      note: `the hook's own time: median ${c.times[variant].median.toFixed(2)} ms; the floor (one round trip to the workbench) ${floor.toFixed(2)} ms`,
    });
    rows.push(
      row('readStart', 'the check before a read, in its process (added to the call)'),
      row('readMark', 'the hook after the read, the read mark'),
      row('editAllowed', 'the check before an edit of a read file, let through'),
      row('editDenied', 'the check before an edit of an unread file, refused'),
      row('noWindow', "no window to ask (no address, no window's record): let through"),
    );
  } finally {
    await config.update(plugin.setting, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(emptyHome, { recursive: true, force: true });
  }
}
