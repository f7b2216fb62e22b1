// The soak (docs/reliability.md, *Under load*): every kind of writer at once on ten files of one folder for a while,
// in the real host — this window's guarded tools (or, in `baseline` mode, plain VS Code edits and saves in their
// place), the Copilot CLI and Claude Code through their real hooks, the user typing into two open files and saving
// them, and another program appending lines with O_APPEND to three files no editor shows. Every writer adds lines
// of its own and notes each one it was told had landed. Afterwards each such line must stand in its file exactly
// once, and no line anyone was told had not landed may stand there. It reports calls per second, the guarded
// calls' latency, refusals by reason, and the extension host's heap and RSS over the run; a lost line comes with the
// steps of every write of that file around it (EditorDocuments.trace), which name the path it was lost on.
import { linkWindowsRecords } from '../shared/testAgent';
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn } from 'child_process';
import { makeClaudeHome, runClaude } from '../claudeCode/claudeCli';
import { startFakeAnthropic, type RecordedRequest, type StepAnswer } from '../claudeCode/fakeAnthropic';
import { makeCopilotHome, runCopilotCli } from '../copilotCli/copilotCli';
import { startFakeChatCompletions, type ChatAnswer, type ChatRequest } from '../copilotCli/fakeChatCompletions';
import {
  activateExtension,
  cleanUp,
  guardClaudeCodeAndCopilotCli,
  overwriteFromCompare,
  fileRef,
  makeWatchedFolder,
  readFile,
  replaceString,
  type TestFile,
  waitFor,
  windowEnvironment,
  workspaceRoot,
} from '../integration/helpers';
import { TEST_COMMANDS } from '../../src/commands';
import { SOAK } from './settings';

const FILES = 10;
/** the user's two open files, and the three the other program appends to (no editor shows them) */
const USER_FILES = [0, 1];
const APPENDED_FILES = [7, 8, 9];
/**
 * The agents edit the files the user does not type in and no other program appends to: an agent's edit reads the
 * file and writes it back itself, so a line appended between those two steps of its own tool is lost whatever the
 * gate does (docs/reliability.md, *Under load*). The guarded tools write every file.
 */
const AGENT_FILES = [2, 3, 4, 5, 6];
/** attempts per line after refusals, and edits per CLI run */
const ATTEMPTS = 5;
const EDITS_PER_RUN = 12;
/** how often the heap is sampled */
const SAMPLE_MS = 5000;

type Writer = 'tools' | 'copilot-cli' | 'claude-code' | 'user' | 'program';

/** A line a writer was told had landed (`maybe`: the answer said it may or may not be in the file). */
interface Claim {
  writer: Writer;
  file: number;
  line: string;
  at: number;
  maybe?: boolean;
}

interface Report {
  mode: string;
  seconds: number;
  calls: Record<Writer, number>;
  callsPerSecond: number;
  /** the guarded tools' (or the baseline's edits') calls, ms */
  latency: { p50: number; p95: number; p99: number; max: number };
  refusals: Record<string, number>;
  memory: Array<{ at: number; heapUsedMB: number; rssMB: number }>;
  lines: Record<Writer, number>;
  lost: string[];
  doubled: string[];
  unclaimed: string[];
  /** what else went wrong: a user's save over a write made under their unsaved changes, a buffer left apart from the disk */
  problems: string[];
  userSaveConflicts: number;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The workbench shows one editor at a time: the user's and the baseline's actions on editors take turns. */
let editorTurn: Promise<unknown> = Promise.resolve();
function onEditors<T>(action: () => Promise<T>): Promise<T> {
  const turn = editorTurn.then(action, action);
  editorTurn = turn.catch(() => undefined);
  return turn;
}

/** A clean document that did not save: show it, revert it to the disk, close the tab again (what a user would do). */
async function revertToDisk(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}

suite(`Soak: every writer at once for ${SOAK.seconds} s (${SOAK.mode})`, function () {
  suiteSetup(async () => {
    await activateExtension();
    await guardClaudeCodeAndCopilotCli(true);
  });
  suiteTeardown(async () => {
    await guardClaudeCodeAndCopilotCli(false);
    await cleanUp();
  });

  for (let run = 1; run <= SOAK.runs; run++) {
    test(`run ${run}: nothing any writer was told had landed is missing or doubled, nothing refused stands`, async () => {
      const report = await soak(run);
      console.log(`SOAK ${JSON.stringify(report)}`);
      if (SOAK.report) fs.appendFileSync(SOAK.report, `${JSON.stringify(report)}\n`);
      assert.deepStrictEqual(
        { lost: report.lost, doubled: report.doubled, unclaimed: report.unclaimed, problems: report.problems },
        { lost: [], doubled: [], unclaimed: [], problems: [] },
        'every line a writer was told had landed is in its file once, and no other line is; no buffer is apart from the disk',
      );
    });
  }
});

async function soak(run: number): Promise<Report> {
  const folder = path.join(workspaceRoot(), 'gen', 'soak', `${SOAK.mode}-${run}-${Date.now()}`);
  await makeWatchedFolder(folder);
  const files: TestFile[] = Array.from({ length: FILES }, (_, i) =>
    fileRef(path.relative(workspaceRoot(), path.join(folder, `f${i}.txt`))),
  );
  for (const f of files) fs.writeFileSync(f.abs, 'START\nEND\n');
  // one after the other: the workbench opens one editor at a time
  const userDocs: vscode.TextDocument[] = [];
  for (const i of USER_FILES) {
    const doc = await vscode.workspace.openTextDocument(files[i].uri);
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    userDocs.push(doc);
  }

  const claims: Claim[] = [];
  const calls: Record<Writer, number> = { tools: 0, 'copilot-cli': 0, 'claude-code': 0, user: 0, program: 0 };
  const refusals: Record<string, number> = {};
  const refused = (writer: Writer, reason: string) => (refusals[`${writer}: ${reason}`] = (refusals[`${writer}: ${reason}`] ?? 0) + 1);
  const latency: number[] = [];
  const memory: Report['memory'] = [];
  /** when each guarded call on a file began and ended (to set beside a lost line) */
  const toolCalls: Array<{ file: number; from: number; to: number; what: string }> = [];
  let userSaveConflicts = 0;
  const problems: string[] = [];

  await vscode.commands.executeCommand(TEST_COMMANDS.writeTrace, 'start');
  const started = Date.now();
  const deadline = started + SOAK.seconds * 1000;
  const going = () => Date.now() < deadline;
  const sample = () => {
    const m = process.memoryUsage();
    memory.push({ at: Math.round((Date.now() - started) / 1000), heapUsedMB: mb(m.heapUsed), rssMB: mb(m.rss) });
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);

  // ---- this window's guarded tools: two callers at once, reads and replaces over every file
  const toolsCaller = async (id: number) => {
    let n = 0;
    while (going()) {
      const i = Math.floor(Math.random() * FILES);
      const f = files[i];
      if (Math.random() < 0.3) {
        calls.tools++;
        const from = Date.now();
        await readFile(f.rel);
        latency.push(Date.now() - from);
        continue;
      }
      const line = `G${id}-${++n}`;
      for (let attempt = 0; attempt < ATTEMPTS && going(); attempt++) {
        calls.tools++;
        const from = Date.now();
        const out = await replaceString(f.rel, 'END', `${line}\nEND`);
        const to = Date.now();
        latency.push(to - from);
        toolCalls.push({ file: i, from, to, what: `${line}: ${out.json.status} ${out.json.reason ?? out.json.code ?? ''}` });
        if (out.json.status === 'ok') {
          claims.push({ writer: 'tools', file: i, line, at: to });
          break;
        }
        refused('tools', out.json.status === 'blocked' ? String(out.json.reason) : `error ${out.json.code}`);
        // every writer here writes LF lines: a refusal that shows no change refused a text that was current (false)
        if (/Only line endings or invisible characters changed/.test(out.text))
          problems.push(`${line}: refused as changed, though the text it checked was current: ${out.text.split('\n')[0]}`);
        // no harness chat runs here: a write named the harness's was the Copilot CLI's, misnamed
        if (/Copilot harness/.test(out.text))
          problems.push(`${line}: a refusal names the Copilot harness, which never ran: ${out.text.split('\n')[0]}`);
        if (out.json.status === 'error') {
          // "not on disk, kept in the editor with the user's change": it may stand once the user saves
          claims.push({ writer: 'tools', file: i, line, at: to, maybe: true });
          break;
        }
      }
    }
  };
  // ---- the baseline: plain VS Code edits and saves in their place (a clean document that did not save is reverted)
  const baselineCaller = async (id: number) => {
    let n = 0;
    while (going()) {
      const i = Math.floor(Math.random() * FILES);
      const line = `G${id}-${++n}`;
      calls.tools++;
      const from = Date.now();
      const doc = await vscode.workspace.openTextDocument(files[i].uri);
      // a buffer with the user's unsaved typing is theirs: a plain edit and save would save their work behind their back
      if (doc.isDirty) continue;
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, doc.positionAt(doc.getText().lastIndexOf('END')), `${line}\n`);
      if (!(await vscode.workspace.applyEdit(edit))) {
        refused('tools', 'edit refused');
        continue;
      }
      const saved = await doc.save();
      latency.push(Date.now() - from);
      if (saved) claims.push({ writer: 'tools', file: i, line, at: Date.now() });
      else {
        refused('tools', 'save refused (the disk is newer)');
        await onEditors(() => revertToDisk(doc));
        claims.push({ writer: 'tools', file: i, line, at: Date.now(), maybe: true });
      }
    }
  };

  // ---- two agents through their real hooks: view (or Read), then the edit of END into `<line>\nEND`; read again after a refusal
  const agent = (writer: 'copilot-cli' | 'claude-code') => {
    let n = 0;
    return () => {
      let edits = 0;
      let current: { file: number; line: string; attempts: number } | undefined;
      const next = (): { file: number; read: boolean } => {
        current = { file: pick(AGENT_FILES), line: `${writer === 'copilot-cli' ? 'C' : 'K'}-${++n}`, attempts: 0 };
        return { file: current.file, read: true };
      };
      /** the model's answer to what its last call showed: `edited` true, false (refused or failed), or not an edit */
      return (lastWasEdit: boolean, edited: boolean, result: string): { read: number } | { edit: number; line: string } | 'done' => {
        if (lastWasEdit && current) {
          calls[writer]++;
          if (edited) {
            claims.push({ writer, file: current.file, line: current.line, at: Date.now() });
            edits++;
            current = undefined;
          } else {
            refused(
              writer,
              /nothing was (written|applied)/.test(result)
                ? /write-in-flight|right now/.test(result)
                  ? 'write-in-flight'
                  : /unsaved/.test(result)
                    ? 'unsaved-in-editor'
                    : 'changed or not read'
                : 'its own tool failed',
            );
            if (++current.attempts >= ATTEMPTS) current = undefined;
            else return { read: current.file };
          }
        }
        if (!going() || edits >= EDITS_PER_RUN) return 'done';
        if (!current) return { read: next().file };
        return { edit: current.file, line: current.line };
      };
    };
  };

  // one home each for all their runs: the Copilot CLI unpacks itself into its home (~240 MB a home)
  const copilotHome = makeCopilotHome(path.join(os.homedir(), '.copilot', 'hooks'));
  const claudeHome = linkWindowsRecords(makeClaudeHome());
  // the Copilot CLI against a scripted Chat Completions model, one run after another
  const copilotModel = agent('copilot-cli');
  let copilotStep: (request: ChatRequest) => ChatAnswer = () => ({ text: 'Done.' });
  const copilotFake = await startFakeChatCompletions((request) => copilotStep(request));
  const copilotRuns = async () => {
    while (going()) {
      const decide = copilotModel();
      copilotStep = (request) => {
        const last = request.calls.at(-1);
        const d = decide(
          last?.tool === 'edit',
          last?.tool === 'edit' && /updated with changes/.test(last.result ?? ''),
          last?.result ?? '',
        );
        if (d === 'done') return { text: 'Done.' };
        if ('read' in d) return { tool: 'view', args: { path: files[d.read].abs } };
        return { tool: 'edit', args: { path: files[d.edit].abs, old_str: 'END', new_str: `${d.line}\nEND` } };
      };
      await runCopilotCli({
        cwd: workspaceRoot(),
        prompt: 'Add your lines.',
        baseUrl: copilotFake.url,
        home: copilotHome,
        env: windowEnvironment(),
        timeoutMs: SOAK.seconds * 1000 + 120_000,
      });
      // the fake's record of requests lives in this extension host: it is not what the heap figures are about
      copilotFake.requests.length = 0;
    }
  };

  // Claude Code, started as from a terminal of its own (no address: the window from its record)
  const claudeModel = agent('claude-code');
  const anthropic = await startFakeAnthropic();
  const claudeRuns = async () => {
    while (going()) {
      const decide = claudeModel();
      const step = (request: RecordedRequest): StepAnswer => {
        const last = request.toolResults.at(-1);
        const d = decide(last?.name === 'Edit', last?.name === 'Edit' && !last.isError, last?.text ?? '');
        if (d === 'done') return { text: 'Done.' };
        if ('read' in d) return { tool: 'Read', input: { file_path: files[d.read].abs } };
        return { tool: 'Edit', input: { file_path: files[d.edit].abs, old_string: 'END', new_string: `${d.line}\nEND` } };
      };
      anthropic.script(Array.from({ length: 400 }, () => step));
      await runClaude({
        cwd: workspaceRoot(),
        prompt: 'Add your lines.',
        baseUrl: anthropic.url,
        home: claudeHome,
        timeoutMs: SOAK.seconds * 1000 + 120_000,
      });
      anthropic.clear();
    }
  };

  // ---- the user: types a line before END in one of their two open files now and then, and saves about every half second
  const user = async () => {
    let n = 0;
    let lastSave = Date.now();
    while (going()) {
      await new Promise((r) => setTimeout(r, 150 + Math.random() * 150));
      const k = Math.floor(Math.random() * userDocs.length);
      const doc = userDocs[k];
      const line = `U-${++n}`;
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, doc.positionAt(doc.getText().lastIndexOf('END')), `${line}\n`);
      calls.user++;
      if (await vscode.workspace.applyEdit(edit)) {
        claims.push({ writer: 'user', file: USER_FILES[k], line, at: Date.now() });
        toolCalls.push({ file: USER_FILES[k], from: Date.now(), to: Date.now(), what: `the user typed ${line}` });
      }
      if (Date.now() - lastSave >= 500) {
        lastSave = Date.now();
        for (const d of userDocs) await userSave(d);
      }
    }
  };
  /** The user saves; when VS Code says the file is newer, Compare — and their version may go over it only if it holds all the disk does. */
  const userSave = async (doc: vscode.TextDocument) => {
    if (!doc.isDirty) return;
    const file = files.findIndex((f) => f.uri.toString() === doc.uri.toString());
    const from = Date.now();
    const saved = await doc.save();
    toolCalls.push({ file, from, to: Date.now(), what: saved ? 'the user saved' : 'the user saved: refused, the file is newer' });
    if (saved) return;
    userSaveConflicts++;
    const disk = fs.readFileSync(doc.uri.fsPath, 'utf8').split('\n');
    const buffer = new Set(doc.getText().split('\n'));
    const missing = disk.filter((l) => !buffer.has(l));
    if (missing.length > 0) {
      problems.push(
        `the user's save of ${path.basename(doc.uri.fsPath)} was refused, and the disk holds lines their buffer lacks: ${missing.join(', ')}`,
      );
      return;
    }
    await onEditors(() => overwriteFromCompare(doc));
  };

  // ---- another program appending to three files no editor shows
  const appender = spawn(process.execPath, [path.join(__dirname, 'appender.js'), ...APPENDED_FILES.map((i) => files[i].abs)], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let pending = '';
  appender.stdout.on('data', (d: Buffer) => {
    pending += d.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const { file, line, at } = JSON.parse(pending.slice(0, nl)) as { file: string; line: string; at: number };
      pending = pending.slice(nl + 1);
      calls.program++;
      claims.push({ writer: 'program', file: files.findIndex((f) => f.abs === file), line, at });
    }
  });
  const appenderDone = new Promise<void>((resolve) => appender.on('exit', () => resolve()));

  try {
    const tools = SOAK.mode === 'guarded' ? [toolsCaller(1), toolsCaller(2)] : [baselineCaller(1), baselineCaller(2)];
    await Promise.all([...tools, copilotRuns(), claudeRuns(), user()]);
  } finally {
    appender.stdin.end();
    await appenderDone;
    clearInterval(sampler);
    await copilotFake.close();
    await anthropic.close();
    for (const home of [copilotHome, claudeHome]) fs.rmSync(home, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  sample();

  // the user's editors stayed open all along (a file in no editor is written straight to the disk)
  for (const d of userDocs)
    if (
      !vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === d.uri.toString()),
      )
    )
      problems.push(`the user's editor of ${path.basename(d.uri.fsPath)} was closed during the run`);
  // the user saves what is left; the editor's clean documents catch up with the disk
  for (const d of userDocs) await userSave(d);
  for (const f of files) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.uri.toString());
    if (doc)
      await waitFor(
        () => !doc.isDirty && doc.getText() === fs.readFileSync(f.abs, 'utf8'),
        `the editor's ${path.basename(f.abs)} to hold what the disk holds`,
        10_000,
      ).catch(() => problems.push(`the editor's ${path.basename(f.abs)} is apart from the disk (${doc.isDirty ? 'unsaved' : 'clean'})`));
  }
  const trace =
    (await vscode.commands.executeCommand<Array<{ at: number; uri: string; step: string }>>(TEST_COMMANDS.writeTrace, 'take')) ?? [];

  // every claimed line once; nothing else but START and END
  const lost: string[] = [];
  const doubled: string[] = [];
  const unclaimed: string[] = [];
  const lines: Record<Writer, number> = { tools: 0, 'copilot-cli': 0, 'claude-code': 0, user: 0, program: 0 };
  files.forEach((f, i) => {
    const text = fs.readFileSync(f.abs, 'utf8').split('\n');
    const mine = claims.filter((c) => c.file === i);
    for (const c of mine) {
      const count = text.filter((l) => l === c.line).length;
      if (c.maybe ? count > 1 : count !== 1) {
        const where = `${c.line} (${c.writer}) in f${i}.txt: ${count} times`;
        (count === 0 ? lost : doubled).push(where);
        console.log(`SOAK ${count === 0 ? 'lost' : 'doubled'} ${where}\n${around(c, f, trace, toolCalls)}`);
      }
      if (count > 0 && !c.maybe) lines[c.writer]++;
    }
    const known = new Set(mine.map((c) => c.line));
    for (const l of text)
      if (l !== '' && l !== 'START' && l !== 'END' && !known.has(l)) {
        unclaimed.push(`${l} in f${i}.txt`);
        // a guarded line every attempt of which was answered as not written: where did it come from?
        const attempts = toolCalls.filter((c) => c.file === i && c.what.startsWith(`${l}:`));
        if (attempts.length > 0 && !unclaimed.slice(0, -1).includes(`${l} in f${i}.txt`))
          console.log(
            `SOAK standing though refused: ${l} in f${i}.txt\n${around({ writer: 'tools', file: i, line: l, at: attempts[0].from }, f, trace, toolCalls)}`,
          );
      }
  });
  const sorted = [...latency].sort((a, b) => a - b);
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  return {
    mode: SOAK.mode,
    seconds: Math.round(seconds),
    calls,
    callsPerSecond: Math.round((total / seconds) * 10) / 10,
    latency: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 },
    refusals,
    memory,
    lines,
    lost,
    doubled,
    unclaimed,
    problems,
    userSaveConflicts,
  };
}

/** What happened to a file around a lost line: the writes' steps and the guarded calls, in time order. */
function around(
  claim: Claim,
  f: TestFile,
  trace: Array<{ at: number; uri: string; step: string }>,
  toolCalls: Array<{ file: number; from: number; to: number; what: string }>,
): string {
  const near = (at: number) => Math.abs(at - claim.at) <= 3000;
  const rows = [
    ...trace.filter((t) => t.uri === f.uri.toString() && near(t.at)).map((t) => ({ at: t.at, what: `  step: ${t.step}` })),
    ...toolCalls
      .filter((c) => c.file === claim.file && (near(c.from) || near(c.to)))
      .map((c) => ({ at: c.from, what: `  call ${c.what} (until +${c.to - c.from} ms)` })),
    { at: claim.at, what: `  ${claim.writer} told ${claim.line} landed` },
  ].sort((a, b) => a.at - b.at);
  return rows.map((r) => `${r.at - claim.at >= 0 ? '+' : ''}${r.at - claim.at} ms${r.what}`).join('\n');
}
