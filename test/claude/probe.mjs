#!/usr/bin/env node
// `node test/claude/probe.mjs [--json FILE] [--timing-runs N] [--no-timing]` (or `npm run claude:probe`):
// bundles test/claude/probe.ts with esbuild (a dev dependency) into a temporary file and runs it in plain
// Node. It starts the real Claude Code CLI from node_modules against a scripted fake model on 127.0.0.1,
// offline, and prints what Claude Code's hooks received (test/claude/FACTS.md explains one run).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'editguard-claude-probe-build-'));
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
// from the repo root: the CLI's platform package resolves from there
const run = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { cwd: repo, stdio: 'inherit' });
rmSync(out, { recursive: true, force: true });
process.exit(run.status ?? 1);
