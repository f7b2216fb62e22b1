// The scripted Copilot agent turns that both the Copilot suite and `npm run copilot:capture` run: the
// files a turn makes, the model's steps (the fake model of test/copilot/fake-model answers with them),
// and the checks of what the model was shown that the tests and the capture's sections both rest on.
// The tests (copilot.test.ts) assert the rest; scripts/screenshots/copilot.ts
// records the texts, so what-the-agent-sees*.md shows the very turns the tests check. Each turn runs in
// the chat the caller opened; a failed check throws (an AssertionError) in a test and in the script alike.
import * as vscode from 'vscode';
import * as assert from 'assert';
import { GREETING_TS } from '../integration/helpers';
import { agentTurn, lastResult, makeFile, ModelRequest, READ, REPLACE, resultsOf, safeJson, TestFile, userEdit, WRITE } from './agent';

export const BLOCKED = 'BLOCKED: nothing was written.';

// ---------------------------------------------------------------------------------------------
// the guarded tools (copilot.test.ts)

/**
 * The user types while the agent works: the model reads src/greeting.ts, the user changes line 7 in
 * the editor (not saved), the model's replace from its old copy is blocked, its retry from what the
 * refusal showed passes. Untagged, so the chat shows the prompt as a user would type it (the capture's screenshot).
 */
export async function staleEditTurn() {
  const f = makeFile('src/greeting.ts', GREETING_TS);
  const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
  const userLine = '  return `Good morning, ${g.name}${g.punctuation}`;';
  const turn = await agentTurn('b-stale', [
    { tool: READ, input: { filePath: f.rel } },
    async (req) => {
      assert.match(lastResult(req).text, /^\s*7\t {2}return `Hello, \$\{g\.name\}\$\{g\.punctuation\}`;$/m, 'the read showed line 7');
      // the user changes line 7 in the editor while the turn runs (not saved) — after the agent's read
      await userEdit(doc, 'Hello', 'Good morning');
      // the model edits from its old copy
      return { tool: REPLACE, input: { filePath: f.rel, oldString: '  return `Hello, ${g.name}${g.punctuation}`;', newString: '  return `Hello, ${g.name}${g.punctuation}!`;' } };
    },
    (req) => {
      const r = lastResult(req);
      assert.ok(r.text.startsWith(BLOCKED), `the model is told it was blocked:\n${r.text}`);
      // the retry, from what the refusal showed
      return { tool: REPLACE, input: { filePath: f.rel, oldString: userLine, newString: '  return `Good morning, ${g.name}${g.punctuation}!`;' } };
    },
    { text: 'Added the exclamation mark, keeping your "Good morning".' },
  ], 'Add an exclamation mark to the greeting in src/greeting.ts.', { untagged: true });
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
  const f = makeFile('notes/todo.md', original);
  const wanted = '# TODO\n\n- write the docs\n- ship it\n- celebrate\n';
  const turn = await agentTurn('c-blind', [
    { tool: WRITE, input: { filePath: f.rel, content: '# TODO\n\n- celebrate\n' } },
    (req) => {
      assert.ok(lastResult(req).text.startsWith(BLOCKED), lastResult(req).text);
      return { tool: WRITE, input: { filePath: f.rel, content: wanted } };
    },
    { text: 'Done.' },
  ], 'Add "celebrate" to notes/todo.md.');
  const [blocked, retry] = resultsOf(turn);
  assert.ok(blocked.text.startsWith(BLOCKED), blocked.text);
  assert.match(blocked.text, /not read/);
  assert.doesNotMatch(retry.text, /BLOCKED|ERROR/, retry.text);
  return { f, original, wanted, blocked, retry };
}

/** The file of the own-write turns: src/version.txt, "v1". */
export const versionFile = () => makeFile('src/version.txt', 'v1\n');

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
const longFile = (rel: string, total: number) => makeFile(rel, Array.from({ length: total }, (_, i) => `line ${i + 1} of the long file`).join('\n') + '\n');

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
export const LARGE_TS = Array.from({ length: 400 }, (_, i) => `const value${i + 1} = ${i + 1}; // a line of a file the model never read`).join('\n') + '\n';

/** A blind write to src/big.ts, a file over 8 KB: refused. */
export async function blindWriteToALargeFileTurn() {
  const f = makeFile('src/big.ts', LARGE_TS);
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
  const turn = await agentTurn('g-parts', [
    { tool: 'editguardTest_twoParts', input: { longChars: 20000 } },
    { text: 'Seen.' },
  ]);
  const [r] = resultsOf(turn);
  assert.ok(r, 'the test tool ran');
  // Copilot hands the model ONE text part: each part of ours rendered on its own (a part over 8 KB becomes a
  // pointer to a file), then joined with nothing in between
  assert.ok(r.text.startsWith(FIRST_PART), `the short part reached the model as it was: ${r.text.slice(0, 200)}`);
  return r;
}
