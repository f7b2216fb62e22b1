// Group 7, the window's own time per hook event (part of bench/host/index.ts): each agent's payloads, as its hook
// command carries them (bench/host/hooks.ts), sent straight to the bridge over one loopback connection from this
// extension host, timed from the request written to the answer read — no process start, no shell, no client —
// less the same request to a listener in this host that answers at once, in the same round: what the
// extension itself takes to answer, at 1 KB and 100 KB files.
//   window.<who>.<event>.<size>   who: local (Copilot's Local agent), harness (the Copilot harness), claude,
//                                 codex, gemini, qwen; event: readStart, readMark, editAllowed, editDenied, prompt
//   window.ignored.<size>         an event the gate does not need (the bridge's own floor)
//   window.floor.<size>           the round trip to the workbench that brings the documents up to date (Editor.sync: a
//                                 `workspace.fs.stat` of the extension's own empty scheme), alone, in the same rounds: an
//                                 event that needs a held document's current text costs one; its goal is this + 2 ms
//   window.shell.<kind>.<size>    Copilot's run_in_terminal (rule 16): a command that writes nothing, one whose write is
//                                 found and checked (allowed); and what reading the command adds: the first less
//                                 `ignored`, the second less the Local agent's allowed edit check of the same file (goal ≤ 1 ms)
// The goal of each event: a median of at most 2 ms (issue 36); p95 is in the note. pi's, Cline's and opencode's
// plugins ask the window from their own process: their rows (bench/host/plugins.ts) are this same measure.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { compare, percentile, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { ENV_SECRET, ENV_SOCKET, setBridge } from './bridge';
import { requestHeader } from '../../src/hooks/protocol';
import { SYNC_URI } from '../../src/editor/vscodeEditor';

const GROUP = '7 hooks bridge';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One request to the bridge (or to `address`) as a client sends it; resolves with the answer (status line, then what the hook prints). */
export function askWindow(agent: string, payload: string, address = process.env[ENV_SOCKET]): Promise<string> {
  const secret = process.env[ENV_SECRET];
  if (!address || !secret) return Promise.reject(new Error('window bench: the bridge is not listening'));
  const [host, port] = address.split(':');
  const body = Buffer.from(payload, 'utf8');
  return new Promise((resolve, reject) => {
    // one write, as the clients send it; the answer is complete at the window's end of the stream
    const socket = net.connect({ host, port: Number(port) }, () =>
      socket.end(Buffer.concat([Buffer.from(requestHeader(secret, agent, body.length)), body])),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** How one agent sends its events: its hook entries' id, its event names, its read and edit, its deny. */
interface Shape {
  label: string;
  agent: string;
  /** its setting, turned on (`user`) while these rows run; Copilot's is the bridge's own (setBridge) */
  setting?: string;
  events: { pre: string; post: string; turn: string };
  read: object;
  edit(file: string): object;
  /** what its PostToolUse carries besides the call */
  after: object;
  payload(event: string, chat: string, extra: object): string;
  denies(answer: string): boolean;
}

const PRE_POST = { pre: 'PreToolUse', post: 'PostToolUse', turn: 'UserPromptSubmit' };
const deniesHook = (a: string) => a.startsWith('ok\n') && /"permissionDecision"\s*:\s*"deny"/.test(a);
const deniesGemini = (a: string) => a.startsWith('ok\n') && /"decision"\s*:\s*"deny"/.test(a);

function shapes(ws: string, file: string, line: string): Record<string, Shape> {
  let n = 0;
  // as Copilot's Local agent sends them (bench/host/hooks.ts); the harness's carry no transcript or call id
  const local = (event: string, chat: string, extra: object) =>
    JSON.stringify({
      timestamp: new Date().toISOString(),
      hook_event_name: event,
      session_id: chat,
      transcript_path: path.join(os.tmpdir(), `${chat}.jsonl`),
      cwd: ws,
      tool_use_id: `call_${++n}`,
      ...extra,
    });
  const harness = (event: string, chat: string, extra: object) =>
    JSON.stringify({ hook_event_name: event, session_id: chat, timestamp: new Date().toISOString(), cwd: ws, ...extra });
  // Codex's carry its turn (test/codex/FACTS.md)
  const codex = (event: string, chat: string, extra: object) =>
    JSON.stringify({
      session_id: chat,
      turn_id: `${chat}-turn`,
      transcript_path: path.join(os.tmpdir(), `${chat}.jsonl`),
      cwd: ws,
      hook_event_name: event,
      model: 'gpt-5.5',
      permission_mode: 'bypassPermissions',
      tool_use_id: `call_${++n}`,
      ...extra,
    });
  const after = { tool_response: line.repeat(10) };
  /** Claude Code's tools and payloads, and the agents that took them over (Gemini CLI's and Qwen Code's names) */
  const claudeLike = (label: string, agent: string, setting: string, read: string, edit: string, events = PRE_POST): Shape => ({
    label,
    agent,
    setting,
    events,
    read: { tool_name: read, tool_input: { file_path: file } },
    edit: (f) => ({ tool_name: edit, tool_input: { file_path: f, old_string: line, new_string: 'y\n' } }),
    after,
    payload: local,
    denies: events.pre === 'BeforeTool' ? deniesGemini : deniesHook,
  });
  return {
    local: {
      label: 'Copilot Local',
      agent: 'copilot',
      events: PRE_POST,
      read: { tool_name: 'read_file', tool_input: { filePath: file, startLine: 1, endLine: 10 } },
      edit: (f) => ({ tool_name: 'replace_string_in_file', tool_input: { filePath: f, oldString: line, newString: 'y\n' } }),
      after,
      payload: local,
      denies: deniesHook,
    },
    harness: {
      label: 'Copilot harness',
      agent: 'copilot',
      events: PRE_POST,
      read: { tool_name: 'Read', tool_input: { path: file } },
      edit: (f) => ({ tool_name: 'Edit', tool_input: { path: f, old_str: line, new_str: 'y\n' } }),
      after: {},
      payload: harness,
      denies: deniesHook,
    },
    claude: claudeLike('Claude Code', 'claude-code', 'guardClaudeCode', 'Read', 'Edit'),
    codex: {
      label: 'Codex',
      agent: 'codex',
      setting: 'guardCodex',
      events: PRE_POST,
      read: { tool_name: 'Bash', tool_input: { command: `cat ${path.basename(file)}` } },
      edit: (f) => ({
        tool_name: 'apply_patch',
        tool_input: { command: `*** Begin Patch\n*** Update File: ${path.basename(f)}\n@@\n-${line}+y\n*** End Patch\n` },
      }),
      after,
      payload: codex,
      denies: deniesHook,
    },
    gemini: claudeLike('Gemini CLI', 'gemini-cli', 'guardGeminiCli', 'read_file', 'replace', {
      pre: 'BeforeTool',
      post: 'AfterTool',
      turn: 'BeforeAgent',
    }),
    qwen: claudeLike('Qwen Code', 'qwen-code', 'guardQwenCode', 'read_file', 'edit'),
  };
}

/** Copilot's terminal tool, as its hook names it, running `command`. */
const terminal = (command: string) => ({
  tool_name: 'run_in_terminal',
  tool_input: { command, explanation: 'as asked', isBackground: false },
});
/** A command that writes nothing, of the kind agents run between edits. */
const SHELL_NOTHING = 'ls -la src && git status --short | head -20';
/** A command that appends a line to `file`. */
const shellWrite = (file: string) => `cd '${path.dirname(file)}' && printf 'one more line\n' >> '${path.basename(file)}'`;

const EVENTS = {
  readStart: 'the start of a read',
  readMark: 'a read mark',
  editAllowed: 'an edit check, allowed',
  editDenied: 'an edit check, denied (the refusal)',
  prompt: 'the start of a turn',
};

export async function windowAnswers(
  rows: Row[],
  info: Record<string, unknown>,
  ws: string,
  quick: boolean,
  profiled: (name: string, body: () => Promise<void>) => Promise<void>,
): Promise<void> {
  await setBridge(true, ws);
  const config = vscode.workspace.getConfiguration('editGuard', null);
  const settings = Object.values(shapes(ws, '', '')).flatMap((s) => (s.setting ? [s.setting] : []));
  for (const setting of settings) await config.update(setting, 'user', vscode.ConfigurationTarget.Global);
  const samplesOf: Record<string, unknown> = {};
  const echo = await answeringListener();
  try {
    // a fresh chat per sample, UUID-shaped as the terminal agents' are: a denial's refusal would count as a read
    const chat = () => crypto.randomUUID();
    const answers: Record<string, string> = {};
    const ask = (name: string, agent: string, body: () => string, address?: string) => async () => {
      answers[name] = await askWindow(agent, body(), address);
    };
    const expect = (name: string, ok: (answer: string) => boolean) => () => {
      if (!ok(answers[name] ?? '')) throw new Error(`window bench: ${name} answered ${JSON.stringify(answers[name])}`);
    };
    const empty = (a: string) => a === 'ok\n';
    const untimed = async (agent: string, body: string) => {
      const a = await askWindow(agent, body);
      if (!empty(a)) throw new Error(`window bench: an untimed event of ${agent} answered ${JSON.stringify(a)}`);
    };

    for (const [size, label] of [
      [1024, '1 KB'],
      [100 * 1024, '100 KB'],
    ] as const) {
      const line = 'x'.repeat(63) + '\n';
      const file = path.join(ws, `window-${size}.txt`);
      // the denials' file: never read, and held by no allowed edit (rule 14)
      const unread = path.join(ws, `window-${size}-unread.txt`);
      fs.writeFileSync(file, line.repeat(size / line.length));
      fs.writeFileSync(unread, line.repeat(size / line.length));
      const who = shapes(ws, file, line);
      // each agent's setting applies once its denial is a denial (the settings' change reaches the gate)
      for (const s of Object.values(who)) {
        const end = Date.now() + 15000;
        while (!s.denies(await askWindow(s.agent, s.payload(s.events.pre, chat(), s.edit(unread))))) {
          if (Date.now() > end) throw new Error(`window bench: ${s.label}'s hooks are not gated`);
          await sleep(50);
        }
      }
      const chats: Record<string, string> = {};
      const c = await compare(
        [
          // the floor: the same request to a listener in this extension host that answers at once
          {
            name: 'echo',
            run: ask('echo', 'copilot', () => who.local.payload('PreToolUse', chat(), who.local.read), echo.address),
            teardown: expect('echo', empty),
          },
          // the round trip every event that needs a held document's current text makes once (Editor.sync)
          { name: 'floor', run: async () => void (await vscode.workspace.fs.stat(SYNC_URI)) },
          {
            name: 'ignored',
            run: ask('ignored', 'copilot', () =>
              who.local.payload('PreToolUse', chat(), { tool_name: 'list_dir', tool_input: { path: ws } }),
            ),
            teardown: expect('ignored', empty),
          },
          // a shell command that writes nothing: parsed, nothing to check
          {
            name: 'shell.nothing',
            run: ask('shell.nothing', 'copilot', () => who.local.payload('PreToolUse', chat(), terminal(SHELL_NOTHING))),
            teardown: expect('shell.nothing', empty),
          },
          // a shell command that appends to the file the chat has read: parsed, the file found and checked, allowed
          {
            name: 'shell.writeChecked',
            setup: async () => {
              const c = (chats['shell.writeChecked'] = chat());
              await untimed('copilot', who.local.payload('PreToolUse', c, terminal(`cat '${file}'`)));
              await untimed('copilot', who.local.payload('PostToolUse', c, { ...terminal(`cat '${file}'`), ...who.local.after }));
            },
            run: ask('shell.writeChecked', 'copilot', () =>
              who.local.payload('PreToolUse', chats['shell.writeChecked'], terminal(shellWrite(file))),
            ),
            // the command "ran": its PostToolUse settles it, so the file is free for the next chat (rule 14)
            teardown: async () => {
              expect('shell.writeChecked', empty)();
              await untimed(
                'copilot',
                who.local.payload('PostToolUse', chats['shell.writeChecked'], { ...terminal(shellWrite(file)), ...who.local.after }),
              );
            },
          },
          ...Object.entries(who).flatMap(([id, s]) => {
            const { pre, post, turn } = s.events;
            const v = (event: keyof typeof EVENTS) => `${id}.${event}`;
            return [
              {
                name: v('readStart'),
                run: ask(v('readStart'), s.agent, () => s.payload(pre, chat(), s.read)),
                teardown: expect(v('readStart'), empty),
              },
              {
                name: v('readMark'),
                setup: async () => untimed(s.agent, s.payload(pre, (chats[v('readMark')] = chat()), s.read)),
                run: ask(v('readMark'), s.agent, () => s.payload(post, chats[v('readMark')], { ...s.read, ...s.after })),
                teardown: expect(v('readMark'), empty),
              },
              {
                name: v('editAllowed'),
                setup: async () => {
                  const c = (chats[v('editAllowed')] = chat());
                  await untimed(s.agent, s.payload(pre, c, s.read));
                  await untimed(s.agent, s.payload(post, c, { ...s.read, ...s.after }));
                },
                run: ask(v('editAllowed'), s.agent, () => s.payload(pre, chats[v('editAllowed')], s.edit(file))),
                // the edit "ran": its PostToolUse settles it, so the file is free for the next chat (rule 14)
                teardown: async () => {
                  expect(v('editAllowed'), empty)();
                  await untimed(s.agent, s.payload(post, chats[v('editAllowed')], { ...s.edit(file), ...s.after }));
                },
              },
              {
                name: v('editDenied'),
                run: ask(v('editDenied'), s.agent, () => s.payload(pre, chat(), s.edit(unread))),
                teardown: expect(v('editDenied'), s.denies),
              },
              {
                name: v('prompt'),
                run: ask(v('prompt'), s.agent, () => s.payload(turn, chat(), { prompt: 'Flip the marker.' })),
                teardown: expect(v('prompt'), empty),
              },
            ];
          }),
        ],
        { warmup: 3, rounds: quick ? 7 : 31 },
      );
      samplesOf[label] = c.samples;
      // the window's own time: each round's answer less the do-nothing listener's in the same round
      const own = (variant: string) => c.samples[variant].map((t, i) => t - c.samples.echo[i]);
      const base = { label: 'the same request to a listener that answers at once', ...c.times.echo };
      // the floor, and each event's time less it, round by round: what the window adds to the one round trip
      const floor = c.times.floor.median;
      const lessFloor = (variant: string) => own(variant).map((t, i) => t - c.samples.floor[i]);
      const row = (id: string, variant: string, text: string, goal: boolean): Row => ({
        id,
        group: GROUP,
        label: `the window's own time, ${text}, ${label}`,
        value: stat(own(variant)),
        baseline: base,
        unit: 'ms',
        ...(goal ? { goal: { text: `≤ floor + 2 ms (${(floor + 2).toFixed(2)})`, max: floor + 2, on: 'value' as const } } : {}),
        note:
          `less the floor ${stat(lessFloor(variant)).median.toFixed(2)} ms; p95 ${percentile(own(variant), 0.95).toFixed(2)} ms; ` +
          `the whole round trip ${c.times[variant].median.toFixed(2)} ms (p95 ${percentile(c.samples[variant], 0.95).toFixed(2)})`,
      });
      rows.push({
        id: `window.floor.${size}`,
        group: GROUP,
        label: `the floor: one round trip to the workbench, ordered after its document changes (Editor.sync), ${label}`,
        value: c.times.floor,
        unit: 'ms',
        note: `p95 ${percentile(c.samples.floor, 0.95).toFixed(2)} ms; in code-server the workbench is in the browser: a network round trip, an upper bound of a desktop VS Code's`,
      });
      rows.push(row(`window.ignored.${size}`, 'ignored', 'an event the gate does not need (PreToolUse list_dir)', false));
      rows.push(row(`window.shell.nothing.${size}`, 'shell.nothing', `a shell command that writes nothing (\`${SHELL_NOTHING}\`)`, false));
      rows.push(
        row(`window.shell.writeChecked.${size}`, 'shell.writeChecked', 'a shell command whose write is found and checked, allowed', true),
      );
      // what reading the command adds, round by round: against the event it would be without its command, and against
      // the same file's check through an edit tool (the document's load is in both)
      const less = (variant: string, than: string) => c.samples[variant].map((t, i) => t - c.samples[than][i]);
      for (const [id, variant, than, text] of [
        ['parse', 'shell.nothing', 'ignored', 'reading a shell command that writes nothing, over an event the gate does not need'],
        [
          'check',
          'shell.writeChecked',
          'local.editAllowed',
          "reading a shell command and checking its write, over the same file's edit check",
        ],
      ] as const)
        rows.push({
          id: `window.shell.${id}.${size}`,
          group: GROUP,
          label: `the window's own time, ${text}, ${label}`,
          value: stat(less(variant, than)),
          baseline: { label: 'the event it is compared with', ...c.times[than] },
          unit: 'ms',
          goal: { text: '≤ 1 ms', max: 1, on: 'value' as const },
          note: `p95 ${percentile(less(variant, than), 0.95).toFixed(2)} ms`,
        });
      for (const [id, s] of Object.entries(who))
        for (const [event, text] of Object.entries(EVENTS))
          rows.push(row(`window.${id}.${event}.${size}`, `${id}.${event}`, `${s.label}: ${text}`, true));
      // a run of edit checks alone, profiled (`--profile`): where the window's time goes
      await profiled(`window-edit-checks-${size}`, async () => {
        const s = who.local;
        for (let i = 0; i < 40; i++) {
          const c = chat();
          await untimed(s.agent, s.payload('PreToolUse', c, s.read));
          await untimed(s.agent, s.payload('PostToolUse', c, { ...s.read, ...s.after }));
          await untimed(s.agent, s.payload('PreToolUse', c, s.edit(file)));
          await untimed(s.agent, s.payload('PostToolUse', c, { ...s.edit(file), ...s.after }));
        }
      });
    }
    info.window = { samples: samplesOf };
  } finally {
    echo.close();
    for (const setting of settings) await config.update(setting, undefined, vscode.ConfigurationTarget.Global);
    await setBridge(false, ws);
  }
}

/**
 * A listener that answers `ok` with nothing to print as soon as a request is in (the length its header names, as
 * the bridge reads it: bash cannot half-close its end): the transport alone.
 */
export async function answeringListener(): Promise<{ address: string; close(): void }> {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let got = Buffer.alloc(0);
    let answered = false;
    const answer = () => {
      if (!answered) socket.end('ok\n');
      answered = true;
    };
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const newline = got.indexOf(0x0a);
      const length = newline < 0 ? undefined : / (\d+)$/.exec(got.subarray(0, newline).toString('utf8'))?.[1];
      if (length !== undefined && got.length >= newline + 1 + Number(length)) answer();
    });
    socket.on('end', answer);
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => server.close() };
}
