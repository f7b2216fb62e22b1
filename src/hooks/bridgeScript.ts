// The hook command's script (bundled to dist/hook-bridge.js and run by Copilot with the editor's own
// Node runtime). It forwards the hook's stdin to the running extension over its private socket,
// with the window's secret, and prints the extension's answer. It never runs anything it receives:
// the answer is only printed. Whatever goes wrong (no extension in this window, no answer within
// the bound, a refused secret), it prints nothing and exits 0, which lets the tool call through
// (fail-open), and notes the miss where the extension will log it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { type BridgeReply, DEFAULT_BOUND_MS, ENV, HEADER, type MissedCall } from './bridgeProtocol';

const socketPath = process.env[ENV.socket];
const secret = process.env[ENV.secret];
const missedFile = process.env[ENV.missed];
const bound = Number(process.env[ENV.boundMs]) > 0 ? Number(process.env[ENV.boundMs]) : DEFAULT_BOUND_MS;

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

if (!socketPath || !secret) {
  // Agent Edit Guard is not running in this window (or the bridge is off): nothing to ask
  finish('');
} else {
  process.stdin.on('data', (chunk: Buffer) => input.push(chunk));
  process.stdin.on('error', () => finish('', 'could not read the hook input'));
  process.stdin.on('end', () => forward(socketPath, secret));
}

function forward(path: string, key: string): void {
  const reply: Buffer[] = [];
  const socket = net.createConnection(path);
  socket.on('connect', () => {
    socket.write(`${HEADER} ${key}\n`);
    socket.end(Buffer.concat(input));
  });
  socket.on('data', (chunk: Buffer) => reply.push(chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => finish('', `could not reach the extension (${e.code ?? e.message})`));
  socket.on('close', () => {
    let answer: BridgeReply;
    try {
      answer = JSON.parse(Buffer.concat(reply).toString('utf8')) as BridgeReply;
    } catch {
      return finish('', 'the extension closed the connection without an answer');
    }
    if (answer.error) return finish('', `the extension refused the request (${answer.error})`);
    finish(typeof answer.stdout === 'string' ? answer.stdout : '');
  });
}
