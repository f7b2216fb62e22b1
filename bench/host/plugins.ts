// Group 7 too: the agents' in-process plugins (pi's, Cline's, opencode's: src/agents/<agent>/node/plugin.ts), in
// the real extension host. Each plugin is loaded the way its agent loads it — from the file the extension wrote
// into the agent's user folder once its setting is `user` — and each of its hooks is called as the agent calls it,
// timed from the call to its answer; the agent's test folder says how (test/<agent>/testAgent.ts `bench.plugin`).
// The baseline, in the same rounds, is a hook that does nothing: what the agent pays for any plugin. Rows (ids
// stable; <agent> is pi, cline, opencode); the goal of each call is at most the floor (one round trip to the
// workbench, `Editor.sync`, timed in the same rounds) + 2 ms added, median per round:
//   plugin.<agent>.readStart     the check before a read (the version the read will show)
//   plugin.<agent>.readMark      the hook after it (the read mark)
//   plugin.<agent>.editAllowed   the check before an edit of a read file
//   plugin.<agent>.editDenied    the check before an edit of an unread file: refused
//   plugin.<agent>.noWindow      the check before an edit with no window to ask (no address, no window's entry): let through
import * as vscode from 'vscode';
import { SYNC_URI } from '../../src/editor/vscodeEditor';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compare, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { BRIDGE_ENV } from './bridge';
import type { BenchPlugin } from '../../test/shared/testAgent';
import { TEST_AGENTS, userFileOf } from '../../test/shared/testAgents';

const GROUP = '7 hooks bridge';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One agent's plugin as the bench drives it: its hooks for a chat, each answering whether the call was refused. */
interface PluginUnderTest extends BenchPlugin {
  /** the agent's id in the rows */
  id: string;
  setting: string;
  file: string;
}

/** The agents whose test folder says how the bench loads their plugin (test/<agent>/testAgent.ts `bench.plugin`). */
const PLUGINS: PluginUnderTest[] = TEST_AGENTS.flatMap((agent) => {
  const { bench } = agent;
  return bench?.plugin ? [{ ...bench.plugin, id: bench.id, setting: agent.setting, file: userFileOf(agent) }] : [];
});

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
      row('noWindow', "no window to ask (no address, no window's entry): let through"),
    );
  } finally {
    await config.update(plugin.setting, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(emptyHome, { recursive: true, force: true });
  }
}
