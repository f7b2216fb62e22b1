#!/usr/bin/env node
// `npm run bench`: the gate's cost against the physical limit, measured side by side.
//   1–3, 5 (core)  bench/core.bench.ts in plain Node (`--expose-gc`), the product's src/core
//   4–6 (host)     bench/host/index.ts inside a real VS Code extension host (scripts/host: code-server)
//   7 (host)       bench/host/window.ts: the window's own answer per hook event; bench/host/hooks.ts: the
//                  hooks file's commands run as Copilot runs a hook command (EDITGUARD_BENCH_WINDOW_ONLY=1: the first alone)
//                  (`--only=hooks`: this group alone, in a host run without groups 4–5 and the extra activation runs)
//   6 (footprint)  the production bundle (esbuild, in memory), the .vsix file list (.vscodeignore); activation, in
//                  a few short host runs (`--only=activation`: those alone)
//   8 (copilot)    bench/copilot/index.ts: an edit tool step in Copilot Chat's real agent loop
//                  (scripts/host/run-copilot.sh: the Copilot host, the scripted fake model)
// Prints one table and writes bench/results.json. Figures are medians of interleaved samples after
// warm-up, with min and max; ratios are taken per round, within one run. Nothing here asserts.
// Options: --quick (fewer rounds), --only=core,footprint,host,hooks,activation,copilot (default: all but hooks and
// activation, which host includes), --keep (keep the host run folder).
// Env: BENCH_RESULTS (where to write the JSON, default bench/results.json), plus scripts/host's env.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { writeHookClient } from '../scripts/hookClient.mjs';
import { copyShellWasm } from '../scripts/shellWasm.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(repo, 'bench', 'tmp');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
// --profile: unminified bundle, CPU profiles of the extension host into bench/tmp/profiles (figures then
// are not the product's: use it to find causes, not for the table)
const profile = args.includes('--profile');
const onlyArg = args.find((a) => a.startsWith('--only='));
const PARTS = ['core', 'footprint', 'host', 'hooks', 'activation', 'copilot'];
const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : new Set(['core', 'footprint', 'host', 'copilot']);
for (const p of only) if (!PARTS.includes(p)) throw new Error(`--only: unknown part ${p} (${PARTS.join(', ')})`);
// the host run includes group 7
if (only.has('host')) only.delete('hooks');
const resultsFile = process.env.BENCH_RESULTS || join(repo, 'bench', profile ? 'tmp/results-profile.json' : 'results.json');
mkdirSync(tmp, { recursive: true });

const log = (...a) => console.error('[bench]', ...a);
const KB = 1024;
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' };

/** The extension bundle exactly as `node scripts/build.mjs --production` makes it, kept in memory. */
async function productionBundle() {
  const r = await build({
    ...common,
    entryPoints: [join(repo, 'src/extension.ts')],
    outfile: join(tmp, 'ext', 'dist', 'extension.js'),
    external: ['vscode'],
    minify: true,
    sourcemap: false,
    write: false,
    metafile: true,
  });
  return { code: r.outputFiles[0].contents, metafile: r.metafile };
}

// ---------------------------------------------------------------------------------------------
// core

async function runCore() {
  const out = join(tmp, 'core.bench.cjs');
  await build({ ...common, entryPoints: [join(repo, 'bench/core.bench.ts')], outfile: out, sourcemap: false });
  const resultFile = join(tmp, 'core-results.json');
  rmSync(resultFile, { force: true });
  log('core benchmarks (plain Node)…');
  const r = spawnSync(process.execPath, ['--expose-gc', out], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_OUT: resultFile, BENCH_QUICK: quick ? '1' : '' },
  });
  if (r.status !== 0 || !existsSync(resultFile)) throw new Error(`core benchmark failed (exit ${r.status})`);
  const res = JSON.parse(readFileSync(resultFile, 'utf8'));
  log(`core done in ${res.seconds.toFixed(0)} s`);
  return res.rows;
}

// ---------------------------------------------------------------------------------------------
// footprint

/** The files vsce would pack: every file of the repo that .vscodeignore lets in (last matching line wins). */
function vsixFileList() {
  const require = createRequire(join(repo, 'package.json'));
  const { minimatch } = require('minimatch');
  const rules = readFileSync(join(repo, '.vscodeignore'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => (l.startsWith('!') ? { include: true, pattern: l.slice(1) } : { include: false, pattern: l }));
  const skip = new Set(['.git', 'node_modules', '.runs', 'bench/tmp']);
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(repo, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (skip.has(rel)) continue;
      if (e.isDirectory()) walk(rel);
      else if (e.isFile()) files.push(rel);
    }
  };
  walk('');
  // node_modules is skipped for speed: ".vscodeignore" starts with "**", so vsce leaves it out too,
  // and the bundle carries the dependencies
  const packed = files.filter((f) => {
    let ignored = false;
    for (const r of rules)
      if (minimatch(f, r.pattern, { dot: true }) || minimatch(f, r.pattern.replace(/\/$/, '') + '/**', { dot: true })) ignored = !r.include;
    return !ignored;
  });
  if (!packed.includes('dist/extension.js')) packed.push('dist/extension.js');
  return packed.sort();
}

async function runFootprint() {
  log('footprint…');
  const { code, metafile } = await productionBundle();
  const bundleBytes = code.length;
  const inputs = Object.entries(metafile.outputs[Object.keys(metafile.outputs)[0]].inputs)
    .map(([file, v]) => ({ file, bytes: v.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const byPackage = {};
  for (const i of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(i.file);
    const key = m ? m[1] : i.file.startsWith('src/') ? 'src' : i.file;
    byPackage[key] = (byPackage[key] || 0) + i.bytes;
  }
  const list = vsixFileList();
  let raw = 0;
  let deflated = 0;
  const files = list.map((f) => {
    const data = f === 'dist/extension.js' ? Buffer.from(code) : readFileSync(join(repo, f));
    raw += data.length;
    deflated += deflateRawSync(data, { level: 9 }).length;
    return { file: f, bytes: data.length };
  });
  const one = (v) => ({ median: v, min: v, max: v, n: 1 });
  const rows = [
    {
      id: 'footprint.bundle',
      group: '6 footprint',
      label: 'dist/extension.js, production (minified)',
      value: one(bundleBytes / KB),
      unit: 'KB',
      // the first load: what only an agent's guard or a shell command needs is loaded then (docs/performance.md)
      goal: { text: '≤ 120 KB', max: 120, on: 'value' },
      note: `gzip ${(gzipSync(code, { level: 9 }).length / KB).toFixed(1)} KB; by source: ${Object.entries(byPackage)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${(v / KB).toFixed(1)}`)
        .join(', ')}`,
    },
    {
      id: 'footprint.vsix',
      group: '6 footprint',
      label: `.vsix file list (${files.length} files, uncompressed)`,
      value: one(raw / KB),
      unit: 'KB',
      note: `≈ ${(deflated / KB).toFixed(0)} KB deflated; ${files.map((f) => `${f.file} ${(f.bytes / KB).toFixed(1)}`).join(', ')}`,
    },
  ];
  return { rows, files, bundleTop: inputs.slice(0, 12) };
}

// ---------------------------------------------------------------------------------------------
// host

/**
 * A copy of the extension for the host run, so a run never touches dist/ of the shared checkout:
 * the production bundle, the manifest with `activationEvents: []` (it activates only when the bench
 * asks, so activation can be timed on a host where it was not active yet) plus one no-op tool, the
 * floor of `vscode.lm.invokeTool`, and the bench entry inside it (it gets this extension's API).
 */
async function prepareHostExtension() {
  const ext = join(tmp, 'ext');
  await extensionCopy(ext, { bench: true });
  await build({
    ...common,
    entryPoints: [join(repo, 'bench/host/index.ts')],
    outfile: join(ext, 'out', 'bench-host.js'),
    external: ['vscode'],
    sourcemap: false,
  });
  return ext;
}

/**
 * The extension as it ships (production bundle and hook script, its manifest and the files it points
 * at) in `ext`; with `bench`, the manifest of the host group (see prepareHostExtension).
 */
async function extensionCopy(ext, { bench }) {
  rmSync(ext, { recursive: true, force: true });
  mkdirSync(join(ext, 'dist'), { recursive: true });
  const { code } = profile
    ? {
        code: (
          await build({
            ...common,
            entryPoints: [join(repo, 'src/extension.ts')],
            outfile: 'x.js',
            external: ['vscode'],
            sourcemap: false,
            write: false,
          })
        ).outputFiles[0].contents,
      }
    : await productionBundle();
  writeFileSync(join(ext, 'dist', 'extension.js'), code);
  // the hooks bridge's script, as `node scripts/build.mjs --production` makes it (bench/host/hooks.ts runs it)
  await build({
    ...common,
    entryPoints: [join(repo, 'src/hooks/nodeClient.ts')],
    outfile: join(ext, 'dist', 'hook-bridge.js'),
    minify: !profile,
    sourcemap: false,
  });
  await writeHookClient(join(ext, 'dist'));
  // the shell level, loaded at the first shell command (src/activation/shellLevel.ts), and its parser's WebAssembly
  await build({
    ...common,
    entryPoints: [join(repo, 'src/shell/index.ts')],
    outfile: join(ext, 'dist', 'shell.js'),
    minify: !profile,
    sourcemap: false,
  });
  copyShellWasm(join(ext, 'dist'));
  // the agents' in-process plugins, as the build makes them (bench/host/plugins.ts loads each agent's)
  const plugins = readdirSync(join(repo, 'src/agents')).filter((a) => existsSync(join(repo, 'src/agents', a, 'node', 'plugin.ts')));
  await build({
    ...common,
    entryPoints: Object.fromEntries(plugins.map((a) => [a, join(repo, 'src/agents', a, 'node', 'plugin.ts')])),
    outdir: join(ext, 'dist', 'plugins'),
    minify: !profile,
    sourcemap: false,
  });
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  if (bench) {
    pkg.activationEvents = [];
    pkg.contributes.languageModelTools.push({
      name: 'editGuardBench_noop',
      displayName: 'Bench no-op',
      modelDescription: 'Benchmark only: does nothing.',
      inputSchema: { type: 'object', properties: { filePath: { type: 'string' } } },
    });
  } else {
    // the texts the manifest's %placeholders% name (the tools' descriptions Copilot gives the model)
    for (const f of readdirSync(repo).filter((n) => /^package\.nls(\..+)?\.json$/.test(n))) cpSync(join(repo, f), join(ext, f));
    if (existsSync(join(repo, 'l10n'))) cpSync(join(repo, 'l10n'), join(ext, 'l10n'), { recursive: true });
  }
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync(join(ext, 'package.json'), JSON.stringify(pkg, null, 1));
  // files the manifest points at (the shipped chat agent)
  for (const d of ['agents']) if (existsSync(join(repo, d))) cpSync(join(repo, d), join(ext, d), { recursive: true });
  mkdirSync(join(ext, 'media'), { recursive: true });
  cpSync(join(repo, 'media', 'icon.png'), join(ext, 'media', 'icon.png'));
}

function runDrive(envExtra) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repo, 'scripts/host/drive.js')], {
      env: { ...process.env, ...envExtra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const relay = (s) =>
      s.on('data', (d) => {
        for (const line of String(d).split('\n'))
          if (line.trim() && (/bench|driver|error|Error/.test(line) || process.env.VERBOSE)) console.error(line);
      });
    relay(child.stdout);
    relay(child.stderr);
    child.on('close', (c) => resolve(c ?? 2));
  });
}

/** One host run: a fresh run folder and workspace, the bench entry in a fresh code-server. */
async function hostRun(ext, onlyWhat) {
  const runs = join(tmp, 'runs');
  mkdirSync(runs, { recursive: true });
  for (const d of readdirSync(runs).sort().slice(0, -3)) rmSync(join(runs, d), { recursive: true, force: true });
  const runDir = join(runs, new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(join(runDir, 'ws'), { recursive: true });
  const resultFile = join(runDir, 'bench.json');
  const rc = await runDrive({
    EXT_DIR: ext,
    EXT_TESTS: join(ext, 'out', 'bench-host.js'),
    WORKSPACE: join(runDir, 'ws'),
    RUN_DIR: runDir,
    PREINSTALL_EXTS: '',
    SETTINGS_FILE: join(repo, 'test/fixtures/user-settings.json'),
    EDITGUARD_BENCH_FILE: resultFile,
    EDITGUARD_BENCH_QUICK: quick ? '1' : '',
    EDITGUARD_BENCH_ONLY: onlyWhat || '',
    EDITGUARD_IDLE_LIMIT_MS: String(20 * 60 * 1000),
    EDITGUARD_BENCH_PROFILE: profile && onlyWhat !== 'activation' ? join(tmp, 'profiles') : '',
  });
  const res = existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) : undefined;
  if (rc !== 0 || !res || res.info?.error)
    throw new Error(
      `host benchmark failed (exit ${rc})${res?.info?.error ? `: ${res.info.error.split('\n')[0]}` : ''}; see ${runDir}/code-server.log and final.png`,
    );
  if (!args.includes('--keep')) rmSync(join(runDir, 'ws'), { recursive: true, force: true });
  return res;
}

/** Groups 4–7 in the host; with `hooksOnly`, group 7 alone (one host run, no activation rows). */
async function runHost(hooksOnly) {
  const inst = spawnSync('bash', [join(repo, 'scripts/host/install.sh')], { stdio: 'inherit' });
  if (inst.status !== 0) throw new Error('host install failed (scripts/host/install.sh)');
  const ext = await prepareHostExtension();
  log('host benchmarks (code-server extension host)…');
  const t0 = Date.now();
  const main = await hostRun(ext, hooksOnly ? 'hooks' : '');
  if (hooksOnly) {
    log(`host (hooks only) done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return { rows: main.rows, info: main.info };
  }
  // activation happens once per host: a few more short host runs give it a median
  const runsInfo = [main.info];
  const loads = [...main.info.moduleLoadMs];
  const extraRuns = quick ? 1 : 4;
  for (let i = 0; i < extraRuns; i++) {
    log(`activation run ${i + 2} of ${extraRuns + 1}…`);
    const r = await hostRun(ext, 'activation');
    runsInfo.push(r.info);
    loads.push(...r.info.moduleLoadMs);
  }
  log(`host done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { rows: [...main.rows, ...activationRows(runsInfo, loads)], info: { ...main.info, activationRuns: runsInfo } };
}

/** Group 6's activation rows alone (`--only=activation`): a few short host runs, nothing else measured. */
async function runActivation() {
  const inst = spawnSync('bash', [join(repo, 'scripts/host/install.sh')], { stdio: 'inherit' });
  if (inst.status !== 0) throw new Error('host install failed (scripts/host/install.sh)');
  const ext = await prepareHostExtension();
  const runsInfo = [];
  const loads = [];
  const runs = quick ? 2 : 5;
  for (let i = 0; i < runs; i++) {
    log(`activation run ${i + 1} of ${runs}…`);
    const r = await hostRun(ext, 'activation');
    runsInfo.push(r.info);
    loads.push(...r.info.moduleLoadMs);
  }
  return { rows: activationRows(runsInfo, loads), info: { activationRuns: runsInfo } };
}

/** The activation rows of `runsInfo` (one host run each); `loads`: every timed load of the bundle. */
function activationRows(runsInfo, loads) {
  const st = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return { median: s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2, min: s[0], max: s[s.length - 1], n: s.length };
  };
  const pick = (k) => runsInfo.map((i) => i[k]);
  const n = runsInfo.length;
  return [
    {
      id: 'activation',
      group: '6 footprint',
      label: `activation: first load of the bundle + activate() (${n} host runs)`,
      value: st(pick('activationMs')),
      unit: 'ms',
      goal: { text: '≤ 20 ms', max: 20, on: 'value' },
      note: 'what VS Code counts as codeLoadingTime + activateCallTime',
    },
    {
      id: 'activation.load',
      group: '6 footprint',
      label: `of which: first load of the bundle (${n} host runs)`,
      value: st(pick('codeLoadingMs')),
      unit: 'ms',
      note: `repeated loads of the same file: median ${st(loads).median.toFixed(1)} ms`,
    },
    {
      id: 'activation.call',
      group: '6 footprint',
      label: `of which: activate() (${n} host runs)`,
      value: st(pick('activateCallMs')),
      unit: 'ms',
    },
    {
      id: 'activation.vscode',
      group: '6 footprint',
      label: `ext.activate() wall time, bundle preloaded (${n} host runs)`,
      value: st(pick('extActivateMs')),
      unit: 'ms',
      note: "activate() + VS Code's activation bookkeeping and event loop turns",
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// copilot

/**
 * Group 8: bench/copilot/index.ts as the entry of scripts/host/run-copilot.sh (the Copilot host, its
 * private code-server copy, the fake model, a fresh .runs/copilot-* folder), as a script (no suite),
 * over a copy of the shipped extension (normal manifest: Copilot offers our tools as it would).
 */
async function runCopilot() {
  const ext = join(tmp, 'ext-copilot');
  rmSync(ext, { recursive: true, force: true });
  await extensionCopy(ext, { bench: false });
  const entry = join(ext, 'out', 'bench-copilot.js');
  await build({ ...common, entryPoints: [join(repo, 'bench/copilot/index.ts')], outfile: entry, external: ['vscode'], sourcemap: false });
  const resultFile = join(tmp, 'copilot-results.json');
  rmSync(resultFile, { force: true });
  log('Copilot agent loop (code-server, Copilot Chat, the fake model)…');
  const t0 = Date.now();
  const rc = await new Promise((resolve) => {
    const child = spawn('bash', [join(repo, 'scripts/host/run-copilot.sh')], {
      env: {
        ...process.env,
        EXT_DIR: ext,
        EDITGUARD_EXT_TESTS: entry,
        EDITGUARD_HOST_SCRIPT: '1',
        EDITGUARD_BENCH_FILE: resultFile,
        EDITGUARD_BENCH_QUICK: quick ? '1' : '',
        EDITGUARD_IDLE_LIMIT_MS: String(30 * 60 * 1000),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const relay = (st) =>
      st.on('data', (d) => {
        for (const line of String(d).split('\n'))
          if (line.trim() && (/bench|driver|copilot\]|run folder|error|Error/.test(line) || process.env.VERBOSE)) console.error(line);
      });
    relay(child.stdout);
    relay(child.stderr);
    child.on('close', (c) => resolve(c ?? 2));
  });
  const res = existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) : undefined;
  if (rc !== 0 || !res || res.info?.error)
    throw new Error(
      `Copilot benchmark failed (exit ${rc})${res?.info?.error ? `: ${res.info.error.split('\n')[0]}` : ''}; see the run folder above (.runs/copilot-*)`,
    );
  log(`Copilot agent loop done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return res;
}

// ---------------------------------------------------------------------------------------------
// table

function fmt(v, unit) {
  if (v === undefined || Number.isNaN(v)) return '';
  if (unit === 'ms')
    return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v >= 0.01 ? v.toFixed(3) : v.toExponential(1);
  if (unit === 'µs') return v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}
const fmtRatio = (r) => (r >= 1000 ? r.toExponential(1) : r.toFixed(2));

function holds(row) {
  if (!row.goal) return undefined;
  const x = row.goal.on === 'ratio' ? row.ratio?.median : row.value.median;
  return x === undefined ? undefined : x <= row.goal.max;
}

function ratioCell(r) {
  const pct = (x) => `${(x * 100).toFixed(x < 0.001 ? 3 : 2)} %`;
  if (r.goal?.text.includes('%')) return `${pct(r.ratio.median)} (${pct(r.ratio.min)}–${pct(r.ratio.max)})`;
  return `${fmtRatio(r.ratio.median)} (${fmtRatio(r.ratio.min)}–${fmtRatio(r.ratio.max)})`;
}

function table(rows) {
  const head = ['#', 'measure', 'median', 'min–max', 'baseline (median)', 'ratio median (min–max)', 'goal', 'holds'];
  const body = rows.map((r) => [
    r.group.split(' ')[0],
    r.label,
    `${fmt(r.value.median, r.unit)} ${r.unit}`,
    `${fmt(r.value.min, r.unit)}–${fmt(r.value.max, r.unit)}`,
    r.baseline ? `${r.baseline.label} ${fmt(r.baseline.median, r.unit)} ${r.unit}` : '',
    r.ratio ? ratioCell(r) : '',
    r.goal ? r.goal.text : '',
    r.goal ? (holds(r) ? 'yes' : 'NO') : '',
  ]);
  const md = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((b) => `| ${b.join(' | ')} |`)].join('\n');
  return md;
}

// ---------------------------------------------------------------------------------------------

const started = new Date();
const previous = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
let rows = [];
const extra = {};
const failures = [];
const ran = new Set();
for (const part of PARTS) {
  if (!only.has(part)) continue;
  const add = (rs) => rows.push(...rs.map((r) => ({ ...r, part: r.group.startsWith('7 ') ? 'hooks' : part })));
  try {
    if (part === 'core') add(await runCore());
    if (part === 'footprint') {
      const f = await runFootprint();
      add(f.rows);
      extra.vsixFiles = f.files;
      extra.bundleTopInputs = f.bundleTop;
    }
    if (part === 'host' || part === 'hooks') {
      const h = await runHost(part === 'hooks');
      add(h.rows);
      extra[part] = h.info;
    }
    if (part === 'activation') {
      const a = await runActivation();
      add(a.rows);
      extra.activation = a.info;
    }
    if (part === 'copilot') {
      const c = await runCopilot();
      add(c.rows);
      extra.copilot = c.info;
    }
    ran.add(part);
    if (part === 'host') ran.add('hooks').add('activation');
  } catch (e) {
    failures.push(`${part}: ${e.message}`);
    log(`${part} FAILED: ${e.stack || e}`);
  }
}
// a partial run (--only) keeps the other parts' rows of the previous results, marked as such; the
// parts that ran through replace all of theirs (a row they no longer make goes)
const partOf = (r) =>
  r.part ??
  (r.group.startsWith('7 ')
    ? 'hooks'
    : /^activation/.test(r.id)
      ? 'activation'
      : /^(e2e|read\.host)/.test(r.id)
        ? 'host'
        : r.id.startsWith('footprint')
          ? 'footprint'
          : 'core');
if (onlyArg && previous?.rows) {
  const have = new Set(rows.map((r) => r.id));
  rows = [
    ...rows,
    ...previous.rows.filter((r) => !have.has(r.id) && !ran.has(partOf(r))).map((r) => ({ ...r, from: r.from ?? previous.date })),
  ];
}
const order = (r) => Number(r.group.split(' ')[0]) * 1000;
rows = rows
  .map((r, i) => ({ ...r, i }))
  .sort((a, b) => order(a) - order(b) || a.i - b.i)
  .map(({ i, ...r }) => ({ ...r, holds: holds(r) }));

const cpu = cpus();
const results = {
  date: started.toISOString(),
  machine: {
    cores: cpu.length,
    cpu: cpu[0]?.model,
    memGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadavg: (await import('node:os')).loadavg(),
  },
  command: `npm run bench${args.length ? ' -- ' + args.join(' ') : ''}`,
  quick,
  rows,
  ...extra,
  failures,
};
writeFileSync(resultsFile, JSON.stringify(results, null, 1) + '\n');
console.log(
  `\nAgent Edit Guard benchmarks — ${started.toISOString().slice(0, 10)}, ${cpu.length} cores (${cpu[0]?.model}), Node ${process.version}${quick ? ', --quick' : ''}\n`,
);
console.log(table(rows));
const goals = rows.filter((r) => r.goal);
console.log(
  `\n${goals.filter((r) => r.holds).length} of ${goals.length} goals hold${
    goals.some((r) => !r.holds)
      ? `; missed: ${goals
          .filter((r) => !r.holds)
          .map((r) => r.id)
          .join(', ')}`
      : ''
  }. Written to ${relative(process.cwd(), resultsFile) || resultsFile}.`,
);
if (failures.length) {
  console.log(`\nFAILED parts: ${failures.join('; ')}`);
  process.exit(1);
}
