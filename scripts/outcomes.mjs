#!/usr/bin/env node
// `npm run outcomes`: what the guard prevents, measured. Runs the outcomes suite (test/outcomes) in
// the Copilot suite's host (scripts/host/run-copilot.sh: Copilot Chat's real agent loop, the scripted
// fake model), each scenario --runs=N times (default 3), then writes test/outcomes/results.json and
// the README's "What it prevents" table from that one run, and prints the table.
// --quick (`npm test`): each scenario once, nothing written but the table printed.
// --table: no run; the README's table made again from test/outcomes/results.json (after a change of its wording).
// The exit code is the suite's: non-zero when a configuration broke its promise (the tests say which).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runs = quick ? 1 : Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number of at least 1 (got ${runs})`);
  process.exit(2);
}

const resultsPath = join(repo, 'test/outcomes/results.json');
const readmePath = join(repo, 'README.md');
const tableOnly = args.includes('--table');

const build = spawnSync('node', [join(repo, 'scripts/build.mjs'), '--tests'], { cwd: repo, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// the table is made by the suite's own code (test/outcomes/table.ts), as built just now
const { outcomesTable, withTable } = createRequire(import.meta.url)(join(repo, 'out/test/outcomes/table.js'));
if (tableOnly) {
  writeFileSync(readmePath, withTable(readFileSync(readmePath, 'utf8'), outcomesTable(JSON.parse(readFileSync(resultsPath, 'utf8')))));
  console.log("wrote the README's table from test/outcomes/results.json");
  process.exit(0);
}

const tmp = mkdtempSync(join(tmpdir(), 'editguard-outcomes-'));
const file = join(tmp, 'outcomes.json');
const started = Date.now();
const suite = spawnSync('bash', [join(repo, 'scripts/host/run-copilot.sh')], {
  cwd: repo,
  stdio: 'inherit',
  env: {
    ...process.env,
    EDITGUARD_EXT_TESTS: join(repo, 'out/test/outcomes/index.js'),
    EDITGUARD_OUTCOMES_FILE: file,
    EDITGUARD_OUTCOMES_RUNS: String(runs),
  },
});
const rc = suite.status ?? 1;
if (!existsSync(file)) {
  console.error('the outcomes suite recorded nothing');
  process.exit(rc || 1);
}
const run = JSON.parse(readFileSync(file, 'utf8'));
rmSync(tmp, { recursive: true, force: true });
const results = {
  generated: new Date().toISOString(),
  runsPerScenario: runs,
  suiteSeconds: Math.round((Date.now() - started) / 1000),
  ...run,
};
const table = outcomesTable(results);
console.log(
  `\nWhat it prevents (${runs} run${runs === 1 ? '' : 's'} per scenario, VS Code ${results.vscode}, Copilot Chat ${results.copilotChat}):\n\n${table}\n`,
);
if (!quick) {
  if (rc !== 0 || process.env.EDITGUARD_TEST_GREP) {
    console.error(
      rc !== 0
        ? 'a test failed: results.json and the README are left as they were'
        : 'a part of the suite ran (EDITGUARD_TEST_GREP): results.json and the README are left as they were',
    );
  } else {
    writeFileSync(resultsPath, `${JSON.stringify(results, null, 1)}\n`);
    writeFileSync(readmePath, withTable(readFileSync(readmePath, 'utf8'), table));
    console.log("wrote test/outcomes/results.json and the README's table");
  }
}
process.exit(rc);
