// `npm test`: type-check, unit tests (plain Node), integration tests (real VS Code host), in that
// order, stopping at the first failing step; ends with one line that counts every test.
import { spawn } from 'node:child_process';

const steps = [
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '-p', '.'] },
  { name: 'unit', cmd: 'npm', args: ['run', '--silent', 'test:unit'], count: (out) => [/(\d+) passing/, /(\d+) failing/] },
  { name: 'integration', cmd: 'npm', args: ['run', '--silent', 'test:integration'], count: () => [/^(\d+) passed, \d+ failed$/m, /^\d+ passed, (\d+) failed$/m] },
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
    rc = code;
    if (failed === 0) failed = 1; // a step that failed without a failing test still fails the run
    break;
  }
}
console.log(`\ntotal: ${passed} passed, ${failed} failed`);
process.exit(rc);
