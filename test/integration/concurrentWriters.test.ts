// Three agents of different makers writing one file at once (docs/design.md rule 14), in the real host:
// Claude Code started as from a terminal of its own (its Write of the whole text it last read, a Read after
// any refusal), the GitHub Copilot CLI from a terminal of this window (its edit of END into `<line>\nEND`, a
// view after a refusal) and this window's guarded tools (a replace of the same kind, retried at once: a
// refusal counts as a read). Each adds its lines; the file is closed, open and clean, or open while the user
// types. The writers are interleaved on purpose, at the worst moment: in each slot one writer (the leader)
// is let go first, and the others only once the gate has let the leader's write through and before it
// lands (for a CLI, when the bridge notes its chat has a call in flight; for the guarded tools, as the
// call starts). Afterwards every write reported done is in the file exactly once, nothing else is, and no
// buffer is left apart from the disk. Nothing is faked but the two models.
import { linkWindowsRecords } from '../shared/testAgent';
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeClaudeHome, runClaude, describeRun, type ClaudeRun } from '../claudeCode/claudeCli';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest, type StepAnswer } from '../claudeCode/fakeAnthropic';
import { describeCopilotRun, makeCopilotHome, runCopilotCli, type CopilotCliRun } from '../copilotCli/copilotCli';
import { startFakeChatCompletions, type ChatAnswer, type ChatRequest, type FakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import {
  activateExtension,
  api,
  cleanUp,
  guardClaudeCodeAndCopilotCli,
  overwriteFromCompare,
  makeFile,
  makeWatchedFolder,
  replaceString,
  type TestFile,
  waitFor,
  windowEnvironment,
  workspaceRoot,
} from './helpers';

/** Lines each writer adds; attempts per line before it gives up (a line it gave up on must not be in the file). */
const LINES = 4;
const MAX_ATTEMPTS = 20;
/** Rounds per way the file is held: enough, on this machine, to meet the race in every one before rule 14. */
const ROUNDS = 4;

type WriterName = 'claude' | 'copilot' | 'tools';
const WRITERS: readonly WriterName[] = ['claude', 'copilot', 'tools'];
type Holding = 'closed' | 'open and clean' | 'open, the user typing';

/** What one writer did in a round. */
interface Tally {
  /** the lines whose write was reported done */
  done: string[];
  /** the refusals and failures it met, one line each */
  refused: string[];
}

/**
 * The slots of a round: a writer that is about to write waits in `ready` until its slot. A slot starts
 * once every writer still writing is ready; its leader (in turn) goes first, the others once the leader's
 * write is in flight; the slot ends when every writer let go has learned its attempt's outcome.
 */
class Slots {
  private readonly waiting = new Map<WriterName, () => void>();
  private readonly writing = new Set<WriterName>(WRITERS);
  private readonly pending = new Set<WriterName>();
  private inFlight: (() => void) | undefined;
  /** the slot in which each writer last landed a write: the one that waited longest leads the next slot */
  private readonly landed = new Map<WriterName, number>();
  slots = 0;

  /** The writer is about to write: resolves when its slot lets it go. */
  ready(writer: WriterName): Promise<void> {
    return new Promise((resolve) => this.waiting.set(writer, resolve));
  }

  /** The writer learned its attempt's outcome (`landed`: its write is done). */
  concluded(writer: WriterName, landed = false): void {
    if (landed) this.landed.set(writer, this.slots);
    this.pending.delete(writer);
    if (this.pending.size === 0 || this.leader === writer) this.inFlight?.();
  }

  /** The writer has no more lines to write. */
  finished(writer: WriterName): void {
    this.writing.delete(writer);
    this.concluded(writer);
  }

  /** The leader's write was let through and has not landed yet (or its outcome is known): let the others go. */
  leaderInFlight(): void {
    this.inFlight?.();
  }

  private leader: WriterName | undefined;

  /** Runs the slots until no writer is left; `beforeSlot` plays the user between slots. */
  async run(beforeSlot: (slot: number) => Promise<void>, afterSlot: (slot: number) => Promise<void>): Promise<void> {
    while (this.writing.size > 0) {
      await waitFor(
        () => [...this.writing].every((w) => this.waiting.has(w)) || this.writing.size === 0,
        `every writer still writing to be ready (writing: ${[...this.writing].join(', ')}; ready: ${[...this.waiting.keys()].join(', ')})`,
        60_000,
      );
      if (this.writing.size === 0) break;
      await beforeSlot(this.slots);
      const ready = WRITERS.filter((w) => this.waiting.has(w));
      // fair turns: the writer whose last landed write is oldest goes first
      const leader = ready.reduce((a, b) => ((this.landed.get(b) ?? -1) < (this.landed.get(a) ?? -1) ? b : a));
      this.leader = leader;
      const inFlight = new Promise<void>((resolve) => (this.inFlight = resolve));
      for (const w of ready) this.pending.add(w);
      this.release(leader);
      await inFlight;
      for (const w of ready) if (w !== leader) this.release(w);
      await waitFor(() => this.pending.size === 0, `the slot's writers to learn their outcomes (${[...this.pending].join(', ')})`, 60_000);
      this.inFlight = undefined;
      this.leader = undefined;
      await afterSlot(this.slots++);
    }
  }

  private release(writer: WriterName): void {
    const go = this.waiting.get(writer);
    this.waiting.delete(writer);
    go?.();
  }
}

/** The text with `line` put in before its END line. */
function beforeEnd(text: string, line: string): string {
  const at = text.lastIndexOf('END');
  assert.ok(at >= 0, `the copy holds END: ${JSON.stringify(text)}`);
  return `${text.slice(0, at)}${line}\n${text.slice(at)}`;
}

/** The file's text from what Claude Code's Read showed (numbered lines, `<n>→<text>` or `<n>\t<text>`). */
function textOfClaudeRead(shown: string): string | undefined {
  const lines: string[] = [];
  for (const line of shown.split('\n')) {
    const m = /^\s*(\d+)(?:→|\t)(.*)$/.exec(line);
    if (m) lines.push(m[2]);
    else if (lines.length > 0) break;
  }
  // it numbers the empty line after the last line break too
  while (lines.at(-1) === '') lines.pop();
  return lines.length > 0 ? `${lines.join('\n')}\n` : undefined;
}

/** Calls the watcher when a chat's call is noted in flight in the bridge's folder (protocol.ts, PENDING_PREFIX). */
function watchInFlight(onMarker: () => void): fs.FSWatcher {
  const folder = process.env.AGENT_EDIT_GUARD_STATE;
  assert.ok(folder && fs.existsSync(folder), "the bridge's folder is in this window's environment");
  return fs.watch(folder, (_event, name) => {
    if (name?.startsWith('pending-') && fs.existsSync(path.join(folder, name))) onMarker();
  });
}

/** One writer's line: `<writer>-<round>-<n>`. */
const lineOf = (writer: WriterName, round: string, n: number) => `${writer}-${round}-${n}`;

suite('Writers at once: Claude Code, the Copilot CLI and the guarded tools on one file (rule 14)', function () {
  let anthropic: FakeAnthropic | undefined;
  let chat: FakeChatCompletions | undefined;
  /** the current round's model answers: each fake asks the round it serves */
  let claudeStep: (request: RecordedRequest) => Promise<StepAnswer>;
  let copilotStep: (request: ChatRequest) => Promise<ChatAnswer>;

  suiteSetup(async function () {
    await activateExtension();
    // a folder made with its parents at once is not watched, and VS Code would never load the agents' disk writes
    await makeWatchedFolder(path.join(workspaceRoot(), 'gen', 'race'));
    anthropic = await startFakeAnthropic();
    anthropic.script(Array.from({ length: 200 }, () => (request: RecordedRequest) => claudeStep(request)));
    chat = await startFakeChatCompletions((request) => copilotStep(request));
    await guardClaudeCodeAndCopilotCli(true);
  });

  suiteTeardown(async () => {
    await guardClaudeCodeAndCopilotCli(false);
    await anthropic?.close();
    await chat?.close();
  });

  teardown(cleanUp);

  async function round(holding: Holding, n: number): Promise<void> {
    const round = `${holding === 'closed' ? 'c' : holding === 'open and clean' ? 'o' : 'u'}${n}`;
    const f: TestFile = makeFile(`race/${round}`, 'START\nEND\n');
    const document = holding === 'closed' ? undefined : await vscode.workspace.openTextDocument(f.uri);
    if (document) await vscode.window.showTextDocument(document, { preview: false });
    const slots = new Slots();
    const tallies = Object.fromEntries(WRITERS.map((w) => [w, { done: [], refused: [] }])) as unknown as Record<WriterName, Tally>;
    const userLines: string[] = [];

    // Claude Code: Read, then Write of the whole text it holds with its line before END; a Read after any failure
    let claudeCopy: string | undefined;
    let claudeLine = 1;
    let claudeAttempts = 0;
    claudeStep = async (request) => {
      const last = request.toolResults.at(-1);
      if (last?.name === 'Write') {
        slots.concluded('claude', !last.isError);
        if (!last.isError) {
          console.log(`  ${Date.now()} claude wrote ${lineOf('claude', round, claudeLine)}`);
          tallies.claude.done.push(lineOf('claude', round, claudeLine++));
          claudeCopy = String(last.input?.content);
          claudeAttempts = 0;
        } else tallies.claude.refused.push(last.text.split('\n')[0].slice(0, 160));
      }
      if (last?.name === 'Read') claudeCopy = last.isError ? undefined : textOfClaudeRead(last.text);
      if (claudeLine > LINES || claudeAttempts >= MAX_ATTEMPTS) {
        slots.finished('claude');
        return { text: 'Done.' };
      }
      if (claudeCopy === undefined || last?.isError) return { tool: 'Read', input: { file_path: f.abs } };
      claudeAttempts++;
      await slots.ready('claude');
      return { tool: 'Write', input: { file_path: f.abs, content: beforeEnd(claudeCopy, lineOf('claude', round, claudeLine)) } };
    };

    // the Copilot CLI: view, then edit END into `<line>\nEND`; a view after any failure
    let copilotLine = 1;
    let copilotAttempts = 0;
    copilotStep = async (request) => {
      const last = request.calls.at(-1);
      const edited = last?.tool === 'edit' && /updated with changes/.test(last.result ?? '');
      if (last?.tool === 'edit') {
        slots.concluded('copilot', edited);
        if (edited) {
          console.log(`  ${Date.now()} copilot wrote ${lineOf('copilot', round, copilotLine)}`);
          tallies.copilot.done.push(lineOf('copilot', round, copilotLine++));
          copilotAttempts = 0;
        } else tallies.copilot.refused.push((last.result ?? '').split('\n')[0].slice(0, 160));
      }
      if (copilotLine > LINES || copilotAttempts >= MAX_ATTEMPTS) {
        slots.finished('copilot');
        return { text: 'Done.' };
      }
      if (last === undefined || (last.tool === 'edit' && !edited)) return { tool: 'view', args: { path: f.abs } };
      copilotAttempts++;
      await slots.ready('copilot');
      return { tool: 'edit', args: { path: f.abs, old_str: 'END', new_str: `${lineOf('copilot', round, copilotLine)}\nEND` } };
    };

    // the guarded tools: replace END, retried at once after a refusal (it counts as a read)
    const tools = async () => {
      for (let line = 1; line <= LINES; line++) {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          await slots.ready('tools');
          const call = replaceString(f.rel, 'END', `${lineOf('tools', round, line)}\nEND`);
          slots.leaderInFlight();
          const out = await call;
          slots.concluded('tools', out.json.status === 'ok');
          if (out.json.status === 'ok') {
            console.log(`  ${Date.now()} tools wrote ${lineOf('tools', round, line)} (${out.json.saved ? 'saved' : 'unsaved'})`);
            tallies.tools.done.push(lineOf('tools', round, line));
            break;
          }
          tallies.tools.refused.push(out.text.split('\n')[0].slice(0, 160));
          if (attempt === MAX_ATTEMPTS - 1) {
            slots.finished('tools');
            return;
          }
        }
      }
      slots.finished('tools');
    };

    // the user, when typing: a line of their own before END in the buffer at every third slot, saved when the slot is over
    let typed = false;
    const user = {
      before: async (slot: number) => {
        if (holding !== 'open, the user typing' || slot % 3 !== 1 || !document) return;
        // the user types into what they see: once the editor shows what the last write left on disk
        await waitFor(
          () => !document.isDirty && document.getText() === fs.readFileSync(f.abs, 'utf8'),
          'the editor to show what the disk holds before the user types',
          10_000,
        );
        const line = `user-${round}-${userLines.length + 1}`;
        const at = document.getText().lastIndexOf('END');
        const edit = new vscode.WorkspaceEdit();
        edit.insert(document.uri, document.positionAt(at), `${line}\n`);
        console.log(`  ${Date.now()} the user types ${line}`);
        if (await vscode.workspace.applyEdit(edit)) {
          userLines.push(line);
          typed = true;
        }
      },
      after: async () => {
        if (!typed || !document) return;
        typed = false;
        const dirtyBefore = document.isDirty;
        if (await document.save()) return;
        // VS Code refused the save as "the content of the file is newer". It stats a file before it reads it,
        // so a load that met an agent's write half done holds the new text with the older stat, and the user
        // typing before its next look keeps it so. The user does what VS Code offers: Compare, and when the
        // file differs from their buffer only by their own line, Overwrite. Anything else on disk is a write
        // made under their unsaved changes, which rule 13 forbids: the test fails.
        const state = () =>
          `(the buffer was ${dirtyBefore ? 'unsaved' : 'clean'}, is ${document.isDirty ? 'unsaved' : 'clean'}):\n${document.getText()}\non disk:\n${fs.readFileSync(f.abs, 'utf8')}\nslots so far: ${JSON.stringify(tallies)}`;
        const own = `${userLines.at(-1)}\n`;
        assert.strictEqual(
          fs.readFileSync(f.abs, 'utf8'),
          document.getText().replace(own, ''),
          `the save was refused, and the file differs from the buffer by more than the user's line ${state()}`,
        );
        console.log(`  ${Date.now()} the user's save met VS Code's older stat of the file: Compare shows only their line, they Overwrite`);
        await overwriteFromCompare(document);
        assert.ok(
          !document.isDirty && document.getText() === fs.readFileSync(f.abs, 'utf8'),
          `the user's Overwrite saved their buffer ${state()}`,
        );
      },
    };

    const watcher = watchInFlight(() => slots.leaderInFlight());
    let claudeRun: ClaudeRun | undefined;
    let copilotRun: CopilotCliRun | undefined;
    try {
      const agents = Promise.all([
        runClaude({
          cwd: workspaceRoot(),
          prompt: `Add your lines to ${f.rel}.`,
          baseUrl: anthropic!.url,
          home: linkWindowsRecords(makeClaudeHome()),
          timeoutMs: 300_000,
        }).then((r) => (claudeRun = r)),
        runCopilotCli({
          cwd: workspaceRoot(),
          prompt: `Add your lines to ${f.rel}.`,
          baseUrl: chat!.url,
          home: makeCopilotHome(path.join(os.homedir(), '.copilot', 'hooks')),
          env: windowEnvironment(),
          timeoutMs: 300_000,
        }).then((r) => (copilotRun = r)),
        tools(),
      ]);
      // a writer that fails ends the round at once, not at the slots' wait for it
      await Promise.race([slots.run(user.before, user.after), agents.then(() => new Promise<never>(() => undefined))]);
      await agents;
    } finally {
      watcher.close();
    }
    const account = `${holding}, round ${n}, ${slots.slots} slots: ${WRITERS.map((w) => `${w} ${tallies[w].done.length} done, ${tallies[w].refused.length} refused`).join('; ')}`;
    console.log(`  ${account}`);
    assert.strictEqual(claudeRun?.code, 0, describeRun(claudeRun!));
    assert.strictEqual(copilotRun?.code, 0, describeCopilotRun(copilotRun!));

    // no buffer left apart from the disk (a clean document loads the disk's last change a moment late)
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.uri.toString());
    const apart = () => open && (open.isDirty || open.getText() !== fs.readFileSync(f.abs, 'utf8'));
    if (open) await waitFor(() => !apart(), "the editor's buffer to hold what the disk holds", 5000).catch(() => undefined);
    const disk = fs.readFileSync(f.abs, 'utf8');
    // every write reported done is in the file exactly once, and nothing else is
    const lines = disk.split('\n').slice(0, -1);
    const expected = new Set([...WRITERS.flatMap((w) => tallies[w].done), ...userLines]);
    const problems: string[] = [];
    if (apart()) problems.push(`the editor's buffer is apart from the disk (${open!.isDirty ? 'unsaved' : 'clean'}):\n${open!.getText()}`);
    for (const line of expected) {
      const count = lines.filter((l) => l === line).length;
      if (count !== 1) problems.push(`${line} is in the file ${count} times`);
    }
    for (const line of lines)
      if (line !== 'START' && line !== 'END' && !expected.has(line)) problems.push(`${line} is in the file, never reported done`);
    if (lines[0] !== 'START' || lines.at(-1) !== 'END') problems.push('START and END are not the ends');
    // each agent's edits are recorded as its own: the Copilot CLI's never as the Copilot harness's (rule 14, its name)
    const recorded = api()
      .editRecord()
      .filter((e) => vscode.Uri.parse(e.uri).toString() === f.uri.toString())
      .map((e) => e.agent ?? 'the guarded tools');
    for (const [agent, writer] of [
      ['claude-code', 'claude'],
      ['copilot-cli', 'copilot'],
    ] as const)
      if (!recorded.includes(agent))
        problems.push(`no edit recorded as ${agent}'s (the ${writer} wrote ${tallies[writer].done.length} lines): ${recorded.join(', ')}`);
    if (recorded.includes('copilot-harness'))
      problems.push(`an edit recorded as the Copilot harness's, though none ran: ${recorded.join(', ')}`);
    assert.deepStrictEqual(
      problems,
      [],
      `${account}\nthe file on disk:\n${disk}\nrefusals: ${JSON.stringify(Object.fromEntries(WRITERS.map((w) => [w, tallies[w].refused])), null, 1)}`,
    );
    // each writer got its lines in (a refusal is followed by a corrected retry, not a dead end)
    for (const w of WRITERS) assert.strictEqual(tallies[w].done.length, LINES, `${w} wrote all its lines (${account})`);
  }

  for (const holding of ['closed', 'open and clean', 'open, the user typing'] as const) {
    for (let n = 1; n <= ROUNDS; n++) {
      test(`the file ${holding}, round ${n}: every write reported done is in the file once, nothing else is, and no buffer is apart from the disk`, async function () {
        await round(holding, n);
      });
    }
  }
});
