// The host half of `npm run bench` (the hooks bridge: ./hooks.ts): runs inside a real VS Code extension host
// (code-server, scripts/host/drive.js) as the extensionTestsPath of a copy of the extension that
// bench/run.mjs prepares (production bundle, `activationEvents: []`, one extra no-op tool).
// Writes { rows, info } as JSON to $EDITGUARD_BENCH_FILE. Measures, never asserts a duration.
// $EDITGUARD_BENCH_ONLY: 'activation' (that alone), 'hooks' (activation, then group 7 only).
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import { compare, KB, MB, now, ratioOf, sizeLabel, sourceLikeText, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { codexHookRoundTrips, hookRoundTrips, settingsAgentHookRoundTrips } from './hooks';
import { pluginRoundTrips } from './plugins';
import { windowAnswers } from './window';

const EXTENSION_ID = 'editguard.agent-edit-guard';
const READ = 'editGuard_readFile';
const REPLACE = 'editGuard_replaceString';
const NOOP = 'editGuardBench_noop';
const quick = process.env.EDITGUARD_BENCH_QUICK === '1';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Quiet time after each timed operation, outside the timing: the debounced freshness re-hash and the
 * status bar refresh run after a call, not inside it, and must not land in the next sample. */
const SETTLE_MS = 120;
const profileSize = Number(process.env.EDITGUARD_BENCH_PROFILE_SIZE || 1024 * 1024);

const log = (m: string) => console.log(`[bench] ${m}`);

/** With $EDITGUARD_BENCH_PROFILE (a folder): CPU profiles of the extension host (this process). */
const profileDir = process.env.EDITGUARD_BENCH_PROFILE || '';
async function profiled<T>(name: string, body: () => Promise<T>): Promise<T> {
  if (!profileDir) return body();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const inspector = require('inspector') as typeof import('inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  try {
    return await body();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(profileDir, { recursive: true });
    fs.writeFileSync(path.join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** Extension-host CPU time (user + system, ms) spent while `body` runs. */
async function cpuOf(body: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await body();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

interface ToolJson {
  status: string;
  code?: string;
  reason?: string;
  saved?: boolean;
  message?: string;
}

function jsonOf(result: vscode.LanguageModelToolResult): ToolJson {
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelDataPart && part.mimeType.includes('json'))
      return JSON.parse(new TextDecoder().decode(part.data));
    const p = part as { mimeType?: string; data?: Uint8Array };
    if (p.mimeType?.includes('json') && p.data) return JSON.parse(new TextDecoder().decode(p.data));
  }
  throw new Error('tool result without a JSON part');
}

const invoke = (name: string, input: object) =>
  vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);

// ---------------------------------------------------------------------------------------------
// item 6: activation

async function activation(info: Record<string, unknown>) {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  info.activeBeforeBench = ext.isActive;
  // VS Code's own activation of the extension, which was not active yet (the bench copy has
  // `activationEvents: []`): module loading + activate(), as a user's window pays it once. One
  // sample per host run: an extension activates once per host (a second activate() in the same
  // host fails: VS Code keeps log channels by name), so bench/run.mjs starts extra short host runs.
  if (ext.isActive) throw new Error('the extension was already active: activation cannot be timed');
  // Split the way VS Code accounts it (codeLoadingTime, activateCallTime): load the bundle ourselves
  // (its first load in this host), and put a module in require's cache whose activate() times the
  // real one; VS Code's loader then takes it from the cache.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the loader's Module class, to put a module in require's cache
  const Module = require('module') as { new (id: string): { exports: unknown; loaded: boolean; filename: string } };
  const main = path.join(ext.extensionPath, 'dist', 'extension.js');
  const tLoad = now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- times the bundle's load through require's cache
  const real = require(main) as { activate(c: vscode.ExtensionContext): unknown; deactivate?(): unknown };
  info.codeLoadingMs = now() - tLoad;
  const wrapper = new Module(main);
  wrapper.filename = main;
  wrapper.loaded = true;
  wrapper.exports = {
    activate(c: vscode.ExtensionContext) {
      const t = now();
      try {
        return real.activate(c);
      } finally {
        info.activateCallMs = now() - t;
      }
    },
    deactivate: () => real.deactivate?.(),
  };
  require.cache[main] = wrapper as unknown as NodeJS.Module;
  const t0 = now();
  await profiled('activation', () => Promise.resolve(ext.activate()));
  info.extActivateMs = now() - t0;
  if (info.activateCallMs === undefined) throw new Error('the activation did not go through the timed module');
  info.activationMs = (info.codeLoadingMs as number) + (info.activateCallMs as number);
  if (!ext.exports || typeof (ext.exports as { readMarks?: unknown }).readMarks !== 'function')
    throw new Error('activate() did not return the API');
  // the code-loading part, repeated: evaluate the bundle again (no activate(): it has no side effects)
  const bundle = path.join(ext.extensionPath, 'dist', 'extension.js');
  const loads: number[] = [];
  for (let i = 0; i < (quick ? 5 : 15); i++) {
    delete require.cache[bundle];
    const t1 = now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- times the bundle's load through require's cache
    require(bundle);
    loads.push(now() - t1);
  }
  delete require.cache[bundle];
  info.moduleLoadMs = loads;
}

// ---------------------------------------------------------------------------------------------
// item 4: end to end replace

/** A file whose middle line holds `BENCH_MARKER = 0`, flipped between 0 and 1 by every replace. */
function makeFile(file: string, size: number): number {
  const half = sourceLikeText(size / 2, size);
  const cut = half.lastIndexOf('\n') + 1;
  const head = half.slice(0, cut);
  const line = 'export const BENCH_MARKER = 0; // the line the benchmark replaces\n';
  const tail = sourceLikeText(size - cut - line.length, size + 1);
  fs.writeFileSync(file, head + line + tail);
  return head.split('\n').length; // 1-based line of the marker
}

async function endToEnd(rows: Row[], info: Record<string, unknown>, ws: string) {
  const sizes = [1 * KB, 100 * KB, 1 * MB, 10 * MB];
  const closed: string[] = [];
  const sub = vscode.workspace.onDidCloseTextDocument((d) => closed.push(path.basename(d.uri.fsPath)));
  for (const size of sizes) {
    const label = sizeLabel(size);
    const names = { guarded: `guarded-${size}.ts`, bare: `bare-${size}.ts`, bareNoSave: `bare-nosave-${size}.ts` };
    let markerLine = 0;
    for (const f of Object.values(names)) markerLine = makeFile(path.join(ws, f), size);
    const uri = (f: string) => vscode.Uri.file(path.join(ws, f));
    // all three documents loaded in the editor host first (neither side pays for opening the file)
    const docs = {
      guarded: await vscode.workspace.openTextDocument(uri(names.guarded)),
      bare: await vscode.workspace.openTextDocument(uri(names.bare)),
      bareNoSave: await vscode.workspace.openTextDocument(uri(names.bareNoSave)),
    };
    const state = { guarded: 0, bare: 0, bareNoSave: 0 };
    const flip = (k: keyof typeof state) => {
      const from = `BENCH_MARKER = ${state[k]}`;
      state[k] = 1 - state[k];
      return { from, to: `BENCH_MARKER = ${state[k]}` };
    };
    let lastGuarded: vscode.LanguageModelToolResult | undefined;
    const cpu: Record<string, number[]> = { bare: [], guarded: [], bareNoSave: [], noop: [] };
    const withCpu = (k: string, body: () => Promise<unknown>) => async () => {
      cpu[k].push(await cpuOf(body));
    };
    const bareReplace = async (k: 'bare' | 'bareNoSave', save: boolean) => {
      const doc = docs[k];
      const { from, to } = flip(k);
      // what any replace tool does without a gate: find the text, one edit, (save)
      const text = doc.getText();
      const at = text.indexOf(from);
      if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`bare: ${from} not found once`);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('bare: applyEdit refused');
      if (save && !(await doc.save())) throw new Error('bare: save failed');
    };
    const check = (r: vscode.LanguageModelToolResult | undefined, what: string) => {
      const j = r && jsonOf(r);
      if (!j || j.status !== 'ok') throw new Error(`${what}: ${JSON.stringify(j)}`);
      return j;
    };
    const rounds = quick ? 4 : size >= 10 * MB ? 9 : 15;
    log(`end to end ${label}: ${rounds} rounds`);
    const c = await compare(
      [
        { name: 'bare', run: withCpu('bare', () => bareReplace('bare', true)), teardown: () => sleep(SETTLE_MS) },
        {
          name: 'guarded',
          // the agent reads (a range around the line) before it edits: untimed, the gate's prerequisite
          setup: async () =>
            check(await invoke(READ, { filePath: names.guarded, offset: Math.max(1, markerLine - 10), limit: 20 }), 'read'),
          run: withCpu('guarded', async () => {
            const { from, to } = flip('guarded');
            lastGuarded = await invoke(REPLACE, { filePath: names.guarded, oldString: from, newString: to });
          }),
          teardown: async () => {
            const j = check(lastGuarded, 'guarded replace');
            if (!j.saved) throw new Error('guarded replace did not save');
            await sleep(SETTLE_MS);
          },
        },
        { name: 'bareNoSave', run: withCpu('bareNoSave', () => bareReplace('bareNoSave', false)), teardown: () => sleep(SETTLE_MS) },
        {
          name: 'noop',
          run: withCpu('noop', () => Promise.resolve(invoke(NOOP, { filePath: names.guarded }))),
          teardown: () => sleep(SETTLE_MS),
        },
      ],
      { warmup: 2, rounds },
    );
    // the files must match byte for byte on disk: both sides did the same edits
    const disk = (f: string) => fs.readFileSync(path.join(ws, f), 'utf8');
    if (disk(names.guarded).length !== disk(names.bare).length) throw new Error('guarded and bare files differ in length');
    const t = c.times;
    // the least any tool doing this edit could take: the bare edit and save, plus VS Code's cost of calling a tool at all
    const floor = c.samples.bare.map((b, i) => b + c.samples.noop[i]);
    rows.push({
      id: `e2e.replace.${size}`,
      group: '4 end to end',
      label: `editGuard_replaceString via invokeTool, ${label}`,
      value: t.guarded,
      baseline: { label: 'applyEdit + save, plus invokeTool of a do-nothing tool', ...stat(floor) },
      ratio: stat(c.samples.guarded.map((g, i) => g / floor[i])),
      goal: { text: 'ratio ≤ 1.2', max: 1.2, on: 'ratio' },
      unit: 'ms',
      note: `applyEdit + save alone ${t.bare.median.toFixed(2)} ms (ratio ${c.ratios.guarded.median.toFixed(2)}); applyEdit without save ${t.bareNoSave.median.toFixed(2)} ms (ratio ${ratioOf(c, 'guarded', 'bareNoSave').median.toFixed(2)}); invokeTool of a no-op tool ${t.noop.median.toFixed(2)} ms`,
    });
    info[`e2e.${size}`] = { times: c.times, samples: c.samples, extHostCpuMs: cpu };
    // extension-host CPU per call (all of the host process): less disturbed by other processes than wall time
    const warm = 2;
    const g = cpu.guarded.slice(warm);
    const b = cpu.bare.slice(warm);
    rows.push({
      id: `e2e.cpu.${size}`,
      group: '4 end to end',
      label: `extension-host CPU of that call, ${label}`,
      value: stat(g),
      baseline: { label: 'applyEdit + save', ...stat(b) },
      ratio: stat(g.map((x, i) => x / Math.max(b[i], 0.001))),
      unit: 'ms',
      note: 'process.cpuUsage() of the extension host around the call',
    });
    if (profileDir && size === profileSize) {
      // the guarded path alone, profiled: read (untimed in the table) + replace, a few times
      await profiled(`replace-${size}`, async () => {
        for (let i = 0; i < 6; i++) {
          check(await invoke(READ, { filePath: names.guarded, offset: Math.max(1, markerLine - 10), limit: 20 }), 'read');
          const { from, to } = flip('guarded');
          check(await invoke(REPLACE, { filePath: names.guarded, oldString: from, newString: to }), 'replace');
          await sleep(SETTLE_MS);
        }
      });
    }
  }
  sub.dispose();
  info.documentsClosedDuringBench = closed;
}

// ---------------------------------------------------------------------------------------------
// item 5: read rendering

async function readRendering(rows: Row[], ws: string) {
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++)
    lines.push(
      sourceLikeText(100, i + 3)
        .replace(/\n/g, ' ')
        .slice(0, 40 + (i % 40)),
    );
  const file = 'read-2000.ts';
  fs.writeFileSync(path.join(ws, file), lines.join('\n') + '\n');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(ws, file)));
  let sink = 0;
  let last: vscode.LanguageModelToolResult | undefined;
  const c = await compare(
    [
      {
        name: 'getText',
        batch: 50,
        run: () => {
          sink += doc.getText().length;
        },
      },
      {
        name: 'read',
        run: async () => {
          last = await invoke(READ, { filePath: file });
        },
        teardown: () => sleep(20),
      },
      { name: 'noop', run: () => invoke(NOOP, { filePath: file }), teardown: () => sleep(20) },
    ],
    { warmup: 3, rounds: quick ? 5 : 21 },
  );
  const j = last && jsonOf(last);
  if (!j || j.status !== 'ok') throw new Error(`read: ${JSON.stringify(j)}`);
  rows.push({
    id: 'read.host',
    group: '5 read rendering',
    label: `editGuard_readFile via invokeTool, 2 000 lines (${Math.round(doc.getText().length / KB)} KB)`,
    value: c.times.read,
    // against the same call of a tool that does nothing: what the read adds to VS Code's own cost of any tool call
    baseline: { label: 'invokeTool of a do-nothing tool', ...c.times.noop },
    ratio: ratioOf(c, 'read', 'noop'),
    unit: 'ms',
    note: `document.getText() alone ${c.times.getText.median.toExponential(1)} ms`,
  });
  if (sink === -1) log(String(sink));
}

export async function run(): Promise<void> {
  const out = process.env.EDITGUARD_BENCH_FILE;
  const rows: Row[] = [];
  const info: Record<string, unknown> = { vscode: vscode.version, node: process.version, quick };
  const save = () => {
    if (out) fs.writeFileSync(out, JSON.stringify({ rows, info }, null, 1));
  };
  try {
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!ws) throw new Error('no workspace folder');
    log(`VS Code ${vscode.version}, extension host Node ${process.version}`);
    await activation(info);
    if (process.env.EDITGUARD_BENCH_ONLY === 'activation') return save();
    if (process.env.EDITGUARD_BENCH_ONLY !== 'hooks') {
      const noop = vscode.lm.registerTool(NOOP, {
        invoke: async () => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('ok')]),
      });
      await readRendering(rows, ws);
      await endToEnd(rows, info, ws);
      noop.dispose();
    }
    log("hooks bridge: the window's own answer to each event (no process, no client)");
    await windowAnswers(rows, info, ws, quick, profiled);
    if (process.env.EDITGUARD_BENCH_WINDOW_ONLY) return save();
    log("hooks bridge: the hooks file's commands as Copilot runs them");
    await hookRoundTrips(rows, info, ws, quick);
    log("hooks bridge: Codex's hook commands as Codex runs them ($SHELL -lc)");
    await codexHookRoundTrips(rows, info, ws, quick);
    log("hooks bridge: Claude Code's, Gemini CLI's and Qwen Code's hook commands as each runs them");
    await settingsAgentHookRoundTrips(rows, info, ws, quick);
    log("hooks bridge: pi's extension in its own process");
    await pluginRoundTrips(rows, info, ws, quick);
    return save();
  } catch (e) {
    info.error = String((e as Error)?.stack ?? e);
    log(`FAILED: ${info.error}`);
    save();
    throw e;
  }
}
