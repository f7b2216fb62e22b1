// The hook command's Node client (bundled to dist/hook-bridge.js), for where bash is not there to
// run the cheaper bash client (Windows, or a system without bash); both speak protocol.ts and find a
// window the same way (windowClient.ts, which an in-process plugin shares).
// Usage (as a hook command): node hook-bridge.js <agent id> <HookEvent>
// It forwards the hook's stdin to the window's extension and prints the answer. Whatever goes wrong it
// prints nothing and exits 0, which lets the tool call through (fail-open).
import { askWindow, boundOf, noteMissed, parentProcessName } from './windowClient';
import { ENV } from './protocol';

/** the agent whose hook entry runs this (its first argument) */
const agent = process.argv[2] ?? '';

let finished = false;
const input: Buffer[] = [];

function finish(stdout: string): void {
  if (finished) return;
  finished = true;
  process.stdout.write(stdout, () => process.exit(0));
}

// reading the payload has the same bound as the answer (askWindow's, from the payload's end)
const bound = boundOf(process.env);
const reading = setTimeout(() => {
  noteMissed(process.env[ENV.missed], Buffer.concat(input), `the hook input did not end within ${bound} ms`);
  finish('');
}, bound);
reading.unref();

process.stdin.on('data', (chunk: Buffer) => input.push(chunk));
process.stdin.on('error', () => {
  noteMissed(process.env[ENV.missed], Buffer.alloc(0), 'could not read the hook input');
  finish('');
});
process.stdin.on('end', () => {
  clearTimeout(reading);
  void askWindow(agent, Buffer.concat(input), process.env, undefined, parentProcessName()).then(finish);
});
