// The guarded tools under GitHub Copilot Chat's own agent loop (docs/design.md §VS Code and Copilot facts): Copilot's agent mode, its system
// prompt, its way of offering tools and passing results back, its turn ids — against the scripted fake
// model of test/copilot/fake-model, which records what Copilot sent it. Every assertion on "what the
// model received" is on that record: Copilot passes only the TEXT part of a tool result to the model.
// The record of those texts (what-the-agent-sees.md, shown in docs/what-the-agent-sees.md) and the Copilot screenshot are made by
// `npm run copilot:capture` (scripts/screenshots/copilot.ts), not by this suite. The turns the capture
// runs too are in turns.ts, with the checks of what the model was shown that both rest on; the tests
// here assert the rest.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { GREETING_TS } from '../integration/helpers';
import {
  agentTurn,
  diskText,
  fakeModel,
  EXTENSION_ID,
  makeFileAt,
  marksFor,
  newChat,
  READ,
  REPLACE,
  resultsOf,
  safeJson,
  WRITE,
} from './agent';
import { copilotSuiteHooks } from './suite';
import {
  BLOCKED,
  blindWriteToALargeFileTurn,
  blindWriteTurn,
  FIRST_PART,
  LARGE_TS,
  longReadTurn,
  ownWriteFirstTurn,
  ownWriteNextTurn,
  readCutTurn,
  staleEditTurn,
  twoPartsTurn,
  versionFile,
} from './turns';

/** Copilot's stand-in for a tool result over 8 KB (github.copilot.chat.agent.largeToolResultsToDisk). */
const SPILL = /^Large tool result \(\d+KB\) written to file\. Use the read_file tool to access the content at: (.+)$/m;

const CODE = GREETING_TS;

/** Copilot's id of a turn: `metadata.responseId` of the chat result (what it passes tools as chatRequestId). */
function responseIdOf(turn: { response: unknown }): string | undefined {
  return (turn.response as { metadata?: { responseId?: string } } | undefined)?.metadata?.responseId;
}

suite('Copilot agent mode: the guarded tools under the real agent loop', function () {
  copilotSuiteHooks();

  teardown(async () => {
    await vscode.workspace.getConfiguration('editGuard', null).update('maxReadLines', undefined, vscode.ConfigurationTarget.Workspace);
  });

  suiteTeardown(() => {
    // every request Copilot sent the fake model, for debugging
    if (process.env.RUN_DIR)
      fs.writeFileSync(path.join(process.env.RUN_DIR, 'fake-model-requests.json'), JSON.stringify(fakeModel().requests, null, 1));
  });

  test('Copilot offers editGuard_readFile, editGuard_writeFile and editGuard_replaceString with our schemas and descriptions', async () => {
    const turn = await agentTurn('a-offer', [{ text: 'Nothing to do.' }], 'Which tools do you have?');
    const req = turn.requests[0];
    if (process.env.RUN_DIR) fs.writeFileSync(path.join(process.env.RUN_DIR, 'copilot-first-request.json'), JSON.stringify(req, null, 1));
    const contributed: Array<{ name: string; modelDescription: string; inputSchema: unknown }> =
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.languageModelTools;
    for (const name of [READ, WRITE, REPLACE]) {
      const offered = req.tools.find((t) => t.name === name);
      assert.ok(offered, `Copilot offers ${name}; offered: ${req.tools.map((t) => t.name).join(', ')}`);
      const ours = contributed.find((t) => t.name === name)!;
      assert.strictEqual(offered.description, ours.modelDescription, `${name}: the model gets our modelDescription`);
      assert.deepStrictEqual(offered.inputSchema, ours.inputSchema, `${name}: the model gets our input schema`);
    }
    // it is Copilot's agent loop talking: its system prompt and its own tools are in the same request
    const system = req.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''))
      .join('\n');
    assert.ok(system.length > 500, `Copilot sent a system prompt (${system.length} chars)`);
    assert.ok(
      req.tools.some((t) => t.name === 'read_file'),
      'Copilot offers its own read_file too',
    );
  });

  test('stale edit prevented: the user types while the agent works; the stale replace is blocked with the change, the retry keeps both (rules 2, 6)', async function () {
    const { f, doc, blocked, retry } = await staleEditTurn();
    assert.match(blocked.text, /changed since you last read it/);
    assert.match(blocked.text, /edited in the editor, not yet saved/, 'the model is told what changed it');
    assert.match(blocked.text, /^-\s*return `Hello, /m, 'the diff shows the old line');
    assert.match(blocked.text, /^\+\s*return `Good morning, /m, "the diff shows the user's line");
    assert.match(blocked.text, /counts as reading the file/i);
    assert.match(retry.text, /left unsaved/);

    assert.strictEqual(
      doc.getText(),
      CODE.replace('  return `Hello, ${g.name}${g.punctuation}`;', '  return `Good morning, ${g.name}${g.punctuation}!`;'),
      "the file holds the user's change and the agent's",
    );
    assert.ok(doc.isDirty, "the user's change is still unsaved");
    assert.strictEqual(diskText(f), CODE, 'nothing was saved to disk');
  });

  test('blind write refused: overwriting a file never read shows the model the current content; its retry passes (rules 2, 6)', async () => {
    const { f, original, wanted, blocked, retry } = await blindWriteTurn();
    for (const [i, line] of original.split('\n').slice(0, 4).entries()) {
      assert.ok(
        blocked.text.split('\n').some((l) => l.replace(/^\s*/, '') === `${i + 1}\t${line}`),
        `the refusal shows line ${i + 1} of the current content:\n${blocked.text}`,
      );
    }
    assert.match(retry.text, /saved/);
    assert.strictEqual(diskText(f), wanted);
  });

  test("turns and chats: Copilot's turn id keeps an own write's mark within the turn only; a new chat inherits nothing (rule 3)", async () => {
    const f = versionFile();
    // turn 1: read, write, then replace on top of the own write — same turn: allowed (sameTurn)
    const t1 = await ownWriteFirstTurn(f);
    assert.strictEqual(diskText(f), 'v3\n');
    const m1 = (await marksFor(f.uri)).at(-1);
    assert.ok(m1 && m1.origin === 'write' && m1.turn, `an own-write mark with Copilot's turn id: ${safeJson(m1)}`);
    // Copilot passes its own turn id as chatRequestId: it is the responseId of the turn's result
    assert.strictEqual(m1.turn, responseIdOf(t1), "the mark's turn is Copilot's id for turn 1");

    // turn 2, same chat: the own write of turn 1 no longer counts
    const { turn: t2, again } = await ownWriteNextTurn(f);
    assert.doesNotMatch(again.text, /BLOCKED|ERROR/, again.text);
    assert.strictEqual(diskText(f), 'v4\n');
    const marks2 = await marksFor(f.uri);
    const refusal = marks2.find((m) => m.origin === 'refusal');
    assert.ok(refusal, safeJson(marks2));
    assert.strictEqual(refusal.session, m1.session, 'the same chat session');
    assert.ok(refusal.turn && refusal.turn !== m1.turn, `another turn id: ${refusal.turn} vs ${m1.turn}`);
    assert.strictEqual(refusal.turn, responseIdOf(t2), "the refusal's turn is Copilot's id for turn 2");
    // the history of turn 1 reached the model in turn 2 (same chat)
    assert.ok(
      t2.requests[0].messages.some((m) => m.parts.some((p) => p.type === 'text' && p.text.includes('[[d-turn1'))),
      'turn 2 carries turn 1 in its history',
    );

    // a new chat: no marks of the old one count
    await newChat();
    const t3 = await agentTurn('d-newchat', [
      { tool: REPLACE, input: { filePath: f.rel, oldString: 'v4', newString: 'v5' } },
      { text: 'Blocked, stopping.' },
    ]);
    const [fresh] = resultsOf(t3);
    assert.ok(fresh.text.startsWith(BLOCKED), fresh.text);
    assert.match(fresh.text, /not read/);
    assert.ok(
      !t3.requests[0].messages.some((m) => m.parts.some((p) => p.type === 'text' && p.text.includes('[[d-turn'))),
      'the new chat has no history of the old one',
    );
    assert.strictEqual(diskText(f), 'v4\n');
    const m3 = (await marksFor(f.uri)).at(-1);
    assert.ok(m3 && m3.session !== m1.session, 'the new chat is another session');
  });

  test('a read longer than the line cap stops there with an offset hint; the ranged follow-up read works', async () => {
    const { hinted, first, second } = await readCutTurn();
    assert.strictEqual(hinted, 121);
    assert.match(first.text, /^\s*120\tline 120 of the long file$/m);
    assert.doesNotMatch(first.text, /^\s*121\t/m, 'line 121 is not shown');
    assert.match(second.text, /^\s*121\tline 121 of the long file$/m);
    assert.match(second.text, /^\s*220\tline 220 of the long file$/m);
    assert.doesNotMatch(second.text, /^\s*(120|221)\t/m, 'exactly lines 121–220');
    assert.match(second.text, /offset:? 221/, 'the ranged read says where to go on');
  });

  test('a long read at the default settings stays under 8 KB, inline, with the next offset; the follow-up read works', async () => {
    const { next, first, second } = await longReadTurn();
    assert.doesNotMatch(first.text, SPILL, 'the read reached the model inline, not as a file pointer');
    assert.ok(next && next > 100 && next < 2000, `the hint names the next line: ${next}`);
    assert.match(
      first.text,
      new RegExp(`^\\s*${next! - 1}\\tline ${next! - 1} of the long file$`, 'm'),
      'the last line shown is the one before the hint',
    );
    assert.ok(second, 'the model read on');
    assert.match(second.text, new RegExp(`^\\s*${next}\\tline ${next} of the long file$`, 'm'));
  });

  test('a blind write to a file over 8 KB: the refusal stays inline, so the model sees BLOCKED and the start of the file', async () => {
    const { f, original, blocked } = await blindWriteToALargeFileTurn();
    assert.doesNotMatch(blocked.text, SPILL, 'no part of the refusal was written to a file');
    assert.match(blocked.text, /^\s*1\tconst value1 = 1;/m, 'the start of the current content');
    assert.match(blocked.text, /Next: editGuard_readFile with offset: \d+/, 'where to read on');
    assert.strictEqual(diskText(f), original, 'nothing was written');
  });

  test('Copilot spills each text part of a tool result on its own: a short first part stays inline', async () => {
    // the test tool ran, and its short first part reached the model as it was: checked in twoPartsTurn
    const r = await twoPartsTurn();
    assert.match(r.text.slice(FIRST_PART.length), SPILL, 'the long part was spilled to a file');
  });

  test('the JSON part of our results never reaches the model (text only): ok, blocked, large and error results alike', async () => {
    // every kind of result of the three tools, in one turn of this test's own
    const f = makeFileAt('json-part/notes.md', '# notes\n\n- one\n');
    const big = makeFileAt('json-part/big.ts', LARGE_TS);
    const turn = await agentTurn('json-part', [
      { tool: WRITE, input: { filePath: f.rel, content: '# notes\n' } },
      { tool: WRITE, input: { filePath: f.rel, content: '# notes\n\n- one\n- two\n' } },
      { tool: REPLACE, input: { filePath: f.rel, oldString: '- two', newString: '- two, done' } },
      { tool: REPLACE, input: { filePath: f.rel, oldString: 'not in the file', newString: 'x' } },
      { tool: READ, input: { filePath: f.rel } },
      { tool: WRITE, input: { filePath: big.rel, content: 'export const done = true;\n' } },
      { text: 'Done.' },
    ]);
    const ours = resultsOf(turn).filter((t) => [READ, WRITE, REPLACE].includes(t.name ?? ''));
    assert.deepStrictEqual(
      ours.map((t) => t.name),
      [WRITE, WRITE, REPLACE, REPLACE, READ, WRITE],
      safeJson(ours.map((t) => [t.name, t.text.slice(0, 120)])),
    );
    const [blind, write, replace, noMatch, read, large] = ours;
    assert.ok(blind.text.startsWith(BLOCKED), blind.text);
    assert.doesNotMatch(write.text, /BLOCKED|ERROR/, write.text);
    assert.doesNotMatch(replace.text, /BLOCKED|ERROR/, replace.text);
    assert.match(noMatch.text, /ERROR/, noMatch.text);
    assert.match(read.text, /^\s*4\t- two, done$/m, read.text);
    assert.ok(large.text.startsWith(BLOCKED), large.text.slice(0, 300));
    const contents = ours.flatMap((t) => t.content);
    const kinds = [...new Set(contents.map((c) => c.type))];
    assert.deepStrictEqual(
      kinds,
      ['text'],
      `content part kinds the model received: ${safeJson(contents.filter((c) => c.type !== 'text'))}`,
    );
  });
});
