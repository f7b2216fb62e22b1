#!/usr/bin/env node
// `npm run codex:probe`: bundles test/codex/probe.ts with esbuild (a dev dependency) into a temporary file and
// runs it in plain Node, from the repo root (the CLI's platform package resolves from there). It starts the real
// Codex CLI from node_modules against a scripted fake model on 127.0.0.1, offline, and checks the facts of
// test/codex/FACTS.md that the host suites do not run.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'editguard-codex-probe-build-'));
const bundle = join(out, 'probe.cjs');
await build({
  entryPoints: [join(here, 'probe.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { cwd: repo, stdio: 'inherit' });
rmSync(out, { recursive: true, force: true });
process.exit(run.status ?? 1);
