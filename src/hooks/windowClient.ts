// Asking a window's gate about one hook event, from plain Node: what the Node client (nodeClient.ts, a
// process per event) and an agent's in-process plugin (src/agents/<agent>/node/plugin.ts, loaded into the
// agent's own process) share. The window is the one whose extension host the agent descends from (its
// address in the environment), else the one whose workspace folder holds the file the call touches (its
// record, discovery.ts). Whatever goes wrong — no window, no answer within the bound, a refused secret —
// the answer is '' (the call is let through: fail-open, docs/design.md rule 7) and the miss is noted
// where the window will log it. Nothing received is ever run: the answer is only returned.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { findWindow } from './discovery';
import { AGENT_ID, DEFAULT_BOUND_MS, ENV, type MissedCall, parseAddress, requestHeader, STATUS } from './protocol';

/** Where a client learns how to reach a window: its own environment (the agent's). */
export type ClientEnvironment = Readonly<Record<string, string | undefined>>;

/** How long a client waits for the window, as its environment says (tests shorten it), and never past `most`. */
export function boundOf(env: ClientEnvironment, most = DEFAULT_BOUND_MS): number {
  const ms = Number(env[ENV.boundMs]);
  return Math.min(ms > 0 ? ms : DEFAULT_BOUND_MS, most);
}

/**
 * The window's answer to one payload of `agent`'s hooks: what the hook prints (a refusal), '' to let the
 * call through. Never rejects. A miss is noted in the missed-calls file of the window asked: the environment's,
 * or its entry's. `mostMs`: the longest the agent lets its hook take (Cline's plugins: 3 s, then the run fails).
 */
export async function askWindow(
  agent: string,
  payload: Buffer,
  env: ClientEnvironment = process.env,
  mostMs = DEFAULT_BOUND_MS,
  /** the process that ran the hook (a hook command's client says; an in-process plugin has none) */
  parent?: string,
): Promise<string> {
  const bound = boundOf(env, mostMs);
  let address = env[ENV.socket];
  let secret = env[ENV.secret];
  let missedFile = env[ENV.missed];
  if (!address || !secret) {
    // not a child of a window's extension host: the window whose folder holds the file, from its entry
    const window = windowOf(payload.toString('utf8'));
    if (!window) return '';
    ({ address, secret, missed: missedFile } = window);
  }
  const asked = await forward(address, secret, agent, payload, bound, parent);
  if ('answer' in asked) return asked.answer;
  noteMissed(missedFile, payload, asked.missed);
  return '';
}

/**
 * An in-process plugin's event, in the shape of VS Code's hook payloads (its agent's events.ts reads it), sent as
 * askWindow sends a hook's stdin; the answer's refusal, if any (`refusalOf`).
 */
export async function askWindowAbout(
  agent: string,
  fields: Record<string, unknown>,
  env: ClientEnvironment,
  mostMs = DEFAULT_BOUND_MS,
): Promise<string | undefined> {
  return refusalOf(await askWindow(agent, Buffer.from(JSON.stringify(fields)), env, mostMs));
}

/** The reason of a refusal in the window's answer (VS Code's deny, `denyPreToolUse`); undefined: let the call through. */
export function refusalOf(answer: string): string | undefined {
  try {
    const out = (JSON.parse(answer) as { hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown } })
      .hookSpecificOutput;
    if (out?.permissionDecision === 'deny') return String(out.permissionDecisionReason ?? '');
  } catch {
    // '' (let through) or anything else: not a refusal
  }
  return undefined;
}

type Asked = { answer: string } | { missed: string };

/** The window whose workspace folder holds the file the call touches (else the hook's cwd), if any. */
function windowOf(payloadText: string) {
  try {
    const payload = JSON.parse(payloadText) as { cwd?: unknown; tool_input?: Record<string, unknown> };
    const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
    const input = typeof payload.tool_input === 'object' && payload.tool_input !== null ? payload.tool_input : {};
    const file = [input.file_path, input.filePath, input.path].find((v): v is string => typeof v === 'string' && v.length > 0);
    const target = file !== undefined ? path.resolve(cwd ?? '/', file) : cwd;
    return target ? findWindow(target) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One request on its own connection (protocol.ts): the header, the payload; the status line, then the answer.
 * Past `bound` the connection is dropped: in an agent's own process an open socket would keep it from ending.
 */
function forward(address: string, secret: string, agent: string, payload: Buffer, bound: number, parent?: string): Promise<Asked> {
  const target = parseAddress(address);
  if (!target) return Promise.resolve({ missed: `${ENV.socket} is not an address (${address})` });
  if (!AGENT_ID.test(agent)) return Promise.resolve({ missed: `the hook command named no agent (${JSON.stringify(agent)})` });
  return new Promise((resolve) => {
    const reply: Buffer[] = [];
    const socket = net.createConnection(target);
    const timer = setTimeout(() => {
      resolve({ missed: `no answer from the extension within ${bound} ms` });
      socket.destroy();
    }, bound);
    timer.unref();
    socket.on('connect', () => {
      // the header's length says where the payload ends, so our side stays open: Bun (opencode's runtime) drops
      // the answer of a socket that half-closed, Node waits for it
      socket.write(requestHeader(secret, agent, payload.length, parent));
      socket.write(payload);
    });
    socket.on('data', (chunk: Buffer) => reply.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => resolve({ missed: `could not reach the extension (${e.code ?? e.message})` }));
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = Buffer.concat(reply);
      const newline = answer.indexOf(0x0a);
      if (newline < 0) return resolve({ missed: 'the extension closed the connection without an answer' });
      const status = answer.subarray(0, newline).toString('utf8');
      if (status !== STATUS.ok) return resolve({ missed: `the extension refused the request (${status})` });
      resolve({ answer: answer.subarray(newline + 1).toString('utf8') });
    });
  });
}

/**
 * The name of this process's parent — the program that ran the hook command, which `exec`s the client — where the
 * OS tells it without starting a process (Linux's /proc); undefined elsewhere.
 */
export function parentProcessName(): string | undefined {
  try {
    // the name it was started by (argv[0]), not its thread's: the Copilot CLI's main thread is named "MainThread"
    const argv0 = fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0')[0];
    return (argv0 ? path.basename(argv0) : fs.readFileSync(`/proc/${process.ppid}/comm`, 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

/** Notes a call let through unanswered, for the window's log; with nowhere to note it, the call is allowed all the same. */
export function noteMissed(missedFile: string | undefined, payload: Buffer, why: string): void {
  if (!missedFile) return;
  try {
    fs.appendFileSync(missedFile, JSON.stringify(describe(payload, why)) + '\n', { mode: 0o600 });
  } catch {
    // nowhere to note it
  }
}

function describe(payload: Buffer, why: string): MissedCall {
  const note: MissedCall = { at: Date.now(), why };
  try {
    const p = JSON.parse(payload.toString('utf8')) as { hook_event_name?: unknown; tool_name?: unknown };
    if (typeof p.hook_event_name === 'string') note.event = p.hook_event_name;
    if (typeof p.tool_name === 'string') note.tool = p.tool_name;
  } catch {
    // not JSON: the note says only why
  }
  return note;
}
