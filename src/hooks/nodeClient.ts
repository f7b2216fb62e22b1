// The hook command's Node client (bundled to dist/hook-bridge.js), for where bash is not there to
// run the cheaper bash client (Windows, or a system without bash); both speak protocol.ts and find a
// window the same way: its address in the environment, else its record (discovery.ts).
// Usage (as a hook command): node hook-bridge.js <agent id> <HookEvent>
// It forwards the hook's stdin to the running extension with the window's secret, and prints the
// extension's answer. It never runs anything it receives:
// the answer is only printed. Whatever goes wrong (no extension in this window, no answer within
// the bound, a refused secret), it prints nothing and exits 0, which lets the tool call through
// (fail-open), and notes the miss where the extension will log it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { findWindow, type WindowRecord } from './discovery';
import { AGENT_ID, DEFAULT_BOUND_MS, ENV, type MissedCall, parseAddress, requestHeader, STATUS } from './protocol';

const socketAddress = process.env[ENV.socket];
const secret = process.env[ENV.secret];
let missedFile = process.env[ENV.missed];
const bound = Number(process.env[ENV.boundMs]) > 0 ? Number(process.env[ENV.boundMs]) : DEFAULT_BOUND_MS;
/** the agent whose hook entry runs this (its first argument) */
const agent = process.argv[2] ?? '';

let finished = false;
const input: Buffer[] = [];

function finish(stdout: string, missedWhy?: string): void {
  if (finished) return;
  finished = true;
  if (missedWhy && missedFile) {
    try {
      fs.appendFileSync(missedFile, JSON.stringify(describe(missedWhy)) + '\n', { mode: 0o600 });
    } catch {
      // nowhere to note it: the call is allowed all the same
    }
  }
  process.stdout.write(stdout, () => process.exit(0));
}

function describe(why: string): MissedCall {
  const note: MissedCall = { at: Date.now(), why };
  try {
    const payload = JSON.parse(Buffer.concat(input).toString('utf8')) as { hook_event_name?: unknown; tool_name?: unknown };
    if (typeof payload.hook_event_name === 'string') note.event = payload.hook_event_name;
    if (typeof payload.tool_name === 'string') note.tool = payload.tool_name;
  } catch {
    // not JSON: the note says only why
  }
  return note;
}

// the bound covers everything, reading stdin included
setTimeout(() => finish('', `no answer from the extension within ${bound} ms`), bound).unref();

process.stdin.on('data', (chunk: Buffer) => input.push(chunk));
process.stdin.on('error', () => finish('', 'could not read the hook input'));
process.stdin.on('end', () => {
  if (socketAddress && secret) return forward(socketAddress, secret);
  // not a child of a window's extension host: the window whose folder holds the file, from its record
  const window = windowOf(Buffer.concat(input).toString('utf8'));
  if (!window) return finish('');
  missedFile = window.missed;
  forward(window.address, window.secret);
});

/** The window whose workspace folder holds the file the call touches (else the hook's cwd), if any. */
function windowOf(payloadText: string): WindowRecord | undefined {
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

function forward(address: string, key: string): void {
  const target = parseAddress(address);
  if (!target) return finish('', `${ENV.socket} is not an address (${address})`);
  if (!AGENT_ID.test(agent)) return finish('', `the hook command named no agent (${JSON.stringify(agent)})`);
  const reply: Buffer[] = [];
  const payload = Buffer.concat(input);
  const socket = net.createConnection(target);
  socket.on('connect', () => {
    socket.write(requestHeader(key, agent, payload.length));
    socket.end(payload);
  });
  socket.on('data', (chunk: Buffer) => reply.push(chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => finish('', `could not reach the extension (${e.code ?? e.message})`));
  socket.on('close', () => {
    const answer = Buffer.concat(reply);
    const newline = answer.indexOf(0x0a);
    if (newline < 0) return finish('', 'the extension closed the connection without an answer');
    const status = answer.subarray(0, newline).toString('utf8');
    if (status !== STATUS.ok) return finish('', `the extension refused the request (${status})`);
    finish(answer.subarray(newline + 1).toString('utf8'));
  });
}
