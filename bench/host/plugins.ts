// Group 7 too: an agent's in-process plugin (pi's: src/agents/pi/node/plugin.ts), in the real extension host. The
// plugin is loaded the way pi loads it — the file the extension wrote into pi's user folder once
// `editGuard.guardPi` is `user`, required as a module — and each of its handlers is called as pi calls it, timed
// from the call to its answer. The baseline, in the same rounds, is a handler that does nothing: what pi pays for
// any extension. Rows (ids stable); the goal of each checked call is at most 1 ms added, median per round:
//   plugin.pi.floor            a do-nothing async handler
//   plugin.pi.readStart        tool_call read (the version the read will show)
//   plugin.pi.readMark         tool_result read after it (the read mark)
//   plugin.pi.editAllowed      tool_call edit of a read file
//   plugin.pi.editDenied       tool_call edit of an unread file: blocked
//   plugin.pi.noWindow         tool_call edit with no window to ask (no address, no window's record): let through
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compare, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { BRIDGE_ENV } from './bridge';

const GROUP = '7 hooks bridge';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Handler = (event: Record<string, unknown>, ctx: object) => Promise<unknown>;

/** pi's extension file as the extension wrote it, loaded as pi loads it; its handlers by event. */
function loadAsPi(file: string): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require(file) as (pi: { on(event: string, handler: Handler): void }) => void;
  factory({ on: (event, handler) => handlers.set(event, handler) });
  return handlers;
}

export async function pluginRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  const file = path.join(os.homedir(), '.pi', 'agent', 'extensions', 'agent-edit-guard.js');
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('guardPi', 'user', vscode.ConfigurationTarget.Global);
  const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-bench-plugin-'));
  try {
    for (const end = Date.now() + 15000; !fs.existsSync(file); await sleep(50)) {
      if (Date.now() > end) throw new Error(`plugins bench: ${file} was not written`);
    }
    // the extension host's environment holds the bridge's address: the plugin, in this process, reaches it
    const handlers = loadAsPi(file);
    const on = (event: string) => {
      const h = handlers.get(event);
      if (!h) throw new Error(`plugins bench: pi's extension has no ${event} handler`);
      return h;
    };
    const target = path.join(ws, 'plugin-roundtrip.txt');
    fs.writeFileSync(target, 'x\n'.repeat(50));
    // the denials' file: no chat has a write of it in flight (the allowed edits never run, and rule 14 holds theirs)
    const unread = path.join(ws, 'plugin-roundtrip-unread.txt');
    fs.writeFileSync(unread, 'x\n'.repeat(50));
    let n = 0;
    const ctx = (session: string) => ({ cwd: ws, sessionManager: { getSessionId: () => session } });
    const read = { toolName: 'read', input: { path: target } };
    const editOf = (file: string) => ({ toolName: 'edit', input: { path: file, edits: [{ oldText: 'x', newText: 'y' }] } });
    const edit = editOf(target);
    const call = (event: string, tool: object, session: string) => on(event)({ ...tool, toolCallId: `call_${++n}` }, ctx(session));
    // one chat that has read the file (its edits pass, and none lands: the edit never runs); a fresh chat per denial
    const reader = 'bench-plugin-reader';
    await on('before_agent_start')({ prompt: 'bench' }, ctx(reader));
    await call('tool_call', read, reader);
    await call('tool_result', read, reader);
    const blocked = (r: unknown) => (r as { block?: boolean } | undefined)?.block === true;
    const last: Record<string, unknown> = {};
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
        { name: 'floor', run: async () => undefined },
        { name: 'readStart', run: async () => (last.readStart = await call('tool_call', read, reader)) },
        { name: 'readMark', run: async () => (last.readMark = await call('tool_result', read, reader)) },
        { name: 'editAllowed', run: async () => (last.editAllowed = await call('tool_call', edit, reader)) },
        { name: 'editDenied', run: async () => (last.editDenied = await call('tool_call', editOf(unread), `bench-plugin-unread-${n}`)) },
        {
          name: 'noWindow',
          ...noWindow,
          run: async () => (last.noWindow = await call('tool_call', editOf(unread), `bench-plugin-away-${n}`)),
        },
      ],
      { warmup: 3, rounds: quick ? 9 : 41 },
    );
    if (last.editAllowed !== undefined || !blocked(last.editDenied) || last.noWindow !== undefined)
      throw new Error(`plugins bench: unexpected answers ${JSON.stringify(last)}`);
    info.pluginPi = { file };
    const added = (variant: string) => stat(c.samples[variant].map((t, i) => t - c.samples.floor[i]));
    const goal = { text: '≤ 1 ms added', max: 1, on: 'value' as const };
    const row = (id: string, variant: string, label: string): Row => ({
      id,
      group: GROUP,
      label,
      value: added(variant),
      baseline: { label: 'a do-nothing handler', ...c.times.floor },
      unit: 'ms',
      goal,
      note: `the handler's own time: median ${c.times[variant].median.toFixed(2)} ms`,
    });
    rows.push(
      row('plugin.pi.readStart', 'readStart', "pi's extension, in its process: tool_call read (added to the call)"),
      row('plugin.pi.readMark', 'readMark', "pi's extension: tool_result read, the read mark"),
      row('plugin.pi.editAllowed', 'editAllowed', "pi's extension: tool_call edit of a read file, let through"),
      row('plugin.pi.editDenied', 'editDenied', "pi's extension: tool_call edit of an unread file, blocked"),
      row('plugin.pi.noWindow', 'noWindow', "pi's extension, no window to ask (no address, no window's record): let through"),
    );
  } finally {
    await config.update('guardPi', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(emptyHome, { recursive: true, force: true });
  }
}
