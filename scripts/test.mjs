// `npm test`: type-check, lint, unit tests (plain Node), integration tests (real VS Code host), the suite
// under GitHub Copilot's own agent loop, the suite under the Copilot harness, the outcomes suite, `npm start` checked in a browser, then the .vsix built and installed. Every step runs even after a failure (so one run
// shows everything that is wrong); the exit code is non-zero if any step failed, and the last line
// counts every test.
import { spawn } from 'node:child_process';

// the host runners end with "N passed, N failed"
function hostCounts() {
  return [/^(\d+) passed, \d+ failed$/m, /^\d+ passed, (\d+) failed$/m];
}

const steps = [
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  // typescript-eslint's recommended rules and the import arrows of docs/design.md §Layers
  { name: 'lint', cmd: 'npm', args: ['run', '--silent', 'lint'] },
  { name: 'unit', cmd: 'npm', args: ['run', '--silent', 'test:unit'], count: () => [/(\d+) passing/, /(\d+) failing/] },
  { name: 'integration', cmd: 'npm', args: ['run', '--silent', 'test:integration'], count: hostCounts },
  { name: 'copilot', cmd: 'npm', args: ['run', '--silent', 'test:copilot'], count: hostCounts },
  // the Copilot harness (VS Code's Agent Host): its real turns with a scripted model, and the facts a gate needs
  { name: 'harness', cmd: 'npm', args: ['run', '--silent', 'test:harness'], count: hostCounts },
  // what the guard prevents (test/outcomes), each scenario once in each configuration: the quick form of `npm run outcomes`
  { name: 'outcomes', cmd: 'npm', args: ['run', '--silent', 'test:outcomes'], count: hostCounts },
  // the README's first command: a person's VS Code with the extension on the demo workspace
  { name: 'start', cmd: 'npm', args: ['start', '--silent', '--', '--check'] },
  // the .vsix builds, holds what runs, and installs into a real VS Code (the file list is unit-tested)
  { name: 'package', cmd: 'npm', args: ['run', '--silent', 'package', '--', '--check-install'] },
];

function run(step) {
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

let passed = 0;
let failed = 0;
let rc = 0;
const failures = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const { code, out } = await run(step);
  if (step.count) {
    const [p, f] = step.count(out).map((re) => Number(re.exec(out)?.[1] ?? 0));
    passed += p;
    failed += f;
  }
  if (code !== 0) {
    console.log(`\n${step.name} failed (exit code ${code})`);
    rc = rc || code;
    failures.push(step.name);
  }
}
if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
// a step that failed without a failing test (type errors, a host that did not start) still counts
console.log(`\ntotal: ${passed} passed, ${Math.max(failed, failures.length)} failed`);
process.exit(rc);
