#!/usr/bin/env node
// `node test/shared/probe.mjs <probe.ts> [args…]` (`npm run claude:probe`, `npm run codex:probe`): bundles an
// agent's probe with esbuild (a dev dependency) into a temporary file and runs it in plain Node, from the repo
// root (the CLI's platform package resolves from there). Each probe starts the real CLI from node_modules
// against a scripted fake model on 127.0.0.1, offline, and prints or checks what its hooks received (the
// agent's FACTS.md explains a run).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node test/shared/probe.mjs <probe.ts> [args…]');
  process.exit(2);
}
const out = mkdtempSync(join(tmpdir(), `editguard-${basename(dirname(resolve(entry)))}-probe-build-`));
const bundle = join(out, 'probe.cjs');
await build({
  entryPoints: [resolve(entry)],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, [bundle, ...args], { cwd: repo, stdio: 'inherit' });
rmSync(out, { recursive: true, force: true });
process.exit(run.status ?? 1);
