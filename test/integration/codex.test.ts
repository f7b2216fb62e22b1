// Codex's file changes through the same gate (docs/design.md rule 13, §Surfaces), in the real host: the
// real Codex CLI (the dev dependency, test/codex/codexCli.ts) runs headless in the workspace folder against
// a scripted fake Responses API served here (test/codex/fakeResponses.ts), with this window's environment
// as a terminal of this window gets it, and finds the hook entries the extension merged into Codex's user
// hooks (editGuard.guardCodex: user) — ~/.codex/hooks.json under the run folder, which is the host's HOME —
// trusted by the lines the extension wrote into ~/.codex/config.toml, next to the provider settings this
// suite wrote there as a user would. Nothing is faked but the model: Codex's hooks and their trust, the
// bridge, the gate and the editor's documents are the real ones.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codexConfig, type CodexRun, describeRun, fileChanges, runCodex } from '../codex/codexCli';
import { type FakeResponses, startFakeResponses } from '../codex/fakeResponses';
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
/** Codex's home as the extension host sees it: no CODEX_HOME here, so ~/.codex of the run folder */
const codexHome = () => path.join(os.homedir(), '.codex');
const hooksFile = () => path.join(codexHome(), 'hooks.json');
const configFile = () => path.join(codexHome(), 'config.toml');
/** Codex's deny, as the model reads it (test/codex/FACTS.md): Codex's words, then the gate's refusal */
const BLOCKED =
  /^Command blocked by PreToolUse hook: (Agent Edit Guard stopped this apply_patch call: nothing was applied\.[^\n]*\n\n)?BLOCKED: nothing was written\./;

suite('Codex: its apply_patch and shell reads through the gate, deciding on what the editor holds', function () {
  let fake: FakeResponses;
  const codex = (prompt: string, env: Record<string, string> = windowEnvironment()): Promise<CodexRun> =>
    runCodex({ cwd: workspaceRoot(), prompt, home: codexHome(), osHome: os.homedir(), env });

  suiteSetup(async function () {
    await activateExtension();
    fake = await startFakeResponses();
    // the user's own Codex settings: a provider (here the fake) — the extension adds its trust lines next to them
    fs.mkdirSync(codexHome(), { recursive: true });
    fs.writeFileSync(configFile(), codexConfig({ baseUrl: fake.baseUrl }));
    await config().update('guardCodex', 'user', vscode.ConfigurationTarget.Global);
    await waitFor(
      () =>
        fs.existsSync(hooksFile()) &&
        fs.readFileSync(configFile(), 'utf8').includes('# Agent Edit Guard') &&
        process.env.AGENT_EDIT_GUARD_SOCKET,
      'the hook entries, their trust and the bridge',
      10000,
      50,
    );
  });

  suiteTeardown(async () => {
    await config().update('guardCodex', undefined, vscode.ConfigurationTarget.Global);
    await waitFor(() => !fs.existsSync(hooksFile()), 'our entries to be gone', 10000, 50);
    fs.rmSync(codexHome(), { recursive: true, force: true });
    await fake?.close();
  });

  teardown(async () => {
    fake.clear();
    await cleanUp();
  });

  test('a read through the shell, then a patch: passes, the file on disk holds it, and the record names it as Codex’s patch', async () => {
    const f = makeFile('codex/read-patch', 'alpha\nbeta\n');
    fake.script([
      { shell: `cat ${f.rel}`, id: 'call_read' },
      { patch: `*** Begin Patch\n*** Update File: ${f.rel}\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n`, id: 'call_patch' },
      { text: 'Done.' },
    ]);
    const run = await codex('Upper-case beta.');
    assert.strictEqual(run.code, 0, describeRun(run));
    assert.strictEqual(fake.outputOf('call_read')?.includes('alpha\nbeta\n'), true, fake.outputOf('call_read'));
    assert.doesNotMatch(fake.outputOf('call_patch') ?? '', /blocked/, fake.outputOf('call_patch'));
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA\n');
    const edit = await waitFor(
      () =>
        api()
          .editRecord()
          .find((e) => e.uri === f.uri.toString()),
      'the patch in the record',
      5000,
    );
    assert.deepStrictEqual([edit.tool, edit.agent], ['apply_patch', 'codex']);
  });

  test("a stale patch after the user's unsaved change is denied with that change; the buffer and the disk are untouched", async () => {
    const f = makeFile('codex/unsaved', 'let greeting = "Hello";\nlet name = "world";\n');
    const doc = (await openInEditor(f)).document;
    fake.script([
      { shell: `nl -ba ${f.rel} | sed -n '1,40p'` },
      async () => {
        // the user types while Codex works, and does not save
        await userEdit(doc, '"Hello"', '"Good morning"');
        return {
          patch: `*** Begin Patch\n*** Update File: ${f.rel}\n@@\n-let name = "world";\n+let name = "Codex";\n*** End Patch\n`,
          id: 'call_stale',
        };
      },
      { text: 'Refused.' },
    ]);
    const run = await codex('Greet Codex.');
    const denied = fake.outputOf('call_stale') ?? '';
    assert.match(denied, BLOCKED, describeRun(run));
    assert.match(denied, /The user has unsaved changes to \S*codex\/unsaved\S* in the editor/);
    assert.match(denied, /Codex writes the file on disk/);
    assert.match(denied, /^\+let greeting = "Good morning";$/m);
    assert.strictEqual(doc.getText(), 'let greeting = "Good morning";\nlet name = "world";\n', "the buffer keeps the user's text");
    assert.ok(doc.isDirty, 'still unsaved');
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'let greeting = "Hello";\nlet name = "world";\n', 'nothing written on disk');
    assert.deepStrictEqual(fileChanges(run), [], 'Codex applied no change');
    const [diagnostic] = await waitFor(
      () => guardDiagnostics(f.uri).length > 0 && guardDiagnostics(f.uri),
      'the blocked patch on the file',
      5000,
    );
    assert.match(diagnostic.message, /^Codex patch was blocked \(Codex: “Greet Codex\.”/, diagnostic.message);
  });

  test('an Update of a file never read is denied with its content, and the retry from it lands', async () => {
    const f = makeFile('codex/never-read', "the user's notes\n");
    const patch = `*** Begin Patch\n*** Update File: ${f.rel}\n@@\n the user's notes\n+a fresh line\n*** End Patch\n`;
    fake.script([
      { patch, id: 'call_blind' },
      (req) => {
        const denied = req.outputs.find((o) => o.callId === 'call_blind')?.output ?? '';
        assert.ok(
          BLOCKED.test(denied) &&
            /You have not read \S*codex\/never-read\S* in this chat/.test(denied) &&
            denied.includes("1\tthe user's notes"),
          denied,
        );
        return { patch, id: 'call_retry' };
      },
      { text: 'Kept the notes.' },
    ]);
    const run = await codex('Add a line to the notes.');
    assert.match(fake.outputOf('call_blind') ?? '', BLOCKED, describeRun(run));
    assert.doesNotMatch(fake.outputOf('call_retry') ?? '', /blocked/, fake.outputOf('call_retry'));
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\na fresh line\n");
  });

  test('a Delete of a file changed since the read is denied with the change, and the file is kept', async () => {
    const f = makeFile('codex/delete', 'old\n');
    fake.script([
      { shell: `head -n 20 ${f.rel}` },
      () => {
        fs.writeFileSync(f.abs, 'old\nchanged by another program\n');
        return { patch: `*** Begin Patch\n*** Delete File: ${f.rel}\n*** End Patch\n`, id: 'call_delete' };
      },
      { text: 'Refused.' },
    ]);
    const run = await codex('Delete it.');
    const denied = fake.outputOf('call_delete') ?? '';
    assert.match(denied, BLOCKED, describeRun(run));
    assert.match(denied, /changed since you last read it/);
    assert.match(denied, /^\+changed by another program$/m);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'old\nchanged by another program\n', 'the file is kept');
  });

  test('a new file is allowed', async () => {
    const rel = `gen/codex/new-${Date.now()}.txt`;
    fake.script([{ patch: `*** Begin Patch\n*** Add File: ${rel}\n+hello\n*** End Patch\n`, id: 'call_add' }, { text: 'Done.' }]);
    const run = await codex('Create it.');
    assert.doesNotMatch(fake.outputOf('call_add') ?? '', /blocked/, describeRun(run));
    assert.strictEqual(fs.readFileSync(path.join(workspaceRoot(), rel), 'utf8'), 'hello\n');
  });

  test("started outside this window's terminals (no address in its environment, as from an external terminal), Codex is gated the same: a patch of a file it never read is denied with its content", async () => {
    const f = makeFile('codex/outside', "the user's notes\n");
    fake.script([{ patch: `*** Begin Patch\n*** Delete File: ${f.rel}\n*** End Patch\n`, id: 'call_outside' }, { text: 'Refused.' }]);
    // no AGENT_EDIT_GUARD_* at all: the hook finds this window through its record under HOME (src/hooks/discovery.ts)
    const run = await codex('Delete it.', {});
    const denied = fake.outputOf('call_outside') ?? '';
    assert.match(denied, BLOCKED, describeRun(run));
    assert.match(denied, /1\tthe user's notes/);
    assert.ok(fs.existsSync(f.abs), 'the file is kept');
  });
});

suite('Codex alone (editGuard.guardCodex off): what the gate prevents, measured', function () {
  let fake: FakeResponses;

  suiteSetup(async function () {
    await activateExtension();
    fake = await startFakeResponses();
    fs.mkdirSync(codexHome(), { recursive: true });
    fs.writeFileSync(configFile(), codexConfig({ baseUrl: fake.baseUrl }));
    assert.ok(!fs.existsSync(hooksFile()), 'no hook entries: Codex runs unguarded');
  });

  suiteTeardown(async () => {
    fs.rmSync(codexHome(), { recursive: true, force: true });
    await fake?.close();
  });

  teardown(async () => {
    fake.clear();
    await cleanUp();
  });

  test("limit, without the gate: Codex's patch lands on disk under the user's unsaved buffer; the editor then holds two versions", async () => {
    const f = makeFile('codex/alone-unsaved', 'let greeting = "Hello";\nlet name = "world";\n');
    const doc = (await openInEditor(f)).document;
    await userEdit(doc, '"Hello"', '"Good morning"');
    fake.script([
      { shell: `cat ${f.rel}` },
      {
        patch: `*** Begin Patch\n*** Update File: ${f.rel}\n@@\n-let name = "world";\n+let name = "Codex";\n*** End Patch\n`,
        id: 'call_alone',
      },
      { text: 'Done.' },
    ]);
    const run = await runCodex({ cwd: workspaceRoot(), prompt: 'Greet Codex.', home: codexHome(), osHome: os.homedir() });
    assert.strictEqual(run.code, 0, describeRun(run));
    assert.doesNotMatch(fake.outputOf('call_alone') ?? '', /blocked/);
    assert.strictEqual(
      fs.readFileSync(f.abs, 'utf8'),
      'let greeting = "Hello";\nlet name = "Codex";\n',
      "Codex wrote the disk, without the user's change",
    );
    assert.strictEqual(doc.getText(), 'let greeting = "Good morning";\nlet name = "world";\n', 'the buffer holds the other version');
    assert.ok(doc.isDirty, 'saving it now would undo the patch; reverting it loses the user’s change');
  });
});
