// Claude Code's file tools through the same gate (docs/design.md rule 13, §Surfaces), in the real host:
// the real Claude Code CLI (the dev dependency, test/claudeCode/claudeCli.ts) runs headless in the workspace
// folder against a scripted fake Messages API served here (test/claudeCode/fakeAnthropic.ts), with this
// window's environment as a terminal of this window gets it, and finds the hook entries the extension
// merged into .claude/settings.local.json (editGuard.guardClaudeCode: workspace). Nothing is faked but
// the model: the hooks, the bridge, the gate and the editor's documents are the real ones.
import { linkWindowsRecords } from '../shared/testAgent';
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { claudeSession, describeRun, makeClaudeHome, runClaude, type ClaudeRun } from '../claudeCode/claudeCli';
import { type FakeAnthropic, type RecordedRequest, startFakeAnthropic } from '../claudeCode/fakeAnthropic';
import {
  activateExtension,
  api,
  cleanUp,
  guardDiagnostics,
  makeFile,
  openInEditor,
  userEdit,
  waitFor,
  windowEnvironment,
  workspaceRoot,
} from './helpers';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
const settingsFile = () => path.join(workspaceRoot(), '.claude', 'settings.local.json');
/** A Claude Code home as from an external terminal: its own config, and the windows' entries linked in. */
const homeWithTheWindowsRecords = () => linkWindowsRecords(makeClaudeHome());

/** What the model received for its tool calls in this run (the tool results of the last request). */
function results(fake: FakeAnthropic): Array<{ text: string; isError: boolean }> {
  const last: RecordedRequest | undefined = fake.turns().at(-1);
  return (last?.toolResults ?? []).map((r) => ({ text: r.text, isError: r.isError === true }));
}

suite('Claude Code: its Read, Edit and Write through the gate, deciding on what the editor holds', function () {
  let fake: FakeAnthropic;
  const claude = (prompt: string): Promise<ClaudeRun> =>
    runClaude({ cwd: workspaceRoot(), prompt, baseUrl: fake.url, env: windowEnvironment() });

  suiteSetup(async function () {
    await activateExtension();
    fake = await startFakeAnthropic();
    await config().update('guardClaudeCode', 'workspace', vscode.ConfigurationTarget.Workspace);
    await waitFor(() => fs.existsSync(settingsFile()) && process.env.AGENT_EDIT_GUARD_SOCKET, 'the hook entries and the bridge', 10000, 50);
  });

  suiteTeardown(async () => {
    await config().update('guardClaudeCode', undefined, vscode.ConfigurationTarget.Workspace);
    await fake?.close();
  });

  teardown(async () => {
    fake.clear();
    await cleanUp();
  });

  test('Read, then Edit: passes, and the file on disk holds the edit', async () => {
    const f = makeFile('claude/read-edit', 'alpha\nbeta\n');
    fake.script([
      { tool: 'Read', input: { file_path: f.abs } },
      { tool: 'Edit', input: { file_path: f.abs, old_string: 'beta', new_string: 'BETA' } },
      { text: 'Done.' },
    ]);
    const run = await claude('Upper-case beta.');
    assert.strictEqual(run.code, 0, describeRun(run));
    assert.deepStrictEqual(
      results(fake).map((r) => r.isError),
      [false, false],
      JSON.stringify(results(fake)),
    );
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA\n');
    // the edit is in the record of agent edits, under Claude Code's chat, like Copilot's
    const edit = await waitFor(
      () =>
        api()
          .editRecord()
          .find((e) => e.uri === f.uri.toString()),
      'the edit in the record',
      5000,
    );
    assert.strictEqual(edit.tool, 'Edit');
    assert.ok(edit.saved && !edit.created, JSON.stringify(edit));
  });

  test("a terminal of this window carries the bridge's address and secret (a CLI started there reaches this window's gate)", async () => {
    const out = path.join(workspaceRoot(), 'gen', `terminal-env-${Date.now()}.txt`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const terminal = vscode.window.createTerminal({ name: 'claude-env', cwd: workspaceRoot() });
    try {
      terminal.sendText(`printf '%s %s' "$AGENT_EDIT_GUARD_SOCKET" "\${#AGENT_EDIT_GUARD_SECRET}" > '${out}'`);
      const text = await waitFor(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8'), 'the terminal to run the command', 20000, 100);
      assert.strictEqual(text, `${process.env.AGENT_EDIT_GUARD_SOCKET} ${process.env.AGENT_EDIT_GUARD_SECRET!.length}`);
    } finally {
      terminal.dispose();
    }
  });

  test("started outside this window's terminals (no address in its environment, as from an external terminal), Claude Code is gated the same: a Write over a file it never read is denied with its content", async () => {
    const f = makeFile('claude/outside', "the user's notes\n");
    fake.script([{ tool: 'Write', input: { file_path: f.abs, content: 'overwritten\n' } }, { text: 'Refused.' }]);
    const run = await runClaude({ cwd: workspaceRoot(), prompt: 'Overwrite it.', baseUrl: fake.url, home: homeWithTheWindowsRecords() });
    const [denied] = results(fake);
    assert.ok(denied?.isError, describeRun(run));
    assert.match(denied.text, /BLOCKED: nothing was written\./);
    assert.match(denied.text, /1\tthe user's notes/);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\n", 'the file is untouched');
  });

  test('with no window on its folder, Claude Code started outside is let through at once', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'claude-no-window-'));
    try {
      const file = path.join(elsewhere, 'notes.txt');
      fs.writeFileSync(file, 'never read\n');
      fake.script([{ tool: 'Write', input: { file_path: file, content: 'overwritten\n' } }, { text: 'Done.' }]);
      const run = await runClaude({ cwd: elsewhere, prompt: 'Overwrite it.', baseUrl: fake.url, home: homeWithTheWindowsRecords() });
      assert.deepStrictEqual(
        results(fake).map((r) => r.isError),
        [false],
        describeRun(run),
      );
      assert.strictEqual(
        fs.readFileSync(file, 'utf8'),
        'overwritten\n',
        'no window answers for that folder: the write went through unchecked',
      );
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test("an Edit after the file changed on disk since the Read is denied with the change; the file keeps the other program's text", async () => {
    const f = makeFile('claude/stale', 'one\ntwo\nthree\n');
    const other = 'one\ntwo, changed by another program\nthree\n';
    fake.script([
      { tool: 'Read', input: { file_path: f.abs } },
      () => {
        fs.writeFileSync(f.abs, other);
        return { tool: 'Edit', input: { file_path: f.abs, old_string: 'three', new_string: 'THREE' } };
      },
      { text: 'Refused.' },
    ]);
    const run = await claude('Upper-case three.');
    const [, denied] = results(fake);
    assert.ok(denied?.isError, describeRun(run));
    assert.match(denied.text, /^PreToolUse:Edit hook error: .*BLOCKED: nothing was written\./s);
    assert.match(denied.text, /changed since you last read it/);
    assert.match(denied.text, /^\+two, changed by another program$/m);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), other);
  });

  test("an Edit of a file with unsaved changes in the editor is denied with the user's change; the buffer and the disk are untouched", async () => {
    const f = makeFile('claude/unsaved', 'let greeting = "Hello";\nlet name = "world";\n');
    const doc = (await openInEditor(f)).document;
    await userEdit(doc, '"Hello"', '"Good morning"');
    fake.script([
      { tool: 'Read', input: { file_path: f.abs } },
      { tool: 'Edit', input: { file_path: f.abs, old_string: '"world"', new_string: '"Claude"' } },
      { text: 'Refused.' },
    ]);
    const run = await claude('Greet Claude.');
    const [, denied] = results(fake);
    assert.ok(denied?.isError, describeRun(run));
    assert.match(denied.text, /The user has unsaved changes to \S*claude\/unsaved\S* in the editor/);
    assert.match(denied.text, /^-let greeting = "Hello";$/m);
    assert.match(denied.text, /^\+let greeting = "Good morning";$/m);
    assert.strictEqual(doc.getText(), 'let greeting = "Good morning";\nlet name = "world";\n', "the buffer keeps the user's text");
    assert.ok(doc.isDirty, 'still unsaved');
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'let greeting = "Hello";\nlet name = "world";\n', 'nothing written on disk');
    const [diagnostic] = await waitFor(
      () => guardDiagnostics(f.uri).length > 0 && guardDiagnostics(f.uri),
      'the blocked write on the file',
      5000,
    );
    assert.match(diagnostic.message, /^Claude Code edit was blocked \(Claude Code: “Greet Claude\.”/, diagnostic.message);
    assert.strictEqual(diagnostic.range.start.line, 0, 'over the line the user changed');
  });

  test('a Write over a file never read is denied with its content, and the retry from it passes', async () => {
    const f = makeFile('claude/never-read', "the user's notes\n");
    fake.script([
      { tool: 'Write', input: { file_path: f.abs, content: 'a fresh start\n' } },
      (req) => {
        const [denied] = req.toolResults;
        assert.ok(
          denied?.isError &&
            /You have not read \S*claude\/never-read\S* in this chat/.test(denied.text) &&
            denied.text.includes("1\tthe user's notes"),
          denied?.text,
        );
        return { tool: 'Write', input: { file_path: f.abs, content: "the user's notes\na fresh start\n" } };
      },
      { text: 'Kept the notes.' },
    ]);
    const run = await claude('Add a line to the notes.');
    assert.deepStrictEqual(
      results(fake).map((r) => r.isError),
      [true, false],
      describeRun(run),
    );
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\na fresh start\n");
  });

  test('after /compact, an Edit of a file read before it is refused as not read', async () => {
    const f = makeFile('claude/compact', 'keep\nme\n');
    const session = claudeSession({ cwd: workspaceRoot(), baseUrl: fake.url, env: windowEnvironment() });
    fake.script([{ tool: 'Read', input: { file_path: f.abs } }, { text: 'Read it.' }]);
    const first = await session.prompt('Read the file.');
    assert.strictEqual(first.code, 0, describeRun(first));
    const compacted = await session.compact();
    assert.strictEqual(compacted.code, 0, describeRun(compacted));
    fake.script([{ tool: 'Edit', input: { file_path: f.abs, old_string: 'keep', new_string: 'kept' } }, { text: 'Refused.' }]);
    const next = await session.prompt('Now edit it.');
    const [denied] = results(fake);
    assert.ok(denied?.isError, describeRun(next));
    assert.match(denied.text, /You have not read \S*claude\/compact\S* in this chat/);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'keep\nme\n');
  });

  test('a Grep call starts no hook, a Bash call does: the entries match the file tools and the shell (rule 16)', async () => {
    const f = makeFile('claude/bash', 'x\n');
    fake.script([
      { tool: 'Grep', input: { pattern: 'x', path: f.abs } },
      { tool: 'Bash', input: { command: 'true', description: 'nothing' } },
      { tool: 'Read', input: { file_path: f.abs } },
      { text: 'Done.' },
    ]);
    const run = await runClaude({
      cwd: workspaceRoot(),
      prompt: 'Grep, run true, then read.',
      baseUrl: fake.url,
      env: windowEnvironment(),
      extraArgs: ['--include-hook-events'],
    });
    assert.strictEqual(run.code, 0, describeRun(run));
    const hookRuns = run.events
      .filter((e) => e.type === 'system' && e.subtype === 'hook_started')
      .map((e) => `${String(e.hook_event ?? e.hook_name ?? '')}`);
    // three calls, two of them matched: Bash's and Read's PreToolUse ran our hook, Grep's did not
    assert.strictEqual(
      hookRuns.filter((h) => /PreToolUse/.test(h)).length,
      2,
      `our PreToolUse hook ran for Bash and Read: ${hookRuns.join(', ')}`,
    );
  });
});
