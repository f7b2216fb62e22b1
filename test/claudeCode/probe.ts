// What Claude Code's hooks see and do, measured with the real CLI against the scripted fake model
// (test/claudeCode/fakeAnthropic.ts, test/claudeCode/claudeCli.ts). Run: `npm run claude:probe` (test/shared/probe.mjs bundles
// this file with esbuild and runs it in plain Node); FACTS.md beside it is what a run printed, explained.
// Options: --json FILE (everything recorded, as JSON), --timing-runs N (default 5), --no-timing,
// --models a,b (default: the CLI's default model, then claude-sonnet-4-5-20250929).
//
// Why two models: Claude Code 2.1.332 decides by the model's name whether its own read-before-write check
// applies (it does for claude-sonnet-4-5 and claude-haiku-4-5, not for claude-sonnet-4-6 or its default
// model), so the same session runs once per model.
//
// Each session is a temporary project with hooks from a --settings file: every event below runs a tiny
// recorder (written into the temporary folder) that appends its stdin payload to a log and, for a
// PreToolUse whose tool_input.old_string holds DENYME, answers a deny (CRASHME: it exits 1; EXIT2ME: it
// exits 2 with a stderr). The tool events have the matcher Read|Edit|Write|MultiEdit; a control hook with
// matcher * logs every PreToolUse elsewhere, so a Bash call is seen to happen while the recorder is not
// started for it.
//   prompt 1: the steps of STEPS below (reads, edits, writes, a denied edit, files changed on disk between
//             a Read and an Edit or Write, Bash, a MultiEdit, …)
//   prompt 2 (--resume): Edit a file read in prompt 1, without reading it again
//   /compact (--resume), then prompt 3: Edit a file read before the compaction, without reading it again
// Then the cost of a hook: 10 Read calls in one run, with and without a PreToolUse hook `node -e ''`.
import { claudeBinary, claudeSession, describeRun, runClaude, type ClaudeRun, type StreamEvent } from './claudeCli';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest,
  type Step,
  type StepAnswer,
  type ToolResultSeen,
} from './fakeAnthropic';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const jsonOut = opt('--json');
const timingRuns = Number(opt('--timing-runs') ?? 5);
const timing = !argv.includes('--no-timing');
/** 'default' = no --model */
const models = (opt('--models') ?? 'default,claude-sonnet-4-5-20250929').split(',');

// ------------------------------------------------------------------------------------------------
// the recorder hook

const RECORDER = `// the probe's hook command: appends its payload to the log named by argv[2]
const fs = require('fs');
const log = process.argv[2];
let input = '';
process.stdin.setEncoding('utf8').on('data', (d) => (input += d)).on('end', () => {
  let payload;
  try { payload = JSON.parse(input); } catch { payload = { unparsed: input }; }
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^CLAUDE/.test(k)));
  fs.appendFileSync(log, JSON.stringify({ pid: process.pid, at: Date.now(), cwd: process.cwd(), env, payload }) + '\\n');
  if (process.argv[3] === 'log-only' || payload.hook_event_name !== 'PreToolUse') return;
  const old = payload.tool_input && typeof payload.tool_input.old_string === 'string' ? payload.tool_input.old_string : '';
  if (old.includes('DENYME')) {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Edit Guard probe: the hook denies edits of DENYME.' } }));
  } else if (old.includes('CRASHME')) {
    process.stderr.write('recorder: exit 1 on purpose');
    process.exit(1);
  } else if (old.includes('EXIT2ME')) {
    process.stderr.write('Edit Guard probe: exit 2 on purpose, this is stderr.');
    process.exit(2);
  }
});
`;

interface HookRecord {
  pid: number;
  at: number;
  cwd: string;
  env: Record<string, string>;
  payload: Record<string, unknown> & { hook_event_name?: string; tool_name?: string; tool_use_id?: string };
}

const readLog = (file: string): HookRecord[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as HookRecord)
    : [];

// ------------------------------------------------------------------------------------------------
// printing

/** A copy with long strings cut, for printing. */
function trim(value: unknown, max = 160): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…(${value.length} chars)` : value;
  if (Array.isArray(value))
    return value.length > 12
      ? [...value.slice(0, 12).map((v) => trim(v, max)), `…(${value.length} items)`]
      : value.map((v) => trim(v, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v, max)]));
  return value;
}

const show = (value: unknown, max?: number) => JSON.stringify(trim(value, max));
const heading = (s: string) => console.log(`\n=== ${s} ===`);

// ------------------------------------------------------------------------------------------------
// the session

const FILES: Record<string, string> = {
  'a.txt': 'alpha\nbeta\ngamma\ndelta\nepsilon\nDENYME line\nCRASHME line\nEXIT2ME line\n',
  'never-read-write.txt': 'this file was never read\n',
  'never-read-edit.txt': 'this file was never read\n',
  'partial.txt': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
  'partial-write.txt': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
  'twice.txt': 'read twice, unchanged\n',
  'changed.txt': 'one\ntwo\n',
  'changed-gone.txt': 'one\ntwo\n',
  'changed-write.txt': 'one\ntwo\n',
  'sneaky.txt': 'one\ntwo\n',
  'touched.txt': 'one\ntwo\n',
  'resumed.txt': 'read in prompt 1\n',
  'compacted.txt': 'read before the compaction\n',
  'crlf.txt': 'one\r\ntwo\r\n',
  'big.txt': `${Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n')}\n`,
};

const inode = (f: string) => fs.statSync(f).ino;

/** The tool calls of prompt 1 (ids toolu_probe_<label>); `p` makes a project path. */
function steps(p: (rel: string) => string, inodes: Record<string, number>): Step[] {
  const call = (id: string, tool: string, input: Record<string, unknown>): StepAnswer => ({ id: `toolu_probe_${id}`, tool, input });
  /** a Read of `rel`, then `change` on disk, then the call */
  const afterChange = (id: string, rel: string, change: () => void, tool: string, input: Record<string, unknown>): Step[] => [
    call(`${id}_read`, 'Read', { file_path: p(rel) }),
    () => {
      change();
      return call(id, tool, { file_path: p(rel), ...input });
    },
  ];
  return [
    call('read_full', 'Read', { file_path: p('a.txt') }),
    call('read_part', 'Read', { file_path: p('a.txt'), offset: 2, limit: 2 }),
    () => {
      inodes.beforeEdit = inode(p('a.txt'));
      return call('edit', 'Edit', { file_path: p('a.txt'), old_string: 'beta', new_string: 'BETA' });
    },
    () => {
      inodes.afterEdit = inode(p('a.txt'));
      return call('write_new', 'Write', { file_path: p('new.txt'), content: 'a new file\n' });
    },
    call('write_unread', 'Write', { file_path: p('never-read-write.txt'), content: 'overwritten\n' }),
    call('edit_unread', 'Edit', { file_path: p('never-read-edit.txt'), old_string: 'never', new_string: 'NEVER' }),
    call('read_partial', 'Read', { file_path: p('partial.txt'), offset: 1, limit: 2 }),
    call('edit_outside_partial', 'Edit', { file_path: p('partial.txt'), old_string: 'line 5', new_string: 'LINE 5' }),
    call('read_partial_w', 'Read', { file_path: p('partial-write.txt'), offset: 1, limit: 2 }),
    () => {
      inodes.beforeWrite = inode(p('partial-write.txt'));
      return call('write_after_partial', 'Write', { file_path: p('partial-write.txt'), content: 'written after a partial read\n' });
    },
    () => {
      inodes.afterWrite = inode(p('partial-write.txt'));
      return call('read_twice_1', 'Read', { file_path: p('twice.txt') });
    },
    call('read_twice_2', 'Read', { file_path: p('twice.txt') }),
    call('read_missing', 'Read', { file_path: p('no-such-file.txt') }),
    call('multiedit', 'MultiEdit', { file_path: p('a.txt'), edits: [{ old_string: 'alpha', new_string: 'ALPHA' }] }),
    call('edit_denied', 'Edit', { file_path: p('a.txt'), old_string: 'DENYME line', new_string: 'denied edit' }),
    call('edit_hook_exit1', 'Edit', { file_path: p('a.txt'), old_string: 'CRASHME line', new_string: 'edited though the hook exited 1' }),
    call('edit_hook_exit2', 'Edit', { file_path: p('a.txt'), old_string: 'EXIT2ME line', new_string: 'edited though the hook exited 2' }),
    call('bash', 'Bash', { command: 'echo from-bash', description: 'Print a word' }),
    call('read_again', 'Read', { file_path: p('a.txt') }),
    call('edit_not_found', 'Edit', { file_path: p('a.txt'), old_string: 'not in the file', new_string: 'x' }),
    // changed on disk between the Read and the Edit/Write: old_string still there; gone; a Write
    ...afterChange(
      'edit_changed',
      'changed.txt',
      () => fs.appendFileSync(p('changed.txt'), 'three (written on disk after the Read)\n'),
      'Edit',
      { old_string: 'one', new_string: 'ONE' },
    ),
    ...afterChange('edit_changed_gone', 'changed-gone.txt', () => fs.writeFileSync(p('changed-gone.txt'), 'uno\ntwo\n'), 'Edit', {
      old_string: 'one',
      new_string: 'ONE',
    }),
    ...afterChange(
      'write_changed',
      'changed-write.txt',
      () => fs.appendFileSync(p('changed-write.txt'), 'three (written on disk after the Read)\n'),
      'Write',
      { content: 'written over a change\n' },
    ),
    // changed with its mtime put back; only touched (same content, later mtime)
    ...afterChange(
      'edit_sneaky',
      'sneaky.txt',
      () => {
        const st = fs.statSync(p('sneaky.txt'));
        fs.writeFileSync(p('sneaky.txt'), 'one\ntwo\nthree (written on disk after the Read, mtime put back)\n');
        fs.utimesSync(p('sneaky.txt'), st.atime, st.mtime);
      },
      'Edit',
      { old_string: 'one', new_string: 'ONE' },
    ),
    ...afterChange(
      'edit_touched',
      'touched.txt',
      () => {
        const later = new Date(Date.now() + 5000);
        fs.utimesSync(p('touched.txt'), later, later);
      },
      'Edit',
      { old_string: 'one', new_string: 'ONE' },
    ),
    // line ends, and a file longer than the 2000 lines Read used to stop at
    call('read_crlf', 'Read', { file_path: p('crlf.txt') }),
    call('edit_crlf', 'Edit', { file_path: p('crlf.txt'), old_string: 'one\ntwo', new_string: 'ONE\nTWO' }),
    call('read_big', 'Read', { file_path: p('big.txt') }),
    call('read_resumed', 'Read', { file_path: p('resumed.txt') }),
    call('read_compacted', 'Read', { file_path: p('compacted.txt') }),
    { text: 'Prompt 1 done.' },
  ];
}

interface SessionResult {
  model: string;
  project: string;
  hooks: HookRecord[];
  control: HookRecord[];
  /** tool_use id → what the model received */
  results: Map<string, ToolResultSeen>;
  runs: ClaudeRun[];
  compactRequests: RecordedRequest[];
  firstAfterCompact?: RecordedRequest;
  prompt1: RecordedRequest[];
  inodes: Record<string, number>;
  disk: Record<string, string | null>;
}

async function probeSession(fake: FakeAnthropic, model: string): Promise<SessionResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-claude-probe-'));
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  const p = (rel: string) => path.join(project, rel);
  for (const [rel, text] of Object.entries(FILES)) fs.writeFileSync(p(rel), text);
  const hookLog = path.join(work, 'hooks.jsonl');
  const controlLog = path.join(work, 'control.jsonl');
  const recorder = path.join(work, 'recorder.cjs');
  fs.writeFileSync(recorder, RECORDER);
  const record = `"${process.execPath}" "${recorder}" "${hookLog}"`;
  const toolHook = [{ matcher: 'Read|Edit|Write|MultiEdit', hooks: [{ type: 'command', command: record }] }];
  const anyHook = [{ hooks: [{ type: 'command', command: record }] }];
  const settings = {
    hooks: {
      PreToolUse: [
        ...toolHook,
        { matcher: '*', hooks: [{ type: 'command', command: `"${process.execPath}" "${recorder}" "${controlLog}" log-only` }] },
      ],
      PostToolUse: toolHook,
      PostToolUseFailure: toolHook,
      UserPromptSubmit: anyHook,
      PreCompact: anyHook,
      PostCompact: anyHook,
      SessionStart: anyHook,
    },
  };
  const settingsFile = path.join(work, 'settings.json');
  fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 1));

  const session = claudeSession({
    cwd: project,
    baseUrl: fake.url,
    settingsFile,
    timeoutMs: 120000,
    extraArgs: model === 'default' ? [] : ['--model', model],
  });
  const inodes: Record<string, number> = {};
  const from = fake.requests.length;
  const check = (name: string, run: ClaudeRun) => {
    if (run.code !== 0 || run.result?.is_error) console.log(`[${model}] ${name}: ${describeRun(run)}`);
  };

  fake.script(steps(p, inodes));
  check('prompt 1', await session.prompt('Do the scripted task (prompt 1).'));
  fake.script([
    {
      id: 'toolu_probe_edit_resumed',
      tool: 'Edit',
      input: { file_path: p('resumed.txt'), old_string: 'prompt 1', new_string: 'PROMPT 1' },
    },
    { text: 'Prompt 2 done.' },
  ]);
  check('prompt 2', await session.prompt('Do the scripted task (prompt 2).'));
  const beforeCompact = fake.requests.length;
  check('/compact', await session.compact());
  const compactRequests = fake.requests.slice(beforeCompact);
  fake.script([
    {
      id: 'toolu_probe_edit_compacted',
      tool: 'Edit',
      input: { file_path: p('compacted.txt'), old_string: 'before', new_string: 'BEFORE' },
    },
    { text: 'Prompt 3 done.' },
  ]);
  check('prompt 3', await session.prompt('Do the scripted task (prompt 3).'));

  const mine = fake.requests.slice(from);
  const results = new Map<string, ToolResultSeen>();
  for (const r of mine) if (r.kind === 'turn') for (const t of r.toolResults) results.set(t.toolUseId, t);
  const disk = Object.fromEntries(
    [...Object.keys(FILES), 'new.txt'].map((f) => [f, fs.existsSync(p(f)) ? fs.readFileSync(p(f), 'utf8') : null]),
  );
  const out: SessionResult = {
    model,
    project,
    hooks: readLog(hookLog),
    control: readLog(controlLog),
    results,
    runs: session.runs,
    compactRequests,
    firstAfterCompact: mine.find((r) => r.kind === 'turn' && r.prompt?.includes('prompt 3')),
    prompt1: mine.filter((r) => r.kind === 'turn' && r.prompt?.includes('prompt 1')),
    inodes,
    disk,
  };
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(session.home, { recursive: true, force: true });
  return out;
}

// ------------------------------------------------------------------------------------------------

const eventName = (e: StreamEvent) => `${e.type}${e.subtype ? `/${e.subtype}` : ''}`;

function printSession(s: SessionResult, full: boolean): void {
  const tag = `[${s.model}]`;
  if (full) {
    heading(`${tag} hook payloads (recorder, in order; long strings cut)`);
    const common = s.hooks[0]?.payload;
    if (common) console.log(`every payload: session_id=${common.session_id} transcript_path=${common.transcript_path} cwd=${common.cwd}`);
    console.log(`hook environment (CLAUDE*): ${show(s.hooks[0]?.env ?? {})}`);
    console.log(`hook process cwd: ${s.hooks[0]?.cwd}`);
    for (const h of s.hooks) {
      const { session_id: _s, transcript_path: _t, cwd: _c, ...rest } = h.payload;
      console.log(`${h.payload.hook_event_name}${h.payload.tool_name ? ` ${h.payload.tool_name}` : ''}: ${show(rest)}`);
    }
  }
  heading(`${tag} per tool call: the hook events it fired, and what the model received`);
  const short = (t: string) => t.split(s.project + path.sep).join('');
  for (const [id, t] of s.results) {
    const events = s.hooks.filter((h) => h.payload.tool_use_id === id).map((h) => h.payload.hook_event_name);
    console.log(
      `${id.replace('toolu_probe_', '')} (${t.name}) hooks=${show(events)} is_error=${t.isError}: ${show(short(t.text), full ? 400 : 240)}`,
    );
  }
  heading(`${tag} facts`);
  const bashControl = s.control.filter((h) => h.payload.tool_name === 'Bash').length;
  const bashRecorder = s.hooks.filter((h) => h.payload.tool_name === 'Bash').length;
  console.log(`Bash: the matcher-* control hook ran ${bashControl}×, the Read|Edit|Write|MultiEdit recorder ${bashRecorder}×`);
  console.log(
    `inode kept by Edit: ${s.inodes.beforeEdit === s.inodes.afterEdit}; by a Write over a file (write_after_partial): ${s.inodes.beforeWrite === s.inodes.afterWrite}`,
  );
  const { 'big.txt': _big, ...small } = s.disk;
  console.log(`files on disk at the end: ${show(small, 400)}`);
  for (const id of ['read_crlf', 'read_big']) {
    const file = (
      s.hooks.find((h) => h.payload.tool_use_id === `toolu_probe_${id}` && h.payload.hook_event_name === 'PostToolUse')?.payload
        .tool_response as { file?: { content: string } } | undefined
    )?.file;
    const disk = id === 'read_crlf' ? FILES['crlf.txt'] : FILES['big.txt'];
    if (file)
      console.log(
        `${id}: PostToolUse tool_response.file = ${show({ ...file, content: `${file.content.length} chars` })}; the file on disk has ${disk.length} chars; same text: ${file.content === disk}${id === 'read_big' ? `; the model got ${s.results.get(`toolu_probe_${id}`)?.text.split('\n').length} lines` : ''}`,
      );
  }
  const denials = s.runs[0]?.result?.permission_denials;
  console.log(`prompt 1's result event, permission_denials: ${show(denials)}`);
  const compact = s.runs[2];
  if (compact) {
    console.log(`/compact: exit ${compact.code}, ${compact.ms} ms, stream events ${show(compact.events.map(eventName), 80)}`);
    console.log(
      `/compact: model requests ${show(s.compactRequests.map((r) => `${r.kind} ${r.method} ${r.url} stream=${r.stream} tools=${r.tools.length}`))}`,
    );
    console.log(`compact_boundary: ${show(compact.events.find((e) => e.subtype === 'compact_boundary')?.compact_metadata)}`);
    console.log(
      `/compact's result event: ${show({ subtype: compact.result?.subtype, is_error: compact.result?.is_error, result: compact.result?.result, num_turns: compact.result?.num_turns })}`,
    );
  }
  const first = s.firstAfterCompact;
  if (first)
    console.log(`prompt 3's first request: ${first.messages.length} messages; the first user message: ${show(firstUserText(first), 900)}`);
  const turns = s.prompt1;
  const gap = turns.length > 1 ? (turns.at(-1)!.at - turns[0].at) / (turns.length - 1) : 0;
  console.log(
    `prompt 1: ${s.runs[0]?.ms} ms for ${turns.length} model requests (${Math.round(gap)} ms from one request to the next, 2–3 hook processes per tool call included); prompt 2: ${s.runs[1]?.ms} ms; /compact: ${s.runs[2]?.ms} ms; prompt 3: ${s.runs[3]?.ms} ms`,
  );
  console.log(
    `tools offered: ${show(turns[0]?.tools.map((t) => t.name))}; models asked: ${show([...new Set([...turns, ...s.compactRequests].map((r) => r.model))])}`,
  );
}

function firstUserText(r: RecordedRequest): string {
  const m = r.messages.find((x) => x.role === 'user');
  if (!m) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((b) => (typeof b.text === 'string' ? b.text : `[${b.type}]`)).join('\n');
}

const summaryOf = (r: RecordedRequest) => ({
  n: r.n,
  kind: r.kind,
  method: r.method,
  url: r.url,
  model: r.model,
  stream: r.stream,
  step: r.step,
  tools: r.tools.length,
  messages: r.messages.length,
  answer: r.answer,
});
const runSummary = (r: ClaudeRun) => ({
  code: r.code,
  ms: r.ms,
  sessionId: r.sessionId,
  args: r.args,
  events: r.events.map(eventName),
  result: r.result,
  stderr: r.stderr,
});

/** 10 Read calls in one run, without a hook and with a PreToolUse hook `node -e ''`, `timingRuns` times each. */
async function measureHookCost(fake: FakeAnthropic): Promise<unknown> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-claude-timing-'));
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(project, `f${i}.txt`), `file ${i}\n`);
  const settingsFile = path.join(work, 'with-hook.json');
  fs.writeFileSync(
    settingsFile,
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Read|Edit|Write|MultiEdit', hooks: [{ type: 'command', command: `"${process.execPath}" -e ""` }] }],
      },
    }),
  );
  const emptySettings = path.join(work, 'no-hook.json');
  fs.writeFileSync(emptySettings, '{}');
  const reads: Step[] = [
    ...Array.from({ length: 10 }, (_, i) => ({ tool: 'Read', input: { file_path: path.join(project, `f${i}.txt`) } })),
    { text: 'done' },
  ];
  const times = { without: [] as number[], with: [] as number[], textOnly: [] as number[] };
  for (let i = 0; i < timingRuns; i++) {
    for (const kind of ['without', 'with', 'textOnly'] as const) {
      fake.script(kind === 'textOnly' ? [{ text: 'done' }] : reads);
      const run = await runClaude({
        cwd: project,
        prompt: `timing ${kind} ${i}`,
        baseUrl: fake.url,
        settingsFile: kind === 'with' ? settingsFile : emptySettings,
      });
      if (run.code !== 0) console.log(`timing ${kind}: ${describeRun(run)}`);
      times[kind].push(run.ms);
      fs.rmSync(run.home, { recursive: true, force: true });
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const without = median(times.without);
  const withHook = median(times.with);
  const perCall = (withHook - without) / 10;
  heading(`cost of a hook (10 Read calls in one headless run, median of ${timingRuns})`);
  console.log(`without a hook: ${show(times.without)} ms → median ${without} ms`);
  console.log(`with PreToolUse \`node -e ""\`: ${show(times.with)} ms → median ${withHook} ms`);
  console.log(`ratio ${(withHook / without).toFixed(2)}; ≈ ${Math.round(perCall)} ms per tool call`);
  const t0 = Date.now();
  for (let i = 0; i < 10; i++) execFileSync(process.execPath, ['-e', '']);
  const alone = Math.round((Date.now() - t0) / 10);
  console.log(
    `(for scale: \`node -e ""\` alone, spawned 10× from this Node: ${alone} ms each; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs)`,
  );
  console.log(`a headless run answered with one text, start to exit: ${show(times.textOnly)} ms → median ${median(times.textOnly)} ms`);
  return {
    times,
    without,
    with: withHook,
    ratio: withHook / without,
    perCallMs: perCall,
    nodeAloneMs: alone,
    textOnly: median(times.textOnly),
  };
}

async function main(): Promise<void> {
  const fake = await startFakeAnthropic();
  const version = execFileSync(claudeBinary(), ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `Claude Code ${version} (${claudeBinary()}); fake model at ${fake.url}; models ${models.join(', ')}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const sessions: SessionResult[] = [];
  for (const model of models) {
    const s = await probeSession(fake, model);
    printSession(s, sessions.length === 0);
    sessions.push(s);
  }
  const timingFacts = timing ? await measureHookCost(fake) : undefined;
  heading('every endpoint the CLI called');
  for (const e of new Set(fake.requests.map((r) => `${r.method} ${r.url} (${r.kind}${r.stream ? ', streaming' : ''})`))) console.log(e);
  if (jsonOut) {
    const facts = {
      version,
      sessions: sessions.map((s) => ({
        model: s.model,
        hooks: s.hooks.map((h) => h.payload),
        hookEnv: s.hooks[0]?.env,
        control: s.control.map((h) => h.payload),
        results: [...s.results.values()],
        inodes: s.inodes,
        disk: s.disk,
        runs: s.runs.map(runSummary),
      })),
      timing: timingFacts,
      requests: fake.requests.map(summaryOf),
    };
    fs.writeFileSync(jsonOut, `${JSON.stringify(facts, null, 1)}\n`);
  }
  await fake.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
