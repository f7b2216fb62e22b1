// Gemini CLI's file tools through the same gate (docs/design.md rule 13, §Surfaces), in the real host:
// the real Gemini CLI (the dev dependency, test/geminiCli/geminiCli.ts) runs headless in the workspace
// folder against a scripted fake Gemini API served here (test/geminiCli/fakeGemini.ts), with this window's
// environment as a terminal of this window gets it, and finds the hook entries the extension merged into
// the folder's .gemini/settings.json (editGuard.guardGeminiCli: workspace), or into the user's
// ~/.gemini/settings.json (user). Nothing is faked but the models: the hooks, the bridge, the gate and the
// editor's documents are the real ones.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeRun, runClaude } from '../claude/claudeCli';
import { type FakeAnthropic, startFakeAnthropic } from '../claude/fakeAnthropic';
import type { CliRun } from '../shared/cliProcess';
import { type FakeGemini, type GeminiAnswer, type GeminiRequest, startFakeGemini } from '../geminiCli/fakeGemini';
import { describeGeminiRun, makeGeminiHome, offlineSettings, runGeminiCli } from '../geminiCli/geminiCli';
import {
  activateExtension,
  api,
  cleanUp,
  guardDiagnostics,
  linkWindowsRecords,
  makeFile,
  openInEditor,
  userEdit,
  waitFor,
  windowEnvironment,
  workspaceRoot,
} from './helpers';
import { agentWithSetting, offerShown, turnOnInOffer } from './agentChoice';
import { driverAvailable } from './ui';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
const projectSettings = () => path.join(workspaceRoot(), '.gemini', 'settings.json');
/** What our entries' commands run: the extension's hook clients. */
const OUR_CLIENT = /hook-client\.sh|hook-bridge\.js/;

/** One step of a scripted run: an answer, or a function of the request (it may wait, or check what came back). */
type Step = GeminiAnswer | ((request: GeminiRequest) => GeminiAnswer | Promise<GeminiAnswer>);

suite('Gemini CLI: its read_file, replace and write_file through the gate, deciding on what the editor holds', function () {
  let fake: FakeGemini;
  let steps: Step[] = [];
  /** the calls of the last request: what the model was told of each of its calls */
  let seen: GeminiRequest['calls'] = [];
  const gemini = (prompt: string, home = makeGeminiHome()): Promise<CliRun> =>
    runGeminiCli({ cwd: workspaceRoot(), prompt, baseUrl: fake.url, home, env: windowEnvironment() });

  suiteSetup(async function () {
    await activateExtension();
    // a conversation's step is the number of calls it has made so far
    fake = await startFakeGemini(async (request) => {
      seen = request.calls;
      const step = steps[request.calls.length] ?? { text: 'Done.' };
      return typeof step === 'function' ? step(request) : step;
    });
    await config().update('guardGeminiCli', 'workspace', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => fs.existsSync(projectSettings()) && process.env.AGENT_EDIT_GUARD_SOCKET,
      'the hook entries and the bridge',
      10000,
      50,
    );
  });

  suiteTeardown(async () => {
    await config().update('guardGeminiCli', undefined, vscode.ConfigurationTarget.Workspace);
    await fake?.close();
  });

  teardown(async () => {
    steps = [];
    seen = [];
    await cleanUp();
  });

  test('read_file, then replace: passes, and the file on disk holds the edit, recorded as Gemini CLI’s', async () => {
    const f = makeFile('gemini/read-edit', 'alpha\nbeta\n');
    steps = [
      { tool: 'read_file', args: { file_path: f.abs } },
      { tool: 'replace', args: { file_path: f.abs, old_string: 'beta', new_string: 'BETA', instruction: 'upper-case beta' } },
    ];
    const run = await gemini('Upper-case beta.');
    assert.strictEqual(run.code, 0, describeGeminiRun(run));
    assert.deepStrictEqual(
      seen.map((c) => c.isError),
      [false, false],
      JSON.stringify(seen),
    );
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA\n');
    const edit = await waitFor(
      () =>
        api()
          .agentEdits()
          .find((e) => e.uri === f.uri.toString()),
      'the edit in the record',
      5000,
    );
    assert.strictEqual(edit.tool, 'replace');
    assert.ok(edit.saved && !edit.created, JSON.stringify(edit));
  });

  test('a write_file over a file never read is denied with its content, and the retry from it passes', async () => {
    const f = makeFile('gemini/never-read', "the user's notes\n");
    steps = [
      { tool: 'write_file', args: { file_path: f.abs, content: 'a fresh start\n' } },
      (request) => {
        const [denied] = request.calls;
        assert.ok(denied?.isError, JSON.stringify(denied));
        assert.match(denied.result ?? '', /^Tool execution blocked: .*BLOCKED: nothing was written\./s);
        assert.match(denied.result ?? '', /You have not read \S*gemini\/never-read\S* in this chat/);
        assert.ok(denied.result?.includes("1\tthe user's notes"), denied.result);
        return { tool: 'write_file', args: { file_path: f.abs, content: "the user's notes\na fresh start\n" } };
      },
    ];
    const run = await gemini('Add a line to the notes.');
    assert.deepStrictEqual(
      seen.map((c) => c.isError),
      [true, false],
      describeGeminiRun(run),
    );
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\na fresh start\n");
  });

  test("a replace of a file with unsaved changes in the editor is denied with the user's change; the buffer and the disk are untouched", async () => {
    const f = makeFile('gemini/unsaved', 'let greeting = "Hello";\nlet name = "world";\n');
    const doc = (await openInEditor(f)).document;
    await userEdit(doc, '"Hello"', '"Good morning"');
    steps = [
      { tool: 'read_file', args: { file_path: f.abs } },
      { tool: 'replace', args: { file_path: f.abs, old_string: '"world"', new_string: '"Gemini"', instruction: 'greet Gemini' } },
    ];
    const run = await gemini('Greet Gemini.');
    const [, denied] = seen;
    assert.ok(denied?.isError, describeGeminiRun(run));
    assert.match(denied.result ?? '', /The user has unsaved changes to \S*gemini\/unsaved\S* in the editor/);
    assert.match(denied.result ?? '', /^-let greeting = "Hello";$/m);
    assert.match(denied.result ?? '', /^\+let greeting = "Good morning";$/m);
    assert.strictEqual(doc.getText(), 'let greeting = "Good morning";\nlet name = "world";\n', "the buffer keeps the user's text");
    assert.ok(doc.isDirty, 'still unsaved');
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'let greeting = "Hello";\nlet name = "world";\n', 'nothing written on disk');
    const [diagnostic] = await waitFor(
      () => guardDiagnostics(f.uri).length > 0 && guardDiagnostics(f.uri),
      'the blocked write on the file',
      5000,
    );
    assert.match(diagnostic.message, /^Gemini CLI replace was blocked \(Gemini CLI: “Greet Gemini\.”/, diagnostic.message);
  });

  test('a replace whose old_string the file does not hold as written is denied (rule 12), before Gemini CLI could correct it with its model', async () => {
    const f = makeFile('gemini/quote', 'one\ntwo\n');
    steps = [
      { tool: 'read_file', args: { file_path: f.abs } },
      { tool: 'replace', args: { file_path: f.abs, old_string: 'three', new_string: 'THREE', instruction: 'upper-case three' } },
    ];
    const run = await gemini('Upper-case three.');
    const [, denied] = seen;
    assert.ok(denied?.isError, describeGeminiRun(run));
    assert.match(denied.result ?? '', /^Tool execution blocked: .*An oldString of your replace is not in \S*gemini\/quote\S* as written/s);
    assert.match(denied.result ?? '', /^2\ttwo$/m, 'with the current text');
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'one\ntwo\n');
  });

  test('another agent writing the file between its read and its replace: denied, naming Claude Code; Claude Code’s text stays', async function () {
    const f = makeFile('gemini/other-agent', 'one\ntwo\n');
    const claudeFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    await config().update('guardClaudeCode', 'workspace', vscode.ConfigurationTarget.Workspace);
    let anthropic: FakeAnthropic | undefined;
    try {
      await waitFor(() => fs.existsSync(claudeFile), "Claude Code's hook entries", 10000, 50);
      anthropic = await startFakeAnthropic();
      anthropic.script([
        { tool: 'Read', input: { file_path: f.abs } },
        { tool: 'Write', input: { file_path: f.abs, content: 'one\ntwo\nthree, by Claude Code\n' } },
        { text: 'Done.' },
      ]);
      const claudeUrl = anthropic.url;
      steps = [
        { tool: 'read_file', args: { file_path: f.abs } },
        async () => {
          // Gemini CLI has read the file; Claude Code now reads and rewrites it, before Gemini CLI's replace
          const claude = await runClaude({ cwd: workspaceRoot(), prompt: 'Add a line.', baseUrl: claudeUrl, env: windowEnvironment() });
          assert.strictEqual(claude.code, 0, describeRun(claude));
          return { tool: 'replace', args: { file_path: f.abs, old_string: 'two', new_string: 'TWO', instruction: 'upper-case two' } };
        },
      ];
      const run = await gemini('Upper-case two.');
      const [, denied] = seen;
      assert.ok(denied?.isError, describeGeminiRun(run));
      assert.match(denied.result ?? '', /changed since you last read it \(written by Claude Code\)/);
      assert.match(denied.result ?? '', /^\+three, by Claude Code$/m);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'one\ntwo\nthree, by Claude Code\n');
    } finally {
      await config().update('guardClaudeCode', undefined, vscode.ConfigurationTarget.Workspace);
      await anthropic?.close();
    }
  });

  test('with no window on its folder, Gemini CLI started outside is let through at once', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-no-window-'));
    try {
      const file = path.join(elsewhere, 'notes.txt');
      fs.writeFileSync(file, 'never read\n');
      // our entries at user level of its own home, and the windows' records: as a terminal outside any window
      const home = linkWindowsRecords(makeGeminiHome({ hooks: JSON.parse(fs.readFileSync(projectSettings(), 'utf8')).hooks }));
      steps = [{ tool: 'write_file', args: { file_path: file, content: 'overwritten\n' } }];
      const run = await runGeminiCli({ cwd: elsewhere, prompt: 'Overwrite it.', baseUrl: fake.url, home });
      assert.deepStrictEqual(
        seen.map((c) => c.isError),
        [false],
        describeGeminiRun(run),
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
});

suite("Gemini CLI at user level: our entries in ~/.gemini/settings.json, around the user's settings", function () {
  let fake: FakeGemini;
  /** the file the scripted model overwrites, unread */
  let target = '';
  const userFile = () => path.join(os.homedir(), '.gemini', 'settings.json');

  suiteSetup(async function () {
    await activateExtension();
    fake = await startFakeGemini((request) =>
      request.calls.length === 0 ? { tool: 'write_file', args: { file_path: target, content: 'x\n' } } : { text: 'Done.' },
    );
  });

  suiteTeardown(async () => {
    await fake?.close();
  });

  teardown(cleanUp);

  test("turned on, the user's settings stay as they were around our entries, which survive Gemini CLI rewriting the file at its start and gate its calls; turned off, only ours leave", async () => {
    const f = makeFile('gemini/user-level', "the user's notes\n");
    target = f.abs;
    // the user's own settings, as they wrote them (with a key Gemini CLI moves when it starts)
    const own = { ...offlineSettings(), general: { disableAutoUpdate: true }, ui: { theme: 'GitHub' } };
    const ownText = `${JSON.stringify(own, null, 2)}\n`;
    fs.mkdirSync(path.dirname(userFile()), { recursive: true });
    fs.writeFileSync(userFile(), ownText);
    try {
      await config().update('guardGeminiCli', 'user', vscode.ConfigurationTarget.Global);
      const merged = await waitFor(
        () => fs.existsSync(userFile()) && OUR_CLIENT.test(fs.readFileSync(userFile(), 'utf8')) && fs.readFileSync(userFile(), 'utf8'),
        'our entries in ~/.gemini/settings.json',
        10000,
        50,
      );
      const parsed = JSON.parse(merged);
      assert.deepStrictEqual({ ...parsed, hooks: undefined }, { ...own, hooks: undefined }, "the user's keys are as they were");
      assert.deepStrictEqual(Object.keys(parsed.hooks).sort(), ['AfterTool', 'BeforeAgent', 'BeforeTool']);

      const run = await runGeminiCli({
        cwd: workspaceRoot(),
        prompt: 'Overwrite the notes.',
        baseUrl: fake.url,
        home: os.homedir(),
        env: windowEnvironment(),
      });
      const denied = fake.requests.at(-1)?.calls[0];
      assert.ok(denied?.isError, describeGeminiRun(run));
      assert.match(denied.result ?? '', /You have not read \S*gemini\/user-level\S* in this chat/);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\n");
      const rewritten = fs.readFileSync(userFile(), 'utf8');
      assert.ok(OUR_CLIENT.test(rewritten), `Gemini CLI's rewrite at its start kept our entries:\n${rewritten}`);

      await config().update('guardGeminiCli', undefined, vscode.ConfigurationTarget.Global);
      const after = await waitFor(
        () => !OUR_CLIENT.test(fs.readFileSync(userFile(), 'utf8')) && fs.readFileSync(userFile(), 'utf8'),
        'our entries out of ~/.gemini/settings.json',
        10000,
        50,
      );
      const left = JSON.parse(after);
      assert.strictEqual(left.ui?.theme, 'GitHub', "the user's settings stay");
      assert.strictEqual(left.hooks, undefined, 'no hooks were left: the key goes with ours');
    } finally {
      await config().update('guardGeminiCli', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(path.dirname(userFile()), { recursive: true, force: true });
    }
  });
  test('the one-time offer, where Gemini CLI has been used (~/.gemini): nothing is written before the click; Turn on chooses the user level', async function () {
    if (!driverAvailable()) this.skip();
    const agent = agentWithSetting('guardGeminiCli');
    fs.mkdirSync(path.dirname(userFile()), { recursive: true });
    try {
      const text = await offerShown(agent);
      assert.match(text, /entries to .*\.gemini\/settings\.json, next to your own/, text);
      assert.ok(!fs.existsSync(userFile()), 'nothing is written before the click');
      await turnOnInOffer(agent);
      await waitFor(
        () => fs.existsSync(userFile()) && OUR_CLIENT.test(fs.readFileSync(userFile(), 'utf8')),
        'our entries in the user settings',
        10000,
        50,
      );
      assert.strictEqual(config().inspect('guardGeminiCli')?.globalValue, 'user');
      await config().update('guardGeminiCli', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(() => !fs.existsSync(userFile()), 'the file that held only ours to go', 10000, 50);
      assert.ok(fs.existsSync(path.dirname(userFile())), '~/.gemini was there before us: it stays');
    } finally {
      await config().update('guardGeminiCli', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(path.dirname(userFile()), { recursive: true, force: true });
    }
  });
});
