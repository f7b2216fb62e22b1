// An agent's shell tool through the gate (docs/design.md rule 16), in the real host: before a command runs, each
// file it writes is checked as an edit by an agent that writes the disk — a stale overwrite is refused with the
// change it missed, unsaved changes in the editor refuse an in-place edit or a delete, a new file or a clean delete
// passes, a command that writes nothing passes at once — and what a command let through wrote is recorded as the
// agent's edit. Each suite runs one agent's real CLI (those whose test/<agent>/testAgent.ts says how: Claude Code and
// Codex with their hook entries, pi with our extension of it) headless in the workspace folder against a scripted fake model API served here, with this
// window's environment as a terminal of this window gets it. Nothing is faked but the models.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CliRun } from '../shared/cliProcess';
import { type Call, refused, type Step } from '../shared/testAgent';
import { TEST_AGENTS } from '../shared/testAgents';
import {
  activateExtension,
  api,
  cleanUp,
  loadedFromDisk,
  makeFile,
  marksFor,
  openInEditor,
  type TestFile,
  userEdit,
  waitFor,
  windowEnvironment,
  workspaceRoot,
} from './helpers';
import { agentWithSetting } from './agentChoice';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
/** The file's name in a refusal, as a pattern (the refusal may name it relative to the folder or in full). */
const named = (f: TestFile) => `\\S*${path.basename(f.abs).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S*`;
/** A command that writes `text` over the whole of `rel`, where the agent names none of its own: a quoted heredoc. */
const heredoc = (rel: string, text: string) => `cat > ${rel} <<'EOF'\n${text}EOF`;

for (const agent of TEST_AGENTS) {
  if (!agent.shellWrites) continue;
  const { hookTool, overwrite = heredoc, ready } = agent.shellWrites;
  const { name } = agent;
  const { id } = agentWithSetting(agent.setting).hooks;
  /** where the setting is, and where it puts our entries: the folder, or (`guardAt: 'user'`) the OS home */
  const target = agent.guardAt ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  const entries = () => path.join(agent.guardAt ? os.homedir() : workspaceRoot(), ...agent.folderEntries.split('/'));
  const shellCommand = (c: Call | undefined) => String(c?.args.command ?? c?.args.cmd ?? '');

  suite(`shell writes through the gate: ${name}`, function () {
    let fake: { url: string; close(): Promise<void> };
    let steps: Step[] = [];
    /** the calls of the last request: what the model was told of each of its calls */
    let seen: Call[] = [];
    const runHere = (prompt: string): Promise<CliRun> =>
      agent.run({ cwd: workspaceRoot(), prompt, baseUrl: fake.url, home: agent.makeHome(), env: windowEnvironment() });
    /** The record of the agent's edit of the file, once it is there. */
    const recordOf = (f: TestFile) =>
      waitFor(
        () =>
          api()
            .editRecord()
            .find((e) => e.uri === f.uri.toString()),
        `${name}'s edit of ${f.rel} in the record`,
        5000,
      );

    suiteSetup(async function () {
      await activateExtension();
      // first: Codex's fake writes its config.toml, which our entries' trust then joins
      fake = await agent.startFake(async (calls) => {
        seen = calls;
        const step = steps[calls.length] ?? { text: 'Done.' };
        return typeof step === 'function' ? step(calls) : step;
      });
      await config().update(agent.setting, agent.guardAt ?? 'workspace', target);
      await waitFor(
        () => fs.existsSync(entries()) && process.env.AGENT_EDIT_GUARD_SOCKET && (ready?.() ?? true),
        'our entries and the bridge',
        10000,
        50,
      );
    });

    suiteTeardown(async () => {
      await config().update(agent.setting, undefined, target);
      await waitFor(() => !fs.existsSync(entries()), 'our entries to be gone', 10000, 50);
      await fake?.close();
    });

    teardown(async () => {
      steps = [];
      seen = [];
      await cleanUp();
    });

    test(`a stale rewrite through the shell is refused with the line another program added, which stays; the retry from the refusal passes`, async () => {
      const f = makeFile('shell/stale', 'first line\nsecond line\n');
      const other = 'a line by another program\n';
      const retry = `first line\nsecond line\n${other}added by the agent\n`;
      steps = [
        agent.shell(`cat ${f.rel}`),
        async (calls) => {
          const [read] = calls;
          assert.ok(read.result?.includes('second line'), `the read showed the file: ${read.result}`);
          // the read through the shell marked the file
          await waitFor(() => marksFor(f.uri).find((m) => m.origin === 'read' && m.fresh), `${name}'s read mark of ${f.rel}`, 5000);
          // another program adds a line after the agent read the file
          fs.appendFileSync(f.abs, other);
          return agent.shell(overwrite(f.rel, 'first line\nsecond line\nadded by the agent\n'));
        },
        (calls) => {
          const denied = calls[1];
          assert.ok(refused(denied), `the stale rewrite (${shellCommand(denied)}) is refused: ${denied.result}`);
          assert.match(denied.result ?? '', /BLOCKED: nothing was written/);
          assert.match(denied.result ?? '', new RegExp(`${named(f)} changed since you last read it`));
          assert.match(denied.result ?? '', /^\+a line by another program$/m, 'the refusal shows the line it missed');
          assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), `first line\nsecond line\n${other}`, 'nothing of the command ran');
          return agent.shell(overwrite(f.rel, retry));
        },
      ];
      const run = await runHere('Add a line to the file.');
      assert.deepStrictEqual(seen.map(refused), [false, true, false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), retry, "the retry wrote the file, the other program's line in it");
    });

    test(`sed -i under the user's unsaved change is refused naming it; the buffer stays dirty with the user's text, the disk untouched`, async () => {
      const text = 'let x = 1;\nlet greeting = "Hello";\n';
      const f = makeFile('shell/unsaved', text);
      const doc = (await openInEditor(f)).document;
      await userEdit(doc, '"Hello"', '"Good morning"');
      steps = [agent.read(f.abs), agent.shell(`sed -i 's/x/y/' ${f.rel}`)];
      const run = await runHere('Rename x.');
      const [read, denied] = seen;
      assert.ok(!refused(read), `${agent.describe(run)}\n${read?.result}`);
      assert.ok(refused(denied), `${agent.describe(run)}\n${denied?.result}`);
      assert.match(denied.result ?? '', new RegExp(`The user has unsaved changes to ${named(f)} in the editor`));
      assert.match(denied.result ?? '', /^\+let greeting = "Good morning";$/m, "the refusal shows the user's change");
      assert.strictEqual(doc.getText(), 'let x = 1;\nlet greeting = "Good morning";\n', "the buffer keeps the user's text");
      assert.ok(doc.isDirty, 'still unsaved');
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), text, 'nothing written on disk');
    });

    test(`rm of a file with unsaved changes is refused; the file stays on disk and in the buffer`, async () => {
      const f = makeFile('shell/rm-unsaved', 'keep me\n');
      const doc = (await openInEditor(f)).document;
      await userEdit(doc, 'keep me', 'keep me, and this (unsaved)');
      steps = [agent.shell(`rm -f ${f.rel}`)];
      const run = await runHere('Remove the file.');
      const [denied] = seen;
      assert.ok(refused(denied), `${agent.describe(run)}\n${denied?.result}`);
      assert.match(denied.result ?? '', new RegExp(`The user has unsaved changes to ${named(f)} in the editor`));
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'keep me\n', 'the file is still there, as it was');
      assert.strictEqual(doc.getText(), 'keep me, and this (unsaved)\n');
      assert.ok(doc.isDirty, 'still unsaved');
      assert.ok(
        !api()
          .editRecord()
          .some((e) => e.uri === f.uri.toString()),
        'no edit recorded',
      );
    });

    test(`rm of a clean file never read passes: the file is gone, and the record holds its deletion by ${name}`, async () => {
      const f = makeFile('shell/rm-clean', 'an old log\n');
      steps = [agent.shell(`rm ${f.rel}`)];
      const run = await runHere('Remove the old log.');
      assert.deepStrictEqual(seen.map(refused), [false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.ok(!fs.existsSync(f.abs), 'the file is gone');
      const edit = await recordOf(f);
      assert.deepStrictEqual(
        { tool: edit.tool, agent: edit.agent, deleted: edit.deleted, created: edit.created },
        { tool: hookTool, agent: id, deleted: true, created: false },
        JSON.stringify(edit),
      );
    });

    test('a command that writes nothing is not refused, and the read and edit that follow go through as usual', async () => {
      const f = makeFile('shell/nothing', 'alpha\nbeta\n');
      steps = [agent.shell('ls -la'), agent.shell('git status --short || true'), agent.read(f.abs), agent.replace(f.abs, 'beta', 'BETA')];
      const run = await runHere('Look around, then upper-case beta.');
      assert.deepStrictEqual(seen.map(refused), [false, false, false, false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.match(seen[0].result ?? '', /\bgen\b/, `the listing of the folder reached the model: ${seen[0].result}`);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA\n');
      const edit = await recordOf(f);
      assert.deepStrictEqual(
        { tool: edit.tool, agent: edit.agent },
        { tool: agent.replace('', '', '').tool, agent: id },
        `the edit went through the gate, as usual: ${JSON.stringify(edit)}`,
      );
    });

    test(`a script the gate cannot read through changes a file the editor holds: recorded as ${name}'s edit, and its revert keeps the user's later change`, async () => {
      const f = makeFile('shell/by-script', 'alpha\nbeta\ngamma\n');
      const doc = (await openInEditor(f)).document;
      // a script file: what it writes is known only once it ran
      const script = makeFile('shell/script', `sed -i 's/beta/BETA by the script/' '${f.abs}'\n`, '.sh');
      steps = [agent.shell(`sh ${script.rel}`)];
      const run = await runHere('Run the script.');
      assert.deepStrictEqual(seen.map(refused), [false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA by the script\ngamma\n', `the script ran: ${seen[0]?.result}`);
      const edit = await recordOf(f);
      assert.deepStrictEqual(
        { tool: edit.tool, agent: edit.agent, created: edit.created, deleted: edit.deleted },
        { tool: hookTool, agent: id, created: false, deleted: false },
        JSON.stringify(edit),
      );
      // the user changes another line and saves; then takes the script's change back
      await loadedFromDisk(doc, (t) => t.includes('BETA by the script'), "the editor to load the script's change");
      await userEdit(doc, 'gamma', 'gamma, kept by the user');
      assert.ok(await doc.save());
      const [result] = (await vscode.commands.executeCommand<Array<{ kind: string }>>('editGuard.revertEdit', edit.id)) ?? [];
      assert.strictEqual(result?.kind, 'reverted', JSON.stringify(result));
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nbeta\ngamma, kept by the user\n');
    });

    test(`a script that rewrites a file under the user's unsaved change: the buffer gets the script's change with the user's, still unsaved; saving writes both`, async () => {
      const f = makeFile('shell/format-unsaved', 'const a=1\nconst b = 2;\n');
      const doc = (await openInEditor(f)).document;
      await userEdit(doc, 'const b = 2;', 'const b = 2; // the user, unsaved');
      const script = makeFile('shell/format', `sed -i 's/const a=1/const a = 1;/' '${f.abs}'\n`, '.sh');
      steps = [agent.shell(`sh ${script.rel}`)];
      const run = await runHere('Format the code.');
      assert.deepStrictEqual(seen.map(refused), [false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'const a = 1;\nconst b = 2;\n', `the script ran: ${seen[0]?.result}`);
      await waitFor(() => doc.getText() === 'const a = 1;\nconst b = 2; // the user, unsaved\n', 'both changes in the buffer', 5000);
      assert.ok(doc.isDirty, "the user's change is still unsaved");
      assert.ok(await doc.save(), 'the save goes through: nothing on disk is newer than the buffer');
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'const a = 1;\nconst b = 2; // the user, unsaved\n');
    });

    test(`a file written through the shell after a fresh read is recorded as ${name}'s edit`, async () => {
      const f = makeFile('shell/append', 'old line\n');
      steps = [agent.read(f.abs), agent.shell(`printf 'new line\\n' >> ${f.rel}`)];
      const run = await runHere('Add a line.');
      assert.deepStrictEqual(seen.map(refused), [false, false], `${agent.describe(run)}\n${JSON.stringify(seen)}`);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'old line\nnew line\n');
      const edit = await recordOf(f);
      assert.deepStrictEqual(
        { tool: edit.tool, agent: edit.agent, deleted: edit.deleted, created: edit.created, saved: edit.saved },
        { tool: hookTool, agent: id, deleted: false, created: false, saved: true },
        JSON.stringify(edit),
      );
    });
  });
}
