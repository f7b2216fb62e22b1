// Copilot's OWN file tools behind the gate (docs/design.md §Surfaces, hooks bridge), in Copilot Chat's real agent loop: with
// editGuard.guardCopilotTools `workspace`, the extension writes .github/hooks/agent-edit-guard.json, Copilot
// runs its commands (dist/hook-client.sh with bash, or dist/hook-bridge.js with the editor's runtime) before and
// after every tool call and before it compacts a chat, and the client asks the extension over a local connection. Nothing is
// faked here but the model: the hooks, the built-in tools and their edits are Copilot's and VS Code's.
import * as vscode from 'vscode';
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { GREETING_TS, guardDiagnostics, loadedFromDisk, statusBarTooltip } from '../integration/helpers';
import { guardLogFile } from '../integration/reliabilityHelpers';
import { visibleText } from '../integration/ui';
import type { AgentEditGuardApi } from '../../src/api';
import {
  agentTurn,
  allowUntil,
  EXTENSION_ID,
  fakeModel,
  lastResult,
  makeFileAt,
  marksFor,
  newChat,
  resultsOf,
  safeJson,
  userEdit,
  waitFor,
  waitsForTheUser,
  workspaceRoot,
} from './agent';
import { hungListener, unusedLoopbackAddress } from '../shared/loopback';
import { copilotSuiteHooks } from './suite';
import {
  BLOCKED,
  builtinAfterCompactionTurn,
  builtinApplyPatchTurn,
  builtinStaleReplaceTurn,
  DENIED,
  GUARD_COPILOT_SETTING,
  hooksFile,
  setGuardBuiltinTools,
  waitUntilHooksAreLive,
} from './turns';

const ENV_SOCKET = 'AGENT_EDIT_GUARD_SOCKET';
const ENV_SECRET = 'AGENT_EDIT_GUARD_SECRET';
const ENV_BOUND = 'AGENT_EDIT_GUARD_BOUND_MS';
const ENV_MISSED = 'AGENT_EDIT_GUARD_MISSED';

const models = () => fakeModel().MODELS;
const config = () => vscode.workspace.getConfiguration('editGuard', null);

function logText(): string {
  const file = guardLogFile();
  return file ? fs.readFileSync(file, 'utf8') : '';
}

/**
 * Runs the hook command of the hooks file exactly as Copilot does (sh -c, this extension host's environment
 * plus the entry's own, the payload on stdin). How long that takes is `npm run bench`'s business
 * (bench/host/hooks.ts), not this suite's.
 */
function runHookScript(payload: object, env: NodeJS.ProcessEnv = process.env): Promise<{ stdout: string; code: number | null }> {
  const event = String((payload as { hook_event_name?: string }).hook_event_name);
  const [entry] = JSON.parse(fs.readFileSync(hooksFile(), 'utf8')).hooks[event];
  const child = spawn(entry.command, {
    shell: true,
    env: { ...env, ...entry.env },
    cwd: workspaceRoot(),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  // Copilot's payload of a tool event carries the call's id (which the Copilot harness's lacks: the bridge tells them apart by it)
  const asCopilotSends =
    /ToolUse$/.test(event) && !('tool_use_id' in payload) ? { ...payload, tool_use_id: `toolu_${++toolUses}` } : payload;
  child.stdin.end(JSON.stringify(asCopilotSends));
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, code })));
}
let toolUses = 0;

/** The extension's API: its record of agent edits. */
const editsApi = () => vscode.extensions.getExtension<AgentEditGuardApi>(EXTENSION_ID)!.exports;

/** host and port of this window's bridge (`127.0.0.1:<port>`) */
const bridgeAddress = () => {
  const [host, port] = process.env[ENV_SOCKET]!.split(':');
  return { host, port: Number(port) };
};

suite("Copilot's built-in file tools behind the gate (hooks bridge)", function () {
  copilotSuiteHooks(async () => {
    assert.notStrictEqual(vscode.workspace.getConfiguration('chat').get('useHooks'), false, 'chat.useHooks is on (the default)');
    await setGuardBuiltinTools(true);
    await waitUntilHooksAreLive();
  });

  suiteTeardown(async () => {
    await config().update(GUARD_COPILOT_SETTING, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test("the hooks file runs a client shipped with the extension, only where this window's extension listens, and holds no secret", () => {
    const file = JSON.parse(fs.readFileSync(hooksFile(), 'utf8'));
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    const clients = [path.join(dist, 'hook-client.sh'), path.join(dist, 'hook-bridge.js')];
    assert.ok(
      clients.every((c) => fs.existsSync(c)),
      clients.join(', '),
    );
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact']) {
      const [entry] = file.hooks[event];
      // a client runs only where a window may listen: its address in the environment, or a window's entry (src/hooks/discovery.ts)
      assert.ok(
        entry.command.includes(`[ -n "$${ENV_SOCKET}" ] || { set -- "$HOME/.cache/agent-edit-guard/windows/"*.window`),
        entry.command,
      );
      assert.ok(
        clients.some((c) => entry.command.includes(c)),
        entry.command,
      );
      assert.strictEqual(entry.env.ELECTRON_RUN_AS_NODE, '1');
      assert.ok(entry.windows.startsWith(`if (-not $env:${ENV_SOCKET} -and`) && entry.windows.includes(process.execPath), entry.windows);
    }
    const secret = process.env[ENV_SECRET];
    assert.ok(secret && secret.length >= 64, 'the extension host environment carries the window secret');
    assert.ok(!fs.readFileSync(hooksFile(), 'utf8').includes(secret), 'the hooks file has no secret');
    assert.match(process.env[ENV_SOCKET]!, /^127\.0\.0\.1:\d+$/, 'the bridge listens on the loopback interface only');
    if (process.platform !== 'win32')
      assert.strictEqual(fs.statSync(path.dirname(process.env[ENV_MISSED]!)).mode & 0o077, 0, "the bridge's folder is the user's alone");
  });

  test("a stale replace_string_in_file is denied with the user's change; after a fresh read_file the replace passes and the file holds both changes", async () => {
    const { f, doc, oldLine, userLine, turn, denied, diagnosticsWhileBlocked } = await builtinStaleReplaceTurn();
    const results = turn.requests.at(-1)!.toolResults;
    assert.deepStrictEqual(
      results.map((r) => r.name),
      ['read_file', 'replace_string_in_file', 'read_file', 'replace_string_in_file', 'replace_string_in_file', 'editGuard_readFile'],
      safeJson(results.map((r) => [r.name, r.text.slice(0, 200)])),
    );

    assert.ok(denied.includes(BLOCKED), denied);
    assert.match(denied, /changed since you last read it \(edited in the editor, not yet saved\)/);
    assert.match(denied, /^-\s*return `Hello, /m, 'the model sees the old line');
    assert.match(denied, /^\+\s*return `Good morning, /m, "the model sees the user's change");
    for (const r of results.slice(3, 5)) assert.doesNotMatch(r.text, /denied|BLOCKED/i, r.text);

    assert.strictEqual(
      doc.getText(),
      GREETING_TS.replace('  name: string;', '  name: string; // who').replace(oldLine, userLine.replace('`;', '!`;')),
      "the file holds the user's change and both of the agent's",
    );
    assert.strictEqual(diagnosticsWhileBlocked.length, 1, 'the denial put a diagnostic on the file');
    assert.strictEqual(diagnosticsWhileBlocked[0].range.start.line, 6, 'over the line the user changed');
    assert.deepStrictEqual(
      vscode.languages.getDiagnostics(f.uri).filter((d) => d.source === 'Agent Edit Guard'),
      [],
      'the successful edit cleared it',
    );
    await waitFor(
      () => /blocked replace_string_in_file on builtin\/greeting\.ts: changed/.test(logText()),
      'the block in the "Agent Edit Guard" log',
      5000,
    );

    const marks = await marksFor(f.uri);
    assert.strictEqual(new Set(marks.map((m) => m.session)).size, 1, `one chat, one session, whichever tools it used: ${safeJson(marks)}`);
    assert.deepStrictEqual([...new Set(marks.map((m) => m.origin))].sort(), ['read', 'refusal', 'write'], safeJson(marks));
  });

  test("the chat is named by the words of its first request: a blocked built-in edit's diagnostic, the quick pick and the status bar's tooltip show them as typed, not id tails", async () => {
    const f = makeFileAt('builtin/hello.ts', GREETING_TS);
    // Markdown in the words: the tooltip must show them as typed, not as emphasis and code
    const prompt = 'Fix the *greeting* in `hello.ts`';
    let denied = '';
    const turn = await agentTurn(
      'names-title',
      [
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'Hello', newString: 'Hi' } },
        (req) => {
          denied = lastResult(req).text;
          return { text: 'I will read it first.' };
        },
      ],
      prompt,
      { model: models().sonnet },
    );
    assert.match(denied, DENIED, denied);
    // Copilot's UserPromptSubmit carries the query as typed, the suite's [[tag]] included
    const title = `“[[${turn.tag}]] ${prompt}”`;
    const message = (
      await waitFor(
        () => vscode.languages.getDiagnostics(f.uri).find((d) => d.source === 'Agent Edit Guard'),
        'the blocked-write diagnostic',
      )
    ).message;
    assert.ok(message.includes(`(${title}, Turn 1 · `), message);
    assert.match(message, /^Copilot replace was blocked .*: the agent had not read this file in this chat\./, message);
    try {
      void vscode.commands.executeCommand('editGuard.showReadMarks');
      const picked = await waitFor(
        async () => {
          const text = await visibleText('.quick-input-widget');
          return text.includes(`${title} (current) › Turn 1 · `) ? text : undefined;
        },
        `the quick pick to group the refusal under ${title}`,
        5000,
        200,
      );
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      const tooltip = await waitFor(
        async () => {
          const text = await statusBarTooltip();
          return text.includes(`the current chat, ${title}, has seen:`) ? text : undefined;
        },
        `the status bar's tooltip to name the chat ${title}`,
        8000,
        200,
      );
      const [mark] = await marksFor(f.uri);
      assert.ok(mark?.turn, safeJson(mark));
      for (const tail of [mark.session.slice(-6), mark.turn.slice(-6)])
        assert.ok(![picked, message, tooltip].some((t) => t.includes(tail)), `no id tail ${tail}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });

  test("one turn, both kinds of tools: a built-in edit and a guarded edit count as the agent's own writes for each other, until the turn ends", async () => {
    const f = makeFileAt('builtin/mixed.txt', 'alpha\nbeta\ngamma\n');
    const turn1 = await agentTurn(
      'builtin-mixed-1',
      [
        { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 3 } },
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'alpha', newString: 'ALPHA' } },
        { tool: 'editGuard_replaceString', input: { filePath: f.rel, oldString: 'beta', newString: 'BETA' } },
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'gamma', newString: 'GAMMA' } },
        { text: 'done' },
      ],
      'Upper-case every line.',
      { model: models().sonnet },
    );
    const results = turn1.requests.at(-1)!.toolResults;
    assert.deepStrictEqual(
      results.map((r) => r.name),
      ['read_file', 'replace_string_in_file', 'editGuard_replaceString', 'replace_string_in_file'],
    );
    for (const r of results) assert.doesNotMatch(r.text, /denied|BLOCKED|ERROR/, `${r.name}: ${r.text}`);
    const doc = await vscode.workspace.openTextDocument(f.uri);
    assert.strictEqual(doc.getText(), 'ALPHA\nBETA\nGAMMA\n');
    // the next turn: the agent's own writes of the last turn no longer count as having seen the file
    let next = '';
    await agentTurn(
      'builtin-mixed-2',
      [
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'ALPHA', newString: 'alpha' } },
        (req) => {
          next = lastResult(req).text;
          return { text: 'done' };
        },
      ],
      'Lower-case the first line.',
      { model: models().sonnet },
    );
    assert.match(next, DENIED, next);
    assert.match(next, /You last saw builtin\/mixed\.txt when you wrote it in an earlier turn/);
  });

  test('apply_patch over two files, one of them stale, is denied whole: nothing is applied', async () => {
    const { a, b, docB, turn, denied } = await builtinApplyPatchTurn();
    assert.ok(
      turn.requests[0].tools.some((t) => t.name === 'apply_patch'),
      'Copilot offered apply_patch to this model',
    );
    assert.match(
      denied,
      /stopped this apply_patch call: nothing was applied to any of its 2 files, because one of them was changed or not read/,
    );
    assert.match(denied, /builtin\/patch-b\.txt changed since you last read it/);
    assert.doesNotMatch(denied, /patch-a\.txt changed/);
    assert.strictEqual(fs.readFileSync(a.abs, 'utf8'), 'alpha\nbeta\n', 'a.txt on disk is untouched');
    const docA = vscode.workspace.textDocuments.find((d) => d.uri.toString() === a.uri.toString());
    if (docA) assert.strictEqual(docA.getText(), 'alpha\nbeta\n', 'a.txt in the editor is untouched');
    assert.strictEqual(docB.getText(), 'one (the user)\ntwo\n', "b.txt holds only the user's change");
    assert.strictEqual(fs.readFileSync(b.abs, 'utf8'), 'one\ntwo\n');
  });

  test("run_in_terminal (rule 16): a rewrite by redirection from an old read is denied with the other program's line, which the file keeps", async () => {
    const f = makeFileAt('builtin/terminal.txt', 'one\n');
    let denied = '';
    const turn = await agentTurn(
      'builtin-terminal',
      [
        { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 5 } },
        () => {
          // another program appends a line after the agent's read
          fs.appendFileSync(f.abs, 'two (another program)\n');
          return {
            tool: 'run_in_terminal',
            input: { command: `printf 'one\\nthree\\n' > '${f.abs}'`, explanation: 'Rewrite the file.', isBackground: false },
          };
        },
        (req) => {
          denied = lastResult(req).text;
          return { text: 'The rewrite was refused.' };
        },
      ],
      'Rewrite the file with a third line.',
      { model: fakeModel().MODELS.sonnet },
    );
    assert.deepStrictEqual(
      resultsOf(turn).map((r) => r.name),
      ['read_file', 'run_in_terminal'],
    );
    assert.match(denied, DENIED, denied);
    assert.match(denied, /builtin\/terminal\.txt changed since you last read it/, denied);
    assert.match(denied, /^\+two \(another program\)$/m, denied);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'one\ntwo (another program)\n', "the other program's line is kept");
  });

  test("run_in_terminal (rule 16): sed -i under the user's unsaved change and rm of a file with unsaved changes are denied with that change; the buffers and the disk are untouched", async () => {
    const edited = makeFileAt('builtin/terminal-sed.txt', 'let x = 1;\nlet greeting = "Hello";\n');
    const removed = makeFileAt('builtin/terminal-rm.txt', 'keep me\n');
    const editedDoc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(edited.uri), { preview: false }))
      .document;
    const removedDoc = await vscode.workspace.openTextDocument(removed.uri);
    const denied: string[] = [];
    const terminal = (command: string) => ({ tool: 'run_in_terminal', input: { command, explanation: 'As asked.', isBackground: false } });
    await agentTurn(
      'builtin-terminal-unsaved',
      [
        { tool: 'read_file', input: { filePath: edited.abs, startLine: 1, endLine: 5 } },
        async () => {
          // the user types in both files after the agent's read, and saves neither
          await userEdit(editedDoc, '"Hello"', '"Good morning"');
          await userEdit(removedDoc, 'keep me', 'keep me, and this');
          return terminal(`sed -i 's/x = 1/x = 2/' '${edited.abs}'`);
        },
        (req) => {
          denied.push(lastResult(req).text);
          return terminal(`rm -f '${removed.abs}'`);
        },
        (req) => {
          denied.push(lastResult(req).text);
          return { text: 'Both were refused.' };
        },
      ],
      'Bump x and remove the other file.',
      { model: fakeModel().MODELS.sonnet },
    );
    for (const [text, f] of [
      [denied[0], edited],
      [denied[1], removed],
    ] as const) {
      assert.match(text, DENIED, text);
      assert.match(text, new RegExp(`unsaved changes to ${f.rel.replace(/[.]/g, '\\.')} in the editor`), text);
    }
    assert.match(denied[0], /^\+let greeting = "Good morning";$/m, "the refusal shows the user's change");
    assert.strictEqual(editedDoc.getText(), 'let x = 1;\nlet greeting = "Good morning";\n');
    assert.ok(editedDoc.isDirty && removedDoc.isDirty, 'both still unsaved');
    assert.strictEqual(fs.readFileSync(edited.abs, 'utf8'), 'let x = 1;\nlet greeting = "Hello";\n', 'nothing written on disk');
    assert.strictEqual(fs.readFileSync(removed.abs, 'utf8'), 'keep me\n', 'the file is still there');
  });

  test("run_in_terminal (rule 16): a command that writes nothing runs; a script the gate cannot read through changes a file the editor holds, recorded as Copilot's edit, whose revert keeps the user's later change", async () => {
    const f = makeFileAt('builtin/terminal-script.txt', 'alpha\nbeta\ngamma\n');
    const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
    const script = makeFileAt('builtin/terminal-script.sh', `sed -i 's/beta/BETA by the script/' '${f.abs}'\n`);
    const terminal = (command: string) => ({ tool: 'run_in_terminal', input: { command, explanation: 'As asked.', isBackground: false } });
    let ended = false;
    const turn = await agentTurn(
      'builtin-terminal-script',
      [
        terminal('ls -la'),
        terminal(`sh '${script.abs}'`),
        () => {
          ended = true;
          return { text: 'Ran the script.' };
        },
      ],
      'Look around, then run the script.',
      { model: fakeModel().MODELS.sonnet },
    );
    // Copilot asks before a command it takes for a write, as the user has it: the user allows it
    if (waitsForTheUser(turn.response)) await allowUntil(() => ended, turn.tag);
    assert.ok(ended, `the turn ran to its end: ${safeJson(turn.response)}`);
    for (const r of fakeModel()
      .requests.filter((q) => q.tag === turn.tag)
      .at(-1)?.toolResults ?? [])
      assert.doesNotMatch(r.text, DENIED, `nothing was denied: ${r.text}`);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nBETA by the script\ngamma\n', 'the script ran');
    const edit = await waitFor(
      () =>
        editsApi()
          .editRecord()
          .find((e) => e.uri === f.uri.toString()),
      "the script's change in the record",
      10000,
    );
    assert.deepStrictEqual({ tool: edit.tool, agent: edit.agent }, { tool: 'run_in_terminal', agent: 'copilot' }, safeJson(edit));
    // the user changes another line and saves; then takes the script's change back
    await loadedFromDisk(doc, (t) => t.includes('BETA by the script'), "the editor to load the script's change");
    await userEdit(doc, 'gamma', 'gamma, kept by the user');
    assert.ok(await doc.save());
    const [result] = (await vscode.commands.executeCommand<Array<{ kind: string }>>('editGuard.revertEdit', edit.id)) ?? [];
    assert.strictEqual(result?.kind, 'reverted', safeJson(result));
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'alpha\nbeta\ngamma, kept by the user\n');
  });

  test('every built-in edit tool is gated: multi_replace_string_in_file, insert_edit_into_file, create_file (a new file passes)', async () => {
    const seenFile = makeFileAt('builtin/each-seen.txt', 'seen\n');
    const unread = makeFileAt('builtin/each-unread.txt', 'unread\n');
    const other = makeFileAt('builtin/each-other.txt', 'other\n');
    const fresh = path.join(workspaceRoot(), 'builtin', 'each-new.txt');
    const texts: Record<string, string> = {};
    const keep = (name: string) => (req: { toolResults: Array<{ name?: string; text: string }> }) => {
      texts[name] = req.toolResults.at(-1)?.text ?? '';
    };
    // sonnet: Copilot offers multi_replace_string_in_file and create_file
    await agentTurn(
      'builtin-each-1',
      [
        { tool: 'read_file', input: { filePath: seenFile.abs, startLine: 1, endLine: 1 } },
        {
          tool: 'multi_replace_string_in_file',
          input: {
            explanation: 'both',
            replacements: [
              { filePath: seenFile.abs, oldString: 'seen', newString: 'SEEN' },
              { filePath: unread.abs, oldString: 'unread', newString: 'UNREAD' },
            ],
          },
        },
        (req) => {
          keep('multi')(req);
          return { tool: 'create_file', input: { filePath: fresh, content: 'new file\n' } };
        },
        (req) => {
          keep('createNew')(req);
          return { text: 'done' };
        },
      ],
      'Edit.',
      { model: models().sonnet },
    );
    // a new chat (no marks) with the default fake model: Copilot offers insert_edit_into_file (it needs Copilot's edit service to apply, so only the denial is observable offline)
    await newChat();
    await agentTurn(
      'builtin-each-2',
      [
        { tool: 'insert_edit_into_file', input: { explanation: 'append', filePath: unread.abs, code: 'unread\nmore\n' } },
        (req) => {
          keep('insert')(req);
          return { tool: 'create_file', input: { filePath: other.abs, content: 'overwritten\n' } };
        },
        (req) => {
          keep('createExisting')(req);
          return { text: 'done' };
        },
      ],
      'Edit.',
    );
    assert.match(texts.multi, DENIED, texts.multi);
    assert.match(texts.multi, /nothing was applied to any of its 2 files, because one of them was changed or not read/);
    assert.match(texts.multi, /You have not read builtin\/each-unread\.txt/);
    assert.match(texts.createExisting, DENIED, 'create_file over an existing file is a write like any other');
    assert.doesNotMatch(texts.createNew, /denied/i, texts.createNew);
    assert.strictEqual(fs.readFileSync(fresh, 'utf8'), 'new file\n', 'a new file may be created without a read');
    assert.match(texts.insert, DENIED, texts.insert);
    assert.match(texts.insert, /You have not read builtin\/each-unread\.txt in this chat/, 'a new chat has no mark from the other chat');
    assert.strictEqual(fs.readFileSync(seenFile.abs, 'utf8'), 'seen\n', 'the denied multi-replace changed neither file');
    assert.strictEqual(fs.readFileSync(unread.abs, 'utf8'), 'unread\n');
    assert.strictEqual(fs.readFileSync(other.abs, 'utf8'), 'other\n');
  });

  test('a compaction of the chat forgets its marks: the next built-in edit of a file read before it is denied (not-read)', async () => {
    const logBefore = logText().length;
    // the read marked the file, Copilot compacted the chat, the replace was denied as not read: checked in the turn
    const { target } = await builtinAfterCompactionTurn();
    assert.match(logText().slice(logBefore), /is being compacted: forgot its read marks/, 'PreCompact reached the extension');
    assert.strictEqual(fs.readFileSync(target.abs, 'utf8'), 'keep\nme\n');
  });

  test('fail-open: with no extension to answer, or one that never answers, the script lets the call through within its bound', async () => {
    const saved = { socket: process.env[ENV_SOCKET], bound: process.env[ENV_BOUND] };
    const logBefore = logText().length;
    const hung = await hungListener();
    const goneAddress = await unusedLoopbackAddress();
    const f = makeFileAt('builtin/unreachable.txt', 'never read\n');
    const g = makeFileAt('builtin/unanswered.txt', 'never read\n');
    try {
      // 1. nothing listens there (the extension is not running there)
      process.env[ENV_SOCKET] = goneAddress;
      const t1 = await agentTurn(
        'builtin-unreachable',
        [{ tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'never read', newString: 'edited' } }, { text: 'done' }],
        'Edit.',
        { model: models().sonnet },
      );
      // 2. something listens and never answers: each hook waits out the bound (1.5 s here)
      process.env[ENV_SOCKET] = hung.address;
      process.env[ENV_BOUND] = '1500';
      const t2 = await agentTurn(
        'builtin-hung',
        [{ tool: 'replace_string_in_file', input: { filePath: g.abs, oldString: 'never read', newString: 'edited' } }, { text: 'done' }],
        'Edit.',
        { model: models().sonnet },
      );
      for (const t of [t1, t2]) assert.doesNotMatch(t.requests.at(-1)!.toolResults[0].text, /denied/i);
      assert.strictEqual((await vscode.workspace.openTextDocument(f.uri)).getText(), 'edited\n', 'the unchecked edit went through');
      assert.strictEqual((await vscode.workspace.openTextDocument(g.uri)).getText(), 'edited\n');
    } finally {
      process.env[ENV_SOCKET] = saved.socket;
      if (saved.bound === undefined) delete process.env[ENV_BOUND];
      else process.env[ENV_BOUND] = saved.bound;
      hung.close();
    }
    // the next request the extension gets reports what was let through meanwhile
    await runHookScript({ hook_event_name: 'UserPromptSubmit', session_id: 'x', prompt: 'next' });
    const log = logText().slice(logBefore);
    assert.match(log, /PreToolUse of replace_string_in_file .* was let through unchecked: could not reach the extension/);
    assert.match(log, /PreToolUse of replace_string_in_file .* was let through unchecked: no answer from the extension within 1500 ms/);
  });

  test('a forged request to the bridge without the secret is refused', async () => {
    const address = bridgeAddress();
    const logBefore = logText().length;
    const f = makeFileAt('builtin/forged.txt', 'secret stuff\n');
    const forge = (header: string, payload: object) =>
      new Promise<string>((resolve) => {
        const socket = net.createConnection(address);
        let reply = '';
        socket.on('data', (d) => (reply += d));
        socket.on('close', () => resolve(reply));
        socket.on('error', () => resolve('(error)'));
        socket.end(`${header}\n${JSON.stringify(payload)}`);
      });
    // a forged PostToolUse read would give a chat a mark it never earned; a forged check would leak the file
    const read = {
      hook_event_name: 'PostToolUse',
      session_id: 'forger',
      tool_name: 'read_file',
      tool_input: { filePath: f.abs },
      tool_response: '',
      cwd: workspaceRoot(),
    };
    const check = {
      hook_event_name: 'PreToolUse',
      session_id: 'forger',
      tool_name: 'replace_string_in_file',
      tool_input: { filePath: f.abs },
      cwd: workspaceRoot(),
    };
    for (const header of [
      'agent-edit-guard/2 0000 10',
      'agent-edit-guard/2',
      `agent-edit-guard/1 ${process.env[ENV_SECRET]}`,
      '',
      'GET / HTTP/1.1',
    ]) {
      assert.strictEqual(await forge(header, read), 'unauthorized\n', header);
      assert.strictEqual(await forge(header, check), 'unauthorized\n', header);
    }
    assert.deepStrictEqual(await marksFor(f.uri), [], 'no forged request reached the gate');
    assert.match(logText().slice(logBefore), /refused a request without this window's secret/);
    // the same request with the secret is answered (the script's way)
    const real = await runHookScript(check);
    assert.match(JSON.parse(real.stdout).hookSpecificOutput.permissionDecisionReason, /secret stuff/);
  });

  test('the hook command run as Copilot runs it: an event the gate ignores prints nothing, an edit of an unread file is denied', async () => {
    const f = makeFileAt('builtin/roundtrip.txt', 'x\n'.repeat(50));
    const ignored = await runHookScript({
      hook_event_name: 'PostToolUse',
      session_id: 'rt',
      tool_name: 'list_dir',
      tool_input: { path: workspaceRoot() },
      tool_response: '',
      cwd: workspaceRoot(),
    });
    assert.deepStrictEqual(ignored, { stdout: '', code: 0 }, 'no objection to a tool the gate does not guard');
    const denied = await runHookScript({
      hook_event_name: 'PreToolUse',
      session_id: 'rt-unread',
      tool_name: 'replace_string_in_file',
      tool_input: { filePath: f.abs, oldString: 'x', newString: 'y' },
      cwd: workspaceRoot(),
    });
    assert.strictEqual(denied.code, 0);
    const out = JSON.parse(denied.stdout).hookSpecificOutput;
    assert.strictEqual(out.hookEventName, 'PreToolUse');
    assert.strictEqual(out.permissionDecision, 'deny');
    assert.match(out.permissionDecisionReason, /You have not read builtin\/roundtrip\.txt in this chat/, out.permissionDecisionReason);
    assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'x\n'.repeat(50), 'a denied check changes nothing');
  });

  test("rule 12: two replace_string_in_file calls in one model response, from one read — the second rewrites lines around the one the first changed and is denied inexact-match; the file keeps the first edit, and the retry from the refusal's content lands both", async () => {
    const lines = [
      'export const config = {',
      "  name: 'service',",
      "  host: 'localhost',",
      '  port: 8080,',
      '  retries: 3,',
      '  timeoutMs: 5000,',
      '  verbose: false,',
      '  cache: true,',
      "  region: 'eu-west',",
      "  owner: 'platform',",
      '};',
    ];
    const f = makeFileAt('builtin/quote.ts', lines.map((l) => `${l}\n`).join(''));
    const textOf = (of: string[]) => of.map((l) => `${l}\n`).join('');
    /** lines `first`–`last` (1-based) of `of`, as an oldString */
    const quote = (of: string[], first: number, last: number) => of.slice(first - 1, last).join('\n');
    const swap = (of: string[], line: number, text: string) => of.map((l, i) => (i === line - 1 ? text : l));
    const retries = (of: string[]) => swap(of, 5, '  retries: 5,');
    const portAndVerbose = (of: string[]) => swap(swap(of, 4, '  port: 8443,'), 7, '  verbose: true,');
    // both from the same read, each with 3 lines of context around what it changes: the first changes line 5; the
    // second lines 4 and 7, so its oldString holds line 5 as it was. Copilot would match it by similarity (99%) and
    // write the second's newString over lines 4–7, putting `retries: 3` back (measured with the check taken out)
    const first = { filePath: f.abs, oldString: quote(lines, 2, 8), newString: quote(retries(lines), 2, 8) };
    const second = { filePath: f.abs, oldString: quote(lines, 1, 10), newString: quote(portAndVerbose(lines), 1, 10) };
    let whileBlocked = '';
    let diagnosticsWhileBlocked: vscode.Diagnostic[] = [];
    let shown: string[] = [];
    const turn = await agentTurn(
      'builtin-inexact',
      [
        { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 20 } },
        {
          calls: [
            { tool: 'replace_string_in_file', input: first },
            { tool: 'replace_string_in_file', input: second },
          ],
        },
        async (req) => {
          whileBlocked = (await vscode.workspace.openTextDocument(f.uri)).getText();
          diagnosticsWhileBlocked = guardDiagnostics(f.uri);
          // the retry quotes the file as the refusal showed it
          shown = [...lastResult(req).text.matchAll(/^\s*(\d+)\t(.*)$/gm)].map((m) => m[2]);
          return {
            tool: 'replace_string_in_file',
            input: { filePath: f.abs, oldString: quote(shown, 1, 10), newString: quote(portAndVerbose(shown), 1, 10) },
          };
        },
        { text: 'All three changes are in.' },
      ],
      'Set retries to 5, the port to 8443 and verbose to true.',
      { model: models().sonnet },
    );
    const results = turn.requests.at(-1)!.toolResults;
    assert.deepStrictEqual(
      results.map((r) => r.name),
      ['read_file', 'replace_string_in_file', 'replace_string_in_file', 'replace_string_in_file'],
      safeJson(results.map((r) => [r.name, r.text.slice(0, 200)])),
    );
    const [, landed, denied, retry] = results;
    assert.doesNotMatch(landed.text, /denied|BLOCKED/i, landed.text);
    assert.match(denied.text, DENIED, denied.text);
    assert.match(
      denied.text,
      /An oldString of your replace is not in builtin\/quote\.ts as written, so the tool would apply it by approximate matching, over lines you did not quote/,
    );
    assert.strictEqual(
      whileBlocked,
      textOf(retries(lines)),
      'Copilot ran the first replace, and the denial kept the second from putting `retries: 3` back',
    );
    assert.deepStrictEqual(shown, retries(lines), 'the refusal showed the whole current text, numbered');
    assert.strictEqual(diagnosticsWhileBlocked.length, 1, 'the denial put a diagnostic on the file');
    assert.match(diagnosticsWhileBlocked[0].message, /oldString is not in the file as written/);
    assert.doesNotMatch(retry.text, /denied|BLOCKED/i, retry.text);
    const doc = await vscode.workspace.openTextDocument(f.uri);
    assert.strictEqual(doc.getText(), textOf(portAndVerbose(retries(lines))), 'both edits landed');
    await waitFor(
      () => /blocked replace_string_in_file on builtin\/quote\.ts: inexact-match/.test(logText()),
      'the block in the "Agent Edit Guard" log',
      5000,
    );
    const origins = (await marksFor(f.uri)).map((m) => m.origin);
    assert.deepStrictEqual([...new Set(origins)].sort(), ['read', 'refusal', 'write'], safeJson(origins));
  });

  test('setting off: the hooks file is gone and nothing is gated', async () => {
    await setGuardBuiltinTools(false);
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), '.github')), 'the folders the extension made are gone too');
    assert.strictEqual(process.env[ENV_SOCKET], undefined, 'the bridge stopped');
    // (whether or not Copilot has noticed the file is gone: with the bridge stopped its command exits at once)
    const f = makeFileAt('builtin/ungated.txt', 'never read\n');
    const turn = await agentTurn(
      'builtin-off',
      [{ tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'never read', newString: 'edited' } }, { text: 'done' }],
      'Edit.',
      { model: models().sonnet },
    );
    assert.doesNotMatch(turn.requests.at(-1)!.toolResults[0].text, /denied/i);
    assert.strictEqual((await vscode.workspace.openTextDocument(f.uri)).getText(), 'edited\n');
  });
});
