// Group 8 of `npm run bench`: one edit tool step in GitHub Copilot Chat's REAL agent loop (the Copilot
// host of scripts/host/run-copilot.sh, the scripted fake model of test/copilot/fake-model), timed as
// the wall time of the turn — workbench.action.chat.open with blockOnResponse, the model answering
// one tool call, then a final text. Loaded as the extension host's test entry of a copy of the
// extension that bench/run.mjs prepares (a script, not a suite: EDITGUARD_HOST_SCRIPT=1).
// Writes { rows, info } as JSON to $EDITGUARD_BENCH_FILE. Measures, never asserts a duration.
//
// Each sample: a new chat, a fresh file (same content every time), the model reads it in a first
// turn (untimed, so the edit passes), then the edit turn, timed. Per round, in a rotating order:
// The bridge is on throughout (its hooks file written, the extension listening); per phase:
//   bridge on  (Copilot runs the bridge's hooks: UserPromptSubmit, PreToolUse and PostToolUse of each call)
//     a   replace_string_in_file (Copilot's own tool; read with read_file)
//     c'  editGuard_replaceString (read with editGuard_readFile)
//   bridge off (chat.useHooks false: Copilot runs no hook; see `hooks` below for why not the setting)
//     b   replace_string_in_file
//     c   editGuard_replaceString
// Rows: a/b (what the bridge adds to a built-in edit step), c/b (our tool against Copilot's own, with
// no hooks on either side: the setting's default, and the hooks' cost is a/b's), c'/a (the same
// with the bridge on: there the hooks run for our tool's call too).
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import {
  agentTurn,
  fakeModel,
  makeFileAt,
  marksFor,
  newChat,
  READ,
  REPLACE,
  revertAndCloseAll,
  sleep,
  startCopilotSuite,
  TestFile,
  workspaceRoot,
} from '../../test/copilot/agent';
import { stat, type Stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { setBridge } from '../host/bridge';

const quick = process.env.EDITGUARD_BENCH_QUICK === '1';
const GROUP = '8 Copilot agent loop';
const BUILTIN_REPLACE = 'replace_string_in_file';
const BUILTIN_READ = 'read_file';
/** quiet time after each turn, untimed: the chat view's rendering and our debounced work settle */
const SETTLE_MS = 300;
const log = (m: string) => console.log(`[bench] ${m}`);

/** The sample file: ~60 lines of TypeScript, one marker line the edit flips. */
const LINES = 60;
const FILE_TEXT =
  Array.from({ length: LINES }, (_, i) =>
    i === 30
      ? 'export const BENCH_MARKER = 0; // the line the edit changes'
      : `export const value${i + 1} = ${i + 1}; // a line of the bench file`,
  ).join('\n') + '\n';
const OLD = 'export const BENCH_MARKER = 0;';
const NEW = 'export const BENCH_MARKER = 1;';

type Kind = 'a' | 'b' | 'c' | 'cOn';
const KINDS: Record<Kind, { bridge: boolean; builtin: boolean }> = {
  a: { bridge: true, builtin: true },
  cOn: { bridge: true, builtin: false },
  b: { bridge: false, builtin: true },
  c: { bridge: false, builtin: false },
};

/** Copilot's "GitHub Copilot Chat Hooks" log of this run (one `Running:`/`Input:` record per hook it ran). */
function hooksLog(): string | undefined {
  const logs = path.join(process.env.RUN_DIR ?? '', 'user-data', 'logs');
  if (!process.env.RUN_DIR || !fs.existsSync(logs)) return undefined;
  for (const day of fs.readdirSync(logs).sort().reverse()) {
    for (const host of fs.readdirSync(path.join(logs, day)).filter((d) => d.startsWith('exthost'))) {
      const dir = path.join(logs, day, host, 'GitHub.copilot-chat');
      const f = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => /hooks/i.test(n)) : undefined;
      if (f) return path.join(dir, f);
    }
  }
  return undefined;
}

/** One hook run as Copilot's Hooks log records it: `[#id] [Event] Input: {payload}` … `Completed (…) in N ms`. */
interface HookRun {
  id: number;
  event: string;
  session?: string;
  prompt?: string;
  ms?: number;
}

function hookRuns(): HookRun[] {
  const f = hooksLog();
  if (!f) return [];
  const runs = new Map<number, HookRun>();
  for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
    const m = /\[#(\d+)\] \[(\w+)\] (Input: (\{.*\})|Completed .* in (\d+)\s*ms)/.exec(line);
    if (!m) continue;
    const id = Number(m[1]);
    const r = runs.get(id) ?? { id, event: m[2] };
    runs.set(id, r);
    if (m[4]) {
      try {
        const p = JSON.parse(m[4]) as { session_id?: string; prompt?: string };
        r.session = p.session_id;
        r.prompt = p.prompt;
      } catch {
        // a payload cut short: the run still counts
      }
    } else r.ms = Number(m[5]);
  }
  return [...runs.values()].sort((x, y) => x.id - y.id);
}

/** The hooks Copilot ran for the turn whose query carried [[tag]]: its UserPromptSubmit and the later hooks of its chat. */
function hooksOfTurn(runs: HookRun[], tag: string): HookRun[] {
  const start = runs.find((r) => r.event === 'UserPromptSubmit' && r.prompt?.startsWith(`[[${tag}]]`));
  if (!start) return [];
  const next = runs.find((r) => r.id > start.id && r.event === 'UserPromptSubmit' && r.session === start.session);
  return runs.filter((r) => r.id >= start.id && r.session === start.session && (!next || r.id < next.id));
}

/** VS Code's switch for all agent hooks: its change makes the chat recompute its hooks at once. */
const useHooks = (on: boolean) =>
  vscode.workspace.getConfiguration('chat').update('useHooks', on ? undefined : false, vscode.ConfigurationTarget.Global);

let probes = 0;
/**
 * Copilot runs the bridge's hooks (on) or no hook at all (off), and waits until Copilot's own view
 * agrees: a probe turn's read_file is marked (on), or no hook of the probe turn reached Copilot's
 * Hooks log (off). "Off" is `chat.useHooks: false` with the bridge still on, not the bridge's setting
 * off: the chat learns of a hooks file that appears or goes only through VS Code's file watcher,
 * which here missed the file's deletion (folder kept) for over a minute and its re-creation (in a
 * re-created .github/hooks) for over 40 s; a configuration change is seen at once. For the turn
 * it is the same: no hook runs, and a listening bridge costs nothing without its hooks.
 */
async function hooks(on: boolean): Promise<number> {
  await useHooks(on);
  for (let attempt = 1; attempt <= 12; attempt++) {
    const probe = makeFileAt(`bench-copilot/probe-${++probes}.txt`, 'probe\n');
    await newChat();
    const turn = await agentTurn(
      'probe',
      [{ tool: BUILTIN_READ, input: { filePath: probe.abs, startLine: 1, endLine: 1 } }, { text: 'read.' }],
      'Read the probe.',
      { model: fakeModel().MODELS.sonnet },
    );
    if (on && (await marksFor(probe.uri)).length > 0) return attempt;
    if (!on) {
      // the log is written asynchronously: give a hook of the probe time to show
      await sleep(1500);
      if (hooksOfTurn(hookRuns(), turn.tag).length === 0) return attempt;
    }
    await sleep(1000);
  }
  throw new Error(`Copilot did not ${on ? 'run the hooks bridge' : 'stop running hooks'} (chat.useHooks ${on ? 'on' : 'off'})`);
}

interface Sample {
  kind: Kind;
  round: number;
  ms: number;
  tag: string;
}

async function sample(kind: Kind, round: number): Promise<Sample> {
  const { builtin } = KINDS[kind];
  const f: TestFile = makeFileAt(`bench-copilot/${kind}-${round}.ts`, FILE_TEXT);
  const model = fakeModel().MODELS.sonnet;
  await newChat();
  // the read, in its own turn of the same chat: untimed
  const read = builtin
    ? { tool: BUILTIN_READ, input: { filePath: f.abs, startLine: 1, endLine: LINES } }
    : { tool: READ, input: { filePath: f.rel } };
  await agentTurn(`read-${kind}`, [read, { text: 'Read it.' }], 'Read the file.', { model });
  await sleep(SETTLE_MS);
  const edit = builtin
    ? { tool: BUILTIN_REPLACE, input: { filePath: f.abs, oldString: OLD, newString: NEW } }
    : { tool: REPLACE, input: { filePath: f.rel, oldString: OLD, newString: NEW } };
  const t0 = performance.now();
  const turn = await agentTurn(`edit-${kind}`, [edit, { text: 'Done.' }], 'Flip the marker.', { model });
  const ms = performance.now() - t0;
  const result = turn.requests.at(-1)?.toolResults[0]?.text ?? '(no tool result)';
  if (/denied|BLOCKED|ERROR/i.test(result)) throw new Error(`copilot bench: the ${kind} edit did not pass: ${result.slice(0, 300)}`);
  const doc = await vscode.workspace.openTextDocument(f.uri);
  if (!doc.getText().includes(NEW)) throw new Error(`copilot bench: the ${kind} edit did not change ${f.rel}: ${result.slice(0, 300)}`);
  await revertAndCloseAll();
  await sleep(SETTLE_MS);
  return { kind, round, ms, tag: turn.tag };
}

export async function run(): Promise<void> {
  const out = process.env.EDITGUARD_BENCH_FILE;
  const rows: Row[] = [];
  const info: Record<string, unknown> = {
    vscode: vscode.version,
    node: process.version,
    copilot: vscode.extensions.getExtension('GitHub.copilot-chat')?.packageJSON?.version,
    quick,
  };
  const save = () => {
    if (out) fs.writeFileSync(out, JSON.stringify({ rows, info }, null, 1));
  };
  try {
    const t0 = Date.now();
    await startCopilotSuite();
    info.copilot = vscode.extensions.getExtension('GitHub.copilot-chat')?.packageJSON?.version;
    const ws = workspaceRoot();
    await setBridge(true, ws);
    log(`VS Code ${vscode.version}, Copilot Chat ${info.copilot}; started in ${Date.now() - t0} ms`);
    const warmup = 1;
    const rounds = quick ? 3 : 8;
    const samples: Sample[] = [];
    const toggles: Array<{ on: boolean; probes: number }> = [];
    for (let round = 0; round < warmup + rounds; round++) {
      // rotate: which bridge state comes first, and which tool first within it
      const phases = round % 2 ? [false, true] : [true, false];
      for (const on of phases) {
        toggles.push({ on, probes: await hooks(on) });
        const kinds = (Object.keys(KINDS) as Kind[]).filter((k) => KINDS[k].bridge === on);
        if ((round >> 1) % 2) kinds.reverse();
        for (const k of kinds) {
          const s = await sample(k, round);
          if (round >= warmup) samples.push(s);
          log(`round ${round + 1 - warmup} of ${rounds}${round < warmup ? ' (warm-up)' : ''}: ${k} ${s.ms.toFixed(0)} ms`);
        }
      }
    }
    await useHooks(true);
    await setBridge(false, ws);
    // which hooks each timed turn ran, and how long Copilot says each took (its Hooks log)
    await sleep(2000);
    const runs = hookRuns();
    const hooksOf = new Map(samples.map((s) => [s, hooksOfTurn(runs, s.tag)]));
    const of = (k: Kind) => samples.filter((s) => s.kind === k).sort((x, y) => x.round - y.round);
    const times = (k: Kind) => stat(of(k).map((s) => s.ms));
    const ratio = (k: Kind, base: Kind): Stat => {
      const b = new Map(of(base).map((s) => [s.round, s.ms]));
      return stat(of(k).map((s) => s.ms / b.get(s.round)!));
    };
    const n = (k: Kind) => of(k).length;
    const hooksNote = (k: Kind) => {
      if (!hooksLog()) return "Copilot's Hooks log not found: hook runs not checked";
      const per = of(k).map((s) => hooksOf.get(s)!);
      const ran = per.filter((h) => h.length > 0);
      if (!ran.length) return `no hook ran in its ${n(k)} turns (Copilot's Hooks log)`;
      const sum = stat(ran.map((h) => h.reduce((t, r) => t + (r.ms ?? 0), 0))).median;
      const events = [...new Set(ran.flatMap((h) => h.map((r) => r.event)))].join(', ');
      return `hooks ran in ${ran.length} of ${n(k)} turns (${events}; ${stat(ran.map((h) => h.length)).median} per turn), together ${sum.toFixed(0)} ms per turn by Copilot's own clock (median)`;
    };
    const goal = { text: 'ratio ≤ 1.1', max: 1.1, on: 'ratio' as const };
    rows.push(
      {
        id: 'copilot.replace.bridgeOn',
        group: GROUP,
        label: 'a Copilot turn: replace_string_in_file + final text, bridge on',
        value: times('a'),
        baseline: { label: 'the same, bridge off (no hook runs)', ...times('b') },
        ratio: ratio('a', 'b'),
        unit: 'ms',
        goal,
        note: `${hooksNote('a')}; bridge off: ${hooksNote('b')}`,
      },
      {
        id: 'copilot.guarded.vsBuiltin',
        group: GROUP,
        label: 'a Copilot turn: editGuard_replaceString + final text, bridge off',
        value: times('c'),
        baseline: { label: 'replace_string_in_file, bridge off', ...times('b') },
        ratio: ratio('c', 'b'),
        unit: 'ms',
        goal,
        note: `the same file, the same edit; ${hooksNote('c')}`,
      },
      {
        id: 'copilot.guarded.bridgeOn',
        group: GROUP,
        label: 'a Copilot turn: editGuard_replaceString + final text, bridge on',
        value: times('cOn'),
        baseline: { label: 'replace_string_in_file, bridge on', ...times('a') },
        ratio: ratio('cOn', 'a'),
        unit: 'ms',
        note: `with the bridge on the hooks run for our tool's call too; ${hooksNote('cOn')}`,
      },
    );
    info.samples = samples.map((s) => ({ ...s, hooks: hooksOf.get(s)?.map((r) => ({ event: r.event, ms: r.ms })) }));
    info.toggles = toggles;
    info.hooksLog = hooksLog() ?? null;
    info.seconds = (Date.now() - t0) / 1000;
    save();
  } catch (e) {
    info.error = String((e as Error)?.stack ?? e);
    log(`FAILED: ${info.error}`);
    save();
    throw e;
  }
}
