// The scripted Copilot agent turns that both the Copilot suite and `npm run copilot:capture` run: the
// files a turn makes, the model's steps (the fake model of test/copilot/fake-model answers with them),
// and the checks of what the model was shown that the tests and the capture's sections both rest on.
// The tests (copilot.test.ts, builtinTools.test.ts) assert the rest; scripts/screenshots/copilot.ts
// records the texts, so what-the-agent-sees*.md shows the very turns the tests check. Each turn runs in
// the chat the caller opened; a failed check throws (an AssertionError) in a test and in the script alike.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { GREETING_TS, guardDiagnostics } from '../integration/helpers';
import {
  agentTurn,
  fakeModel,
  lastResult,
  makeFileAt,
  marksFor,
  ModelRequest,
  newChat,
  READ,
  REPLACE,
  resultsOf,
  safeJson,
  sleep,
  TestFile,
  userEdit,
  waitFor,
  workspaceRoot,
  WRITE,
} from './agent';

export const BLOCKED = 'BLOCKED: nothing was written.';
/** Copilot's answer to the model for a tool call a PreToolUse hook denied */
export const DENIED = /^Tool execution denied: /;

// ---------------------------------------------------------------------------------------------
// the guarded tools (copilot.test.ts)

/**
 * The user types while the agent works: the model reads src/greeting.ts, the user changes line 7 in
 * the editor (not saved), the model's replace from its old copy is blocked, its retry from what the
 * refusal showed passes. Untagged, so the chat shows the prompt as a user would type it (the capture's screenshot).
 */
export async function staleEditTurn() {
  const f = makeFileAt('src/greeting.ts', GREETING_TS);
  const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
  const userLine = '  return `Good morning, ${g.name}${g.punctuation}`;';
  const turn = await agentTurn(
    'b-stale',
    [
      { tool: READ, input: { filePath: f.rel } },
      async (req) => {
        assert.match(lastResult(req).text, /^\s*7\t {2}return `Hello, \$\{g\.name\}\$\{g\.punctuation\}`;$/m, 'the read showed line 7');
        // the user changes line 7 in the editor while the turn runs (not saved) — after the agent's read
        await userEdit(doc, 'Hello', 'Good morning');
        // the model edits from its old copy
        return {
          tool: REPLACE,
          input: {
            filePath: f.rel,
            oldString: '  return `Hello, ${g.name}${g.punctuation}`;',
            newString: '  return `Hello, ${g.name}${g.punctuation}!`;',
          },
        };
      },
      (req) => {
        const r = lastResult(req);
        assert.ok(r.text.startsWith(BLOCKED), `the model is told it was blocked:\n${r.text}`);
        // the retry, from what the refusal showed
        return {
          tool: REPLACE,
          input: { filePath: f.rel, oldString: userLine, newString: '  return `Good morning, ${g.name}${g.punctuation}!`;' },
        };
      },
      { text: 'Added the exclamation mark, keeping your "Good morning".' },
    ],
    'Add an exclamation mark to the greeting in src/greeting.ts.',
    { untagged: true },
  );
  const results = resultsOf(turn);
  assert.strictEqual(results.length, 3, safeJson(results.map((r) => r.text)));
  const [read, blocked, retry] = results;
  assert.ok(blocked.text.startsWith(BLOCKED), blocked.text);
  assert.doesNotMatch(retry.text, /BLOCKED|ERROR/, retry.text);
  return { f, doc, read, blocked, retry };
}

/** The model overwrites notes/todo.md, which it never read: refused, with the current content; its retry passes. */
export async function blindWriteTurn() {
  const original = '# TODO\n\n- write the docs\n- ship it\n';
  const f = makeFileAt('notes/todo.md', original);
  const wanted = '# TODO\n\n- write the docs\n- ship it\n- celebrate\n';
  const turn = await agentTurn(
    'c-blind',
    [
      { tool: WRITE, input: { filePath: f.rel, content: '# TODO\n\n- celebrate\n' } },
      (req) => {
        assert.ok(lastResult(req).text.startsWith(BLOCKED), lastResult(req).text);
        return { tool: WRITE, input: { filePath: f.rel, content: wanted } };
      },
      { text: 'Done.' },
    ],
    'Add "celebrate" to notes/todo.md.',
  );
  const [blocked, retry] = resultsOf(turn);
  assert.ok(blocked.text.startsWith(BLOCKED), blocked.text);
  assert.match(blocked.text, /not read/);
  assert.doesNotMatch(retry.text, /BLOCKED|ERROR/, retry.text);
  return { f, original, wanted, blocked, retry };
}

/** The file of the own-write turns: src/version.txt, "v1". */
export const versionFile = () => makeFileAt('src/version.txt', 'v1\n');

/** Turn 1 of a chat: read, write, then replace on top of the own write — same turn: all allowed (sameTurn). */
export async function ownWriteFirstTurn(f: TestFile) {
  const turn = await agentTurn('d-turn1', [
    { tool: READ, input: { filePath: f.rel } },
    { tool: WRITE, input: { filePath: f.rel, content: 'v2\n' } },
    { tool: REPLACE, input: { filePath: f.rel, oldString: 'v2', newString: 'v3' } },
    { text: 'v3 it is.' },
  ]);
  const results = resultsOf(turn);
  assert.strictEqual(results.length, 3);
  for (const r of results) assert.doesNotMatch(r.text, /BLOCKED|ERROR/, r.text);
  return turn;
}

/** Turn 2 of the same chat: a replace without reading, the own write of turn 1 no longer counts; then the same replace again (the refusal counts as a read). */
export async function ownWriteNextTurn(f: TestFile) {
  const turn = await agentTurn('d-turn2', [
    { tool: REPLACE, input: { filePath: f.rel, oldString: 'v3', newString: 'v4' } },
    (req) => {
      assert.ok(lastResult(req).text.startsWith(BLOCKED), lastResult(req).text);
      return { tool: REPLACE, input: { filePath: f.rel, oldString: 'v3', newString: 'v4' } };
    },
    { text: 'v4 now.' },
  ]);
  const [expired, again] = resultsOf(turn);
  assert.ok(expired.text.startsWith(BLOCKED), expired.text);
  assert.match(expired.text, /earlier turn/);
  return { turn, expired, again };
}

/** A file of `total` numbered lines, `line 7 of the long file`: the read tests look for them by number. */
const longFile = (rel: string, total: number) =>
  makeFileAt(rel, Array.from({ length: total }, (_, i) => `line ${i + 1} of the long file`).join('\n') + '\n');

/** A 300-line file read whole with editGuard.maxReadLines = 120 (set for the turn only): cut, with an offset hint the model follows. */
export async function readCutTurn() {
  // a cap small enough that the result stays inline (Copilot spills tool results over 8 KB to a file: see longReadTurn)
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('maxReadLines', 120, vscode.ConfigurationTarget.Workspace);
  try {
    const total = 300;
    const f = longFile('data/long.txt', total);
    let hinted: number | undefined;
    const turn = await agentTurn('e-cap', [
      { tool: READ, input: { filePath: f.rel } },
      (req: ModelRequest) => {
        const tail = lastResult(req).text.split('\n').slice(-4).join('\n');
        const m = /offset:?\s*(\d+)/i.exec(tail);
        assert.ok(m, `the cut read says where to continue:\n${tail}`);
        hinted = Number(m[1]);
        return { tool: READ, input: { filePath: f.rel, offset: hinted, limit: 100 } };
      },
      { text: 'Read it all.' },
    ]);
    const [first, second] = resultsOf(turn);
    assert.match(first.text, /at most 120 lines per read/);
    return { total, hinted, first, second };
  } finally {
    await config.update('maxReadLines', undefined, vscode.ConfigurationTarget.Workspace);
  }
}

/** A 2150-line file (~62 KB) read at the default settings: the result stays under Copilot's 8 KB; the model reads on from the offset it names. */
export async function longReadTurn() {
  const total = 2150;
  const f = longFile('data/longer.txt', total);
  let next: number | undefined;
  const turn = await agentTurn('e2-budget', [
    { tool: READ, input: { filePath: f.rel } },
    (req: ModelRequest) => {
      const m = /offset: (\d+)/.exec(lastResult(req).text);
      next = m ? Number(m[1]) : undefined;
      return next ? { tool: READ, input: { filePath: f.rel, offset: next, limit: 20 } } : { text: 'No offset hint.' };
    },
    { text: 'Done.' },
  ]);
  const [first, second] = resultsOf(turn);
  assert.ok(first.text.length < 8192, `${first.text.length} characters`);
  return { total, next, first, second };
}

/** 400 lines of TypeScript (~26 KB, over Copilot's 8 KB) the model never read. */
export const LARGE_TS =
  Array.from({ length: 400 }, (_, i) => `const value${i + 1} = ${i + 1}; // a line of a file the model never read`).join('\n') + '\n';

/** A blind write to src/big.ts, a file over 8 KB: refused. */
export async function blindWriteToALargeFileTurn() {
  const f = makeFileAt('src/big.ts', LARGE_TS);
  const turn = await agentTurn('f-big-blind', [
    { tool: WRITE, input: { filePath: f.rel, content: 'export const done = true;\n' } },
    { text: 'Blocked; I will read the file first.' },
  ]);
  const [blocked] = resultsOf(turn);
  assert.ok(blocked.text.startsWith(BLOCKED), blocked.text.slice(0, 300));
  return { f, original: LARGE_TS, blocked };
}

export const FIRST_PART = 'FIRST PART: short, and meant to stay inline.';

/** The test-only tool editguardTest_twoParts (test/copilot/fake-model): a short text part, then one of 20,000 characters. */
export async function twoPartsTurn() {
  const turn = await agentTurn('g-parts', [{ tool: 'editguardTest_twoParts', input: { longChars: 20000 } }, { text: 'Seen.' }]);
  const [r] = resultsOf(turn);
  assert.ok(r, 'the test tool ran');
  // Copilot hands the model ONE text part: each part of ours rendered on its own (a part over 8 KB becomes a
  // pointer to a file), then joined with nothing in between
  assert.ok(r.text.startsWith(FIRST_PART), `the short part reached the model as it was: ${r.text.slice(0, 200)}`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Copilot's built-in tools behind the gate (builtinTools.test.ts): editGuard.guardCopilotTools on

export const GUARD_COPILOT_SETTING = 'guardCopilotTools';
export const hooksFile = () => path.join(workspaceRoot(), '.github', 'hooks', 'agent-edit-guard.json');

/** `editGuard.guardCopilotTools` in this workspace: `workspace` (its file in the folder) or not set. */
export async function setGuardBuiltinTools(on: boolean): Promise<void> {
  await vscode.workspace
    .getConfiguration('editGuard', null)
    .update(GUARD_COPILOT_SETTING, on ? 'workspace' : undefined, vscode.ConfigurationTarget.Workspace);
  await waitFor(() => fs.existsSync(hooksFile()) === on, `the hooks file to be ${on ? 'written' : 'removed'}`, 10000);
}

let probes = 0;
/**
 * Copilot picks up a new hooks file within a few seconds: wait until a built-in read of a new probe
 * file is marked through it (a new file each time: an earlier suite's mark must not count). Should
 * VS Code's watcher still miss the file (src/agents/copilot/node/hooksFileOnDisk.ts `writeOurHooksFile` says how it can), a change of
 * `chat.hookFilesLocations` makes VS Code list its hook files again.
 */
export async function waitUntilHooksAreLive(): Promise<void> {
  // each test file bundles its own copy of this module: the time keeps probes of different suites apart
  const probe = makeFileAt(`builtin/probe-${Date.now()}-${++probes}.txt`, 'probe\n');
  for (let attempt = 1; attempt <= 8; attempt++) {
    await newChat();
    await agentTurn(
      'hooks-live',
      [{ tool: 'read_file', input: { filePath: probe.abs, startLine: 1, endLine: 1 } }, { text: 'read.' }],
      'Read the probe.',
      { model: fakeModel().MODELS.sonnet },
    );
    if ((await marksFor(probe.uri)).length > 0) return;
    if (attempt % 3 === 0) {
      // VS Code drops its list of hook files when chat.hookFilesLocations changes: a harmless change makes it list them again
      const chat = vscode.workspace.getConfiguration('chat');
      await chat.update('hookFilesLocations', { '.github/hooks': true }, vscode.ConfigurationTarget.Workspace);
      await sleep(1000);
      await chat.update('hookFilesLocations', undefined, vscode.ConfigurationTarget.Workspace);
      await sleep(1000);
    }
    await sleep(1000);
  }
  assert.fail('Copilot never ran the hooks of agent-edit-guard.json (no read mark from a built-in read_file)');
}

/**
 * replace_string_in_file after the user's unsaved edit: denied; after a fresh read_file the replace
 * passes, a second replace in the same turn too (the agent's own write counts as seen), and our own
 * editGuard_readFile runs in the same chat. `diagnosticsWhileBlocked`: the file's guard diagnostics right after the denial.
 */
export async function builtinStaleReplaceTurn() {
  const f = makeFileAt('builtin/greeting.ts', GREETING_TS);
  const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
  const oldLine = '  return `Hello, ${g.name}${g.punctuation}`;';
  const userLine = '  return `Good morning, ${g.name}${g.punctuation}`;';
  let denied = '';
  let diagnosticsWhileBlocked: vscode.Diagnostic[] = [];
  const turn = await agentTurn(
    'builtin-stale',
    [
      { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 20 } },
      async () => {
        // the user edits line 7 and does not save, after the agent's read
        await userEdit(doc, 'Hello', 'Good morning');
        return { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: oldLine, newString: oldLine.replace('`;', '!`;') } };
      },
      (req) => {
        denied = lastResult(req).text;
        diagnosticsWhileBlocked = guardDiagnostics(f.uri);
        return { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 20 } };
      },
      { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: userLine, newString: userLine.replace('`;', '!`;') } },
      // a second edit in the same turn: the agent's own write counts as seen (editGuard.ownWriteKeepsMark = sameTurn)
      { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: '  name: string;', newString: '  name: string; // who' } },
      // our own read in the same chat: the same session as the built-ins
      { tool: 'editGuard_readFile', input: { filePath: f.rel } },
      { text: 'Done, keeping your "Good morning".' },
    ],
    'Add an exclamation mark to the greeting.',
    { model: fakeModel().MODELS.sonnet },
  );
  assert.match(denied, DENIED, denied);
  return { f, doc, oldLine, userLine, turn, denied, diagnosticsWhileBlocked };
}

/** apply_patch (offered to a gpt model) over builtin/patch-a.txt and patch-b.txt, both read, then b changed by the user: denied. */
export async function builtinApplyPatchTurn() {
  const a = makeFileAt('builtin/patch-a.txt', 'alpha\nbeta\n');
  const b = makeFileAt('builtin/patch-b.txt', 'one\ntwo\n');
  const docB = await vscode.workspace.openTextDocument(b.uri);
  const patch = `*** Begin Patch\n*** Update File: ${a.abs}\n@@\n-beta\n+BETA\n*** Update File: ${b.abs}\n@@\n-two\n+TWO\n*** End Patch`;
  let denied = '';
  const turn = await agentTurn(
    'builtin-patch',
    [
      { tool: 'read_file', input: { filePath: a.abs, startLine: 1, endLine: 2 } },
      { tool: 'read_file', input: { filePath: b.abs, startLine: 1, endLine: 2 } },
      async () => {
        await userEdit(docB, 'one', 'one (the user)');
        return { tool: 'apply_patch', input: { explanation: 'Upper-case the second lines.', input: patch } };
      },
      (req) => {
        denied = lastResult(req).text;
        return { text: 'The patch was refused.' };
      },
    ],
    'Upper-case the second line of both files.',
    { model: fakeModel().MODELS.gpt },
  );
  assert.match(denied, DENIED, denied);
  return { a, b, docB, turn, denied };
}

/**
 * builtin/compact.txt read (and marked), then five reads of a large file that overflow the small model's
 * context, so Copilot compacts the chat; then a replace in compact.txt: denied as not read.
 */
export async function builtinAfterCompactionTurn() {
  const requestsBefore = fakeModel().requests.length;
  const target = makeFileAt('builtin/compact.txt', 'keep\nme\n');
  const big = makeFileAt(
    'builtin/big.txt',
    Array.from({ length: 2000 }, (_, i) => `line ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join('\n') + '\n',
  );
  let markedBefore = 0;
  let denied = '';
  const reads = [1, 401, 801, 1201, 1601].map((start) => ({
    tool: 'read_file',
    input: { filePath: big.abs, startLine: start, endLine: start + 399 },
  }));
  await agentTurn(
    'builtin-compact',
    [
      { tool: 'read_file', input: { filePath: target.abs, startLine: 1, endLine: 2 } },
      async () => {
        // the read's PostToolUse may still be on its way
        markedBefore = (await waitFor(async () => (await marksFor(target.uri)).length, 'the read mark of the first read_file', 5000).catch(
          () => 0,
        )) as number;
        return reads[0];
      },
      ...reads.slice(1),
      { tool: 'replace_string_in_file', input: { filePath: target.abs, oldString: 'keep', newString: 'kept' } },
      (req) => {
        denied = req.toolResults.filter((r) => r.name === 'replace_string_in_file').at(-1)?.text ?? '(no result)';
        return { text: 'done' };
      },
    ],
    'Read the files, then edit.',
    { model: fakeModel().MODELS.small },
  );
  // this turn's compactions only (a compaction request may no longer carry the turn's tag)
  const compactions = fakeModel()
    .requests.slice(requestsBefore)
    .filter((r) => (r as { compaction?: boolean }).compaction).length;
  assert.ok(markedBefore > 0, 'the first read_file marked the file');
  assert.ok(compactions > 0, "Copilot compacted the conversation (the small model's context overflowed)");
  assert.match(denied, DENIED, denied);
  assert.match(denied, /You have not read builtin\/compact\.txt in this chat/, denied);
  return { target, denied };
}
