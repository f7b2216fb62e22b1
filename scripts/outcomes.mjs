#!/usr/bin/env node
// `npm run outcomes`: what the guard prevents, measured. Runs the outcomes suite (test/outcomes) in
// the Copilot suite's host (scripts/host/run-copilot.sh: Copilot Chat's real agent loop, the scripted
// fake model; the terminal agents' real CLIs against their scripted model servers), then in the harness
// suite's host (scripts/host/run-harness.sh: the Copilot harness's chats, its scripted model behind that
// host's proxy), both into one file, each scenario --runs=N times (default 3), then writes test/outcomes/results.json, the README's "What it prevents"
// table and docs/how-it-works.md's scenario-by-scenario tables from that one run, and prints the table.
// --quick (`npm test`): each scenario once in each guarded configuration (the unguarded ones, what the agents as shipped
// lose, are measured by the full run alone), nothing written but the table printed.
// --table: no run; both tables made again from test/outcomes/results.json (after a change of their wording).
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
const howItWorksPath = join(repo, 'docs/how-it-works.md');
const tableOnly = args.includes('--table');

const build = spawnSync('node', [join(repo, 'scripts/build.mjs'), '--tests'], { cwd: repo, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// the table is made by the suite's own code (test/outcomes/table.ts), as built just now
const { outcomesTable, detailTables, withTable, DETAIL_TABLES } = createRequire(import.meta.url)(join(repo, 'out/test/outcomes/table.js'));
/** The README's table and how-it-works' detail, both from `results`. */
function writeTables(results) {
  writeFileSync(readmePath, withTable(readFileSync(readmePath, 'utf8'), outcomesTable(results)));
  writeFileSync(howItWorksPath, withTable(readFileSync(howItWorksPath, 'utf8'), detailTables(results), DETAIL_TABLES));
}
if (tableOnly) {
  writeTables(JSON.parse(readFileSync(resultsPath, 'utf8')));
  console.log("wrote the README's and docs/how-it-works.md's tables from test/outcomes/results.json");
  process.exit(0);
}

const tmp = mkdtempSync(join(tmpdir(), 'editguard-outcomes-'));
const file = join(tmp, 'outcomes.json');
const started = Date.now();
// each host runs the agents that need it (test/outcomes/outcomes.test.ts); both add to one file
const hostRun = (runner) =>
  spawnSync('bash', [join(repo, 'scripts/host', runner)], {
    cwd: repo,
    stdio: 'inherit',
    env: {
      ...process.env,
      EDITGUARD_EXT_TESTS: join(repo, 'out/test/outcomes/index.js'),
      EDITGUARD_OUTCOMES_FILE: file,
      EDITGUARD_OUTCOMES_RUNS: String(runs),
      // npm test: the guarded configurations held to their promise; the agents as shipped measured by the full run only
      ...(quick ? { EDITGUARD_OUTCOMES_GUARDED_ONLY: '1' } : {}),
    },
  }).status ?? 1;
const codes = ['run-copilot.sh', 'run-harness.sh'].map(hostRun);
const rc = codes.find((c) => c !== 0) ?? 0;
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
console.log(`\nWhat it prevents:\n\n${table}\n\n${detailTables(results)}\n`);
if (quick) console.log('(the guarded configurations only: the unguarded column is measured by `npm run outcomes`)\n');
if (!quick) {
  if (rc !== 0 || process.env.EDITGUARD_TEST_GREP) {
    console.error(
      rc !== 0
        ? 'a test failed: results.json and the README are left as they were'
        : 'a part of the suite ran (EDITGUARD_TEST_GREP): results.json and the README are left as they were',
    );
  } else {
    writeFileSync(resultsPath, `${JSON.stringify(results, null, 1)}\n`);
    writeTables(results);
    console.log("wrote test/outcomes/results.json, the README's table and docs/how-it-works.md's");
  }
}
process.exit(rc);
