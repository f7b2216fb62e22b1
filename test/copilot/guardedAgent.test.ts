// The Guarded agent (agents/guarded.agent.md) under Copilot's real agent loop, with and without the
// hooks bridge (issue 14 item 6, "the Guarded agent and the bridge agree"). Without the bridge, only
// the guarded tools' reads count, so the agent's tool set and instructions must make the model read
// with editGuard_readFile; with the bridge on, a read with Copilot's read_file counts for the guarded
// tools too: one chat, one session key, whether its first call came through a hook or a tool token.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { EDIT_TOOLS } from '../../src/agents/copilot/node/events';
import {
  agentTurn,
  diskText,
  fakeModel,
  GUARDED_AGENT,
  makeFileAt,
  marksFor,
  ModelRequest,
  newChat,
  READ,
  REPLACE,
  resultsOf,
  safeJson,
  type TestFile,
  WRITE,
} from './agent';
import { copilotSuiteHooks, withBridgeOn } from './suite';
import { BLOCKED, setGuardBuiltinTools } from './turns';

/** The system and user messages of a request: where Copilot puts a custom agent's instructions. */
const promptText = (req: ModelRequest) =>
  req.messages
    .filter((m) => m.role !== 'assistant')
    .flatMap((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')))
    .join('\n');

/** What Copilot offers the model under the Guarded agent, for each fake model (Copilot's edit tools vary by model name). */
async function offeredUnderGuarded(): Promise<Record<string, { tools: string[]; prompt: string }>> {
  const models = { default: undefined, ...fakeModel().MODELS } as Record<string, string | undefined>;
  const out: Record<string, { tools: string[]; prompt: string }> = {};
  for (const [label, model] of Object.entries(models)) {
    if (label === 'small') continue; // the compaction model: same names as the default
    await newChat();
    const turn = await agentTurn('guarded-offer', [{ text: 'Nothing to do.' }], 'Which tools do you have?', { mode: GUARDED_AGENT, model });
    const req = turn.requests[0];
    out[label] = { tools: req.tools.map((t) => t.name).sort(), prompt: promptText(req) };
  }
  return out;
}

/** In the Guarded agent: Copilot's read_file of the file's two lines, then editGuard_replaceString of one of them. */
const readThenReplaceTurn = (tag: string, f: TestFile, oldString: string, newString: string) =>
  agentTurn(
    tag,
    [
      { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 2 } },
      { tool: REPLACE, input: { filePath: f.rel, oldString, newString } },
      { text: 'Done.' },
    ],
    'Upper-case the second line.',
    { mode: GUARDED_AGENT },
  );

suite('Guarded agent under Copilot: its tool set and instructions, with the bridge off and on', function () {
  copilotSuiteHooks();

  suite('bridge on', function () {
    withBridgeOn();

    test("read_file, then editGuard_replaceString in the Guarded agent: the built-in read counts, no extra read; the hook's and the tool's session keys agree", async () => {
      const f = makeFileAt('guarded/on.txt', 'alpha\nbeta\n');
      // the chat's first call is the built-in read: its session key is built from the hook's session_id, not learned from a tool token
      const turn = await readThenReplaceTurn('guarded-on', f, 'beta', 'BETA');
      const results = resultsOf(turn);
      assert.deepStrictEqual(
        results.map((r) => r.name),
        ['read_file', REPLACE],
        'two calls: no extra read',
      );
      assert.doesNotMatch(results[1].text, /BLOCKED|ERROR/, results[1].text);
      assert.strictEqual(diskText(f), 'alpha\nBETA\n');
      const marks = await marksFor(f.uri);
      const read = marks.find((m) => m.origin === 'read');
      const write = marks.find((m) => m.origin === 'write');
      assert.ok(read && write, `a read mark (hook path) and a write mark (tool path): ${safeJson(marks)}`);
      assert.strictEqual(read.session, write.session, 'the hook path and the tool path give the chat one session key');
      assert.match(read.session, /^vscode-chat-session:\/\/local\//, read.session);
    });
  });

  // after the bridge-on suite, as in builtinTools.test.ts: the hooks file then exists before this window's first
  // agent turn. With Guarded turns first, Copilot twice in five runs ran no hook within waitUntilHooksAreLive's tries.
  suite('bridge off', function () {
    suiteSetup(async () => {
      await setGuardBuiltinTools(false);
    });

    test("the Guarded agent offers the guarded tools and none of Copilot's edit tools, and its instructions make the model read with editGuard_readFile", async () => {
      const offered = await offeredUnderGuarded();
      if (process.env.RUN_DIR)
        fs.writeFileSync(
          path.join(process.env.RUN_DIR, 'guarded-agent-tools.json'),
          JSON.stringify(Object.fromEntries(Object.entries(offered).map(([k, v]) => [k, v.tools])), null, 1),
        );
      for (const [model, { tools, prompt }] of Object.entries(offered)) {
        for (const ours of [READ, WRITE, REPLACE])
          assert.ok(tools.includes(ours), `${model}: ${ours} is offered; offered: ${tools.join(', ')}`);
        const edits = tools.filter((t) => (EDIT_TOOLS as readonly string[]).includes(t) || t === 'edit_notebook_file');
        assert.deepStrictEqual(edits, [], `${model}: no edit tool of Copilot's is offered; offered: ${tools.join(', ')}`);
        // the instructions reach the model, and tell it which tool to read with
        assert.match(prompt, /change files only with the\s+guarded tools/, `${model}: the Guarded agent's instructions reach the model`);
        assert.match(prompt, /`editGuard_readFile` to read a file/, `${model}: the instructions name editGuard_readFile for reading`);
        // Copilot's read_file is ungated without the bridge: if it is offered, the instructions must say its reads do not count
        if (tools.includes('read_file'))
          assert.match(
            prompt,
            /Read with\s+`editGuard_readFile`, not `read_file`/,
            `${model}: read_file is offered, so the instructions say not to read with it`,
          );
      }
    });

    test('a read_file read does not count for the guarded tools (why the instructions name editGuard_readFile)', async () => {
      const f = makeFileAt('guarded/off.txt', 'one\ntwo\n');
      const turn = await readThenReplaceTurn('guarded-off', f, 'two', 'TWO');
      const [read, replace] = resultsOf(turn);
      assert.strictEqual(read.name, 'read_file', safeJson(resultsOf(turn).map((r) => r.name)));
      assert.ok(replace.text.startsWith(BLOCKED), `the replace after an ungated read_file is refused:\n${replace.text}`);
      assert.match(replace.text, /not read/);
      assert.strictEqual(diskText(f), 'one\ntwo\n');
    });
  });
});
