#!/usr/bin/env node
// `npm run soak`: every kind of writer at once on ten files for a while, in the real host (test/soak/soak.test.ts,
// through scripts/host/run-integration.sh): the guarded tools, the Copilot CLI and Claude Code through their real
// hooks, the user typing and saving, another program appending. Then every line a writer was told had landed
// must stand in its file once, and no other. Prints each run's figures: calls per second, the guarded calls'
// latency, refusals by reason, the extension host's heap and RSS over the run, and what was lost or doubled.
//   --seconds=N   how long the writers write, per run (default 600; `npm test` runs --quick: 60)
//   --runs=N      runs one after the other in one host, each on fresh files (default 1)
//   --baseline    plain VS Code edits and saves in the guarded tools' place: what VS Code alone loses
// The exit code is the suite's: non-zero when a line was lost, doubled, or stands though it was refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const seconds = args.includes('--quick') ? 60 : option('seconds', 600);
const runs = option('runs', 1);
if (!(seconds >= 10) || !Number.isInteger(runs) || runs < 1) {
  console.error(`--seconds must be at least 10 and --runs a whole number of at least 1 (got ${seconds}, ${runs})`);
  process.exit(2);
}
const mode = args.includes('--baseline') ? 'baseline' : 'guarded';

const build = spawnSync('node', [join(repo, 'scripts/build.mjs'), '--tests'], { cwd: repo, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const tmp = mkdtempSync(join(tmpdir(), 'editguard-soak-'));
const report = join(tmp, 'soak.jsonl');
const suite = spawnSync('bash', [join(repo, 'scripts/host/run-integration.sh')], {
  cwd: repo,
  stdio: 'inherit',
  env: {
    ...process.env,
    EDITGUARD_EXT_TESTS: join(repo, 'out/test/soak/index.js'),
    EDITGUARD_SOAK_SECONDS: String(seconds),
    EDITGUARD_SOAK_RUNS: String(runs),
    EDITGUARD_SOAK_MODE: mode,
    EDITGUARD_SOAK_REPORT: report,
    // a run of several minutes shows progress only at its end: the driver must not take it for a stuck host
    EDITGUARD_IDLE_LIMIT_MS: String(Math.max(300_000, seconds * 1000 + 300_000)),
  },
});
let lines = [];
try {
  lines = readFileSync(report, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
} catch {
  // no run finished: the suite's output says why
}
rmSync(tmp, { recursive: true, force: true });
/**
 * The heap's floor per minute: the lowest sample of each minute. Samples are taken every 5 s without forcing a
 * collection, so they saw-tooth between collections; the floor is what survives them, and a leak raises it.
 */
const floors = (memory, key) => {
  const byMinute = new Map();
  for (const m of memory) byMinute.set(Math.floor(m.at / 60), Math.min(byMinute.get(Math.floor(m.at / 60)) ?? Infinity, m[key]));
  return [...byMinute.values()];
};
for (const [i, r] of lines.entries()) {
  const heap = r.memory.map((m) => `${m.at}s ${m.heapUsedMB}/${m.rssMB}`);
  console.log(
    [
      `\nsoak run ${i + 1} (${r.mode}, ${r.seconds} s): ${r.callsPerSecond} calls/s — ${Object.entries(r.calls)
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}`,
      `  lines that landed: ${Object.entries(r.lines)
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}`,
      `  lost ${r.lost.length}, doubled ${r.doubled.length}, standing though refused ${r.unclaimed.length}; the user's saves refused as newer: ${r.userSaveConflicts}`,
      `  guarded calls, ms: p50 ${r.latency.p50}, p95 ${r.latency.p95}, p99 ${r.latency.p99}, max ${r.latency.max}`,
      `  refusals: ${
        Object.entries(r.refusals)
          .map(([k, n]) => `${k} ${n}`)
          .join('; ') || 'none'
      }`,
      `  extension host heap/RSS (MB) over the run: ${heap.join(', ')}`,
      `  heap floor per minute (MB): ${floors(r.memory, 'heapUsedMB').join(', ')}; RSS floor: ${floors(r.memory, 'rssMB').join(', ')}`,
      ...[...r.lost, ...r.doubled, ...r.unclaimed].map((p) => `  ${p}`),
    ].join('\n'),
  );
}
process.exit(suite.status ?? 1);
