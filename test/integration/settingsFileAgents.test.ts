// Agents that run in a terminal and read and write the disk themselves — Gemini CLI and Qwen Code (hook
// entries in a JSON settings file of theirs, as Claude Code's), pi, Cline and opencode (a plugin of ours each
// loads into its own process) — through the same gate (docs/design.md rules 12 and 13, §Surfaces), in the real host. Each
// suite runs one agent's real CLI (a dev dependency, driven as its test/<agent>/testAgent.ts says) headless in the
// workspace folder against a scripted fake model API served here, with this window's environment as a
// terminal of this window gets it, and the entries the extension put into the folder (`workspace`) or the
// user's files (`user`). The same tests for every agent with a testAgent.ts (test/shared/testAgents.ts) but those
// with a host suite of their own (`hostSuite`): a new one is its folder. Nothing is faked but the models: the hooks
// and plugins, the bridge, the gate and the editor's documents are the real ones.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeRun, runClaude } from '../claudeCode/claudeCli';
import { type FakeAnthropic, startFakeAnthropic } from '../claudeCode/fakeAnthropic';
import type { CliRun } from '../shared/cliProcess';
import { type Answer, blindEdit, type Call, linkWindowsRecords, refused, type Step } from '../shared/testAgent';
import { TEST_AGENTS } from '../shared/testAgents';
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
import { agentWithSetting, offerShown, turnOnInOffer } from './agentChoice';
import { driverAvailable } from './ui';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
/** What our entries run: the extension's hook clients, or its in-process plugins. */
const OUR_CLIENT = /hook-client\.sh|hook-bridge\.js|dist\/plugins\//;

for (const agent of TEST_AGENTS.filter((a) => !a.hostSuite)) {
  const { name } = agent;
  const toolOf = (answer: Answer) => ('tool' in answer ? answer.tool : '');

  suite(`${name}: its file tools through the gate, deciding on what the editor holds`, function () {
    let fake: { url: string; close(): Promise<void> };
    let steps: Step[] = [];
    /** the calls of the last request: what the model was told of each of its calls */
    let seen: Call[] = [];
    const folderEntries = () => path.join(workspaceRoot(), ...agent.folderEntries.split('/'));
    const runHere = (prompt: string): Promise<CliRun> =>
      agent.run({ cwd: workspaceRoot(), prompt, baseUrl: fake.url, home: agent.makeHome(), env: windowEnvironment() });

    suiteSetup(async function () {
      await activateExtension();
      // a conversation's step is the number of calls it has made so far
      fake = await agent.startFake(async (calls) => {
        seen = calls;
        const step = steps[calls.length] ?? { text: 'Done.' };
        return typeof step === 'function' ? step(calls) : step;
      });
      await config().update(agent.setting, 'workspace', vscode.ConfigurationTarget.Workspace);
      await waitFor(() => fs.existsSync(folderEntries()) && process.env.AGENT_EDIT_GUARD_SOCKET, 'our entries and the bridge', 10000, 50);
    });

    suiteTeardown(async () => {
      await config().update(agent.setting, undefined, vscode.ConfigurationTarget.Workspace);
      const { leavesInFolder } = agent;
      if (leavesInFolder) {
        // ours leave first: the folder the agent filled is then its alone
        await waitFor(() => !fs.existsSync(folderEntries()), 'our plugin out of the folder', 10000, 50);
        fs.rmSync(path.join(workspaceRoot(), leavesInFolder), { recursive: true, force: true });
      }
      await fake?.close();
    });

    teardown(async () => {
      steps = [];
      seen = [];
      await cleanUp();
    });

    test(`a read, then a replace: passes, and the file on disk holds the edit, recorded as ${name}'s`, async () => {
      const f = makeFile('agents/read-edit', 'alpha\nbeta\n');
      steps = [agent.read(f.abs), agent.replace(f.abs, 'beta', 'BETA')];
      const run = await runHere('Upper-case beta.');
      assert.strictEqual(run.code, 0, agent.describe(run));
      assert.deepStrictEqual(seen.map(refused), [false, false], JSON.stringify(seen));
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA\n');
      const edit = await waitFor(
        () =>
          api()
            .editRecord()
            .find((e) => e.uri === f.uri.toString()),
        'the edit in the record',
        5000,
      );
      assert.strictEqual(edit.tool, toolOf(agent.replace('', '', '')));
      assert.ok(edit.saved && !edit.created, JSON.stringify(edit));
    });

    test('a change to a file never read (a whole-file write, where the agent has one) is denied with its content, and the retry from it passes', async () => {
      const f = makeFile('agents/never-read', "the user's notes\n");
      const retry = blindEdit(agent, f.abs, "the user's notes\n", "the user's notes\na fresh start\n");
      steps = [
        blindEdit(agent, f.abs, "the user's notes\n", 'a fresh start\n'),
        (calls) => {
          const [denied] = calls;
          assert.ok(refused(denied), JSON.stringify(denied));
          assert.match(denied.result ?? '', /BLOCKED: nothing was written\. You have not read \S*agents\/never-read\S* in this chat/);
          assert.ok(denied.result?.includes("1\tthe user's notes"), denied.result);
          return agent.readsBeforeOverwrite ? agent.read(f.abs) : retry;
        },
        ...(agent.readsBeforeOverwrite ? [retry] : []),
      ];
      const run = await runHere('Add a line to the notes.');
      assert.deepStrictEqual(seen.map(refused), agent.readsBeforeOverwrite ? [true, false, false] : [true, false], agent.describe(run));
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\na fresh start\n");
    });

    test("a replace of a file with unsaved changes in the editor is denied with the user's change; the buffer and the disk are untouched", async () => {
      const f = makeFile('agents/unsaved', 'let greeting = "Hello";\nlet name = "world";\n');
      const doc = (await openInEditor(f)).document;
      await userEdit(doc, '"Hello"', '"Good morning"');
      steps = [agent.read(f.abs), agent.replace(f.abs, '"world"', '"agent"')];
      const run = await runHere('Greet the agent.');
      const [, denied] = seen;
      assert.ok(refused(denied), agent.describe(run));
      assert.match(denied.result ?? '', /The user has unsaved changes to \S*agents\/unsaved\S* in the editor/);
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
      // the message starts with the agent's name as a sentence does, then what its tool does ("Pi edit was blocked")
      const sentence = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      const verb = agentWithSetting(agent.setting).hooks.verb(toolOf(agent.replace('', '', '')));
      assert.ok(diagnostic.message.startsWith(`${sentence} ${verb} was blocked (${name}: “Greet the agent.”`), diagnostic.message);
    });

    test('a replace whose old_string the file does not hold as written is denied (rule 12), before the agent could correct it with its model', async () => {
      const f = makeFile('agents/quote', 'one\ntwo\n');
      steps = [agent.read(f.abs), agent.replace(f.abs, 'three', 'THREE')];
      const run = await runHere('Upper-case three.');
      const [, denied] = seen;
      assert.ok(refused(denied), agent.describe(run));
      assert.match(denied.result ?? '', /An oldString of your \w+ is not in \S*agents\/quote\S* as written/);
      assert.match(denied.result ?? '', /^2\ttwo$/m, 'with the current text');
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'one\ntwo\n');
    });

    test("another agent writing the file between its read and its replace: denied, naming Claude Code; Claude Code's text stays", async function () {
      const f = makeFile('agents/other-agent', 'one\ntwo\n');
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
          agent.read(f.abs),
          async () => {
            // the agent has read the file; Claude Code now reads and rewrites it, before the agent's replace
            const claude = await runClaude({ cwd: workspaceRoot(), prompt: 'Add a line.', baseUrl: claudeUrl, env: windowEnvironment() });
            assert.strictEqual(claude.code, 0, describeRun(claude));
            return agent.replace(f.abs, 'two', 'TWO');
          },
        ];
        const run = await runHere('Upper-case two.');
        const [, denied] = seen;
        assert.ok(refused(denied), agent.describe(run));
        assert.match(denied.result ?? '', /changed since you last read it \(written by Claude Code\)/);
        assert.match(denied.result ?? '', /^\+three, by Claude Code$/m);
        assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'one\ntwo\nthree, by Claude Code\n');
      } finally {
        await config().update('guardClaudeCode', undefined, vscode.ConfigurationTarget.Workspace);
        await anthropic?.close();
      }
    });

    test(`with no window on its folder, ${name} started outside is let through at once`, async () => {
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-no-window-'));
      try {
        const file = path.join(elsewhere, 'notes.txt');
        fs.writeFileSync(file, 'never read\n');
        // our entries at user level of its own home, and the windows' entries: as a terminal outside any window
        const home = linkWindowsRecords(agent.makeHome(fs.readFileSync(folderEntries(), 'utf8')));
        const overwrite = blindEdit(agent, file, 'never read\n', 'overwritten\n');
        steps = agent.readsBeforeOverwrite ? [agent.read(file), overwrite] : [overwrite];
        const run = await agent.run({ cwd: elsewhere, prompt: 'Overwrite it.', baseUrl: fake.url, home });
        assert.deepStrictEqual(
          seen.map(refused),
          steps.map(() => false),
          agent.describe(run),
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

  suite(`${name} at user level: our entries in its user files`, function () {
    let fake: { url: string; close(): Promise<void> };
    /** the file the scripted model overwrites, unread */
    let target = '';
    let seen: Call[] = [];
    const descriptor = agentWithSetting(agent.setting);
    const [userFile] = descriptor.entries?.userFiles() ?? [];
    const shown = `~/${path.relative(os.homedir(), userFile)}`;
    const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

    suiteSetup(async function () {
      await activateExtension();
      fake = await agent.startFake(async (calls) => {
        seen = calls;
        return calls.length === 0 ? blindEdit(agent, target, "the user's notes\n", 'x\n') : { text: 'Done.' };
      });
    });

    suiteTeardown(async () => {
      await fake?.close();
    });

    teardown(cleanUp);

    /**
     * Turns the agent on at user level (`on`: once our entries are in), runs it from this window's terminal over a file
     * never read (denied; `ran`: after the run), turns it off (`off`: once ours are out).
     */
    async function turnedOnThenOff(on: () => void, ran: () => void, off: () => void): Promise<void> {
      const f = makeFile('agents/user-level', "the user's notes\n");
      target = f.abs;
      try {
        await config().update(agent.setting, 'user', vscode.ConfigurationTarget.Global);
        await waitFor(() => OUR_CLIENT.test(read(userFile)), `our entries in ${shown}`, 10000, 50);
        on();
        const run = await agent.run({
          cwd: workspaceRoot(),
          prompt: 'Overwrite the notes.',
          baseUrl: fake.url,
          home: os.homedir(),
          env: windowEnvironment(),
        });
        const [denied] = seen;
        assert.ok(refused(denied), agent.describe(run));
        assert.match(denied.result ?? '', /You have not read \S*agents\/user-level\S* in this chat/);
        assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), "the user's notes\n");
        ran();
        await config().update(agent.setting, undefined, vscode.ConfigurationTarget.Global);
        await waitFor(() => !OUR_CLIENT.test(read(userFile)), `our entries out of ${shown}`, 10000, 50);
        off();
      } finally {
        await config().update(agent.setting, undefined, vscode.ConfigurationTarget.Global);
      }
    }

    const { settings } = agent;
    if (settings) {
      test(`turned on, the user's settings stay as they were around our entries, which survive ${name} rewriting the file at its start and gate its calls; turned off, only ours leave`, async () => {
        // the user's own settings, as they wrote them
        const own = { ...settings.offline(), context: { fileName: 'NOTES.md' } };
        fs.mkdirSync(path.dirname(userFile), { recursive: true });
        fs.writeFileSync(userFile, `${JSON.stringify(own, null, 2)}\n`);
        try {
          await turnedOnThenOff(
            () => {
              const merged = JSON.parse(read(userFile));
              assert.deepStrictEqual({ ...merged, hooks: undefined }, { ...own, hooks: undefined }, "the user's keys are as they were");
            },
            () => assert.ok(OUR_CLIENT.test(read(userFile)), `${name}'s rewrite at its start kept our entries:\n${read(userFile)}`),
            () => {
              const left = JSON.parse(read(userFile));
              assert.deepStrictEqual(left.context, own.context, "the user's settings stay");
              assert.strictEqual(left.hooks, undefined, 'no hooks were left: the key goes with ours');
            },
          );
        } finally {
          fs.rmSync(path.dirname(userFile), { recursive: true, force: true });
        }
      });
    } else {
      test(`turned on, our file sits in ${shown} beside the user's own and gates ${name}'s calls; turned off, only ours leaves, and the folder we made goes`, async () => {
        const folder = path.dirname(userFile);
        const above = path.dirname(folder);
        fs.mkdirSync(above, { recursive: true });
        const theirs = path.join(above, 'theirs.json');
        fs.writeFileSync(theirs, '{}\n');
        try {
          await turnedOnThenOff(
            () => assert.ok(fs.existsSync(theirs)),
            () => assert.ok(fs.existsSync(userFile), 'our file is still there'),
            () => {
              assert.ok(!fs.existsSync(folder), `${folder} was made for our file alone: it goes with it`);
              assert.strictEqual(fs.readFileSync(theirs, 'utf8'), '{}\n', "the user's file beside it stays");
            },
          );
        } finally {
          fs.rmSync(above, { recursive: true, force: true });
        }
      });
    }

    test(`the one-time offer, where ${name} has been used: nothing is written before the click; Turn on chooses the user level`, async function () {
      if (!driverAvailable()) this.skip();
      const home = descriptor.usedHere?.homeFolder?.();
      assert.ok(home, `${name} names its folder in the home`);
      fs.mkdirSync(home, { recursive: true });
      try {
        const text = await offerShown(descriptor);
        assert.ok(text.includes(`${path.relative(home, userFile)}, next to your own`), text);
        assert.ok(!fs.existsSync(userFile), 'nothing is written before the click');
        await turnOnInOffer(descriptor);
        await waitFor(() => OUR_CLIENT.test(read(userFile)), `our entries in ${shown}`, 10000, 50);
        assert.strictEqual(config().inspect(agent.setting)?.globalValue, 'user');
        await config().update(agent.setting, undefined, vscode.ConfigurationTarget.Global);
        await waitFor(() => !fs.existsSync(userFile), 'the file that held only ours to go', 10000, 50);
        assert.ok(fs.existsSync(home), 'the folder was there before us: it stays');
      } finally {
        await config().update(agent.setting, undefined, vscode.ConfigurationTarget.Global);
        fs.rmSync(home, { recursive: true, force: true });
      }
    });
  });
}
