// The harness itself, from a test: real turns of the Copilot harness (VS Code's Agent Host) answered by the
// scripted model — the runtime's edit lands on disk, a workspace hook in VS Code's format sees the edit and can
// deny it, and the codex-family model's apply_patch lands. The product's gate for the harness builds its
// scenarios on these helpers (harness.ts).
import * as assert from 'assert';
import { revertAndCloseAll } from '../integration/helpers';
import {
  applyPatch,
  denyOutput,
  diskText,
  edit,
  harnessTurn,
  HookRecorder,
  lastResult,
  makeFileAt,
  MODELS,
  newHarnessChat,
  safeJson,
  say,
  view,
} from './harness';

suite('Copilot harness: scripted turns', () => {
  const hooks = new HookRecorder();

  // one chat for the suite (a new chat costs seconds), and a new one after a test that failed
  suiteSetup(async () => {
    // before the chat's first turn: the runtime reads hook files when a chat's session starts
    hooks.writeHooksFile('harness-smoke', { PreToolUse: [{}] });
    await newHarnessChat();
  });
  teardown(async function () {
    hooks.setRules([]);
    await revertAndCloseAll();
    if (this.currentTest?.state === 'failed') await newHarnessChat();
  });
  suiteTeardown(() => {
    hooks.removeHooksFiles();
  });

  test('the model views a file, then edits it: the edit lands on disk, and the model saw both results', async () => {
    const f = makeFileAt('smoke/view-edit.txt', 'hello\nworld\n');
    const turn = await harnessTurn('view-edit', [
      view(f.abs),
      (req) => {
        assert.match(lastResult(req).text, /hello/, 'the view showed the file');
        return edit(f.abs, 'hello', 'HELLO');
      },
      say('Done.'),
    ]);
    assert.strictEqual(diskText(f), 'HELLO\nworld\n');
    const offered = turn.requests[0].tools.map((t) => t.name);
    for (const tool of ['view', 'edit', 'create']) assert.ok(offered.includes(tool), `the runtime offers ${tool}: ${offered.join(', ')}`);
    assert.strictEqual(turn.results.length, 2, safeJson(turn.results));
    assert.deepStrictEqual(
      turn.results.map((r) => r.name),
      ['view', 'edit'],
    );
  });

  test('a workspace PreToolUse hook (VS Code format) gets the edit as tool_name Edit with tool_input.path', async () => {
    const f = makeFileAt('smoke/hooked.txt', 'one\ntwo\n');
    await harnessTurn('hooked-edit', [edit(f.abs, 'two', 'TWO'), say('Done.')]);
    assert.strictEqual(diskText(f), 'one\nTWO\n');
    const seen = hooks.records('PreToolUse').filter((r) => r.stdin.includes(f.abs));
    assert.strictEqual(seen.length, 1, `one PreToolUse for the edit: ${safeJson(seen.map((r) => r.input))}`);
    const input = seen[0].input ?? {};
    assert.strictEqual(input.hook_event_name, 'PreToolUse');
    assert.strictEqual(input.tool_name, 'Edit');
    assert.deepStrictEqual(input.tool_input, { path: f.abs, old_str: 'two', new_str: 'TWO' });
  });

  test('a PreToolUse hook that prints the VS Code-format deny stops the edit; the model is told why', async () => {
    const f = makeFileAt('smoke/denied.txt', 'keep\nme\n');
    const reason = 'harness smoke: this file is not to be edited';
    hooks.setRules([{ label: 'PreToolUse', when: f.abs, stdout: denyOutput(reason) }]);
    let told = '';
    await harnessTurn('denied-edit', [
      edit(f.abs, 'keep', 'changed'),
      (req) => {
        told = lastResult(req).text;
        return say('The edit was refused.');
      },
    ]);
    assert.strictEqual(diskText(f), 'keep\nme\n', 'the file is untouched');
    assert.strictEqual(told, `Denied by preToolUse hook: ${reason}`, "the model's next request carries the denial");
  });

  test("the codex-family model's apply_patch (a freeform tool) lands on disk", async () => {
    const f = makeFileAt('smoke/patched.txt', 'alpha\nbeta\n');
    const patch = `*** Begin Patch\n*** Update File: ${f.abs}\n@@\n-beta\n+BETA\n*** End Patch\n`;
    const turn = await harnessTurn('codex-patch', [applyPatch(patch), say('Patched.')], { model: MODELS.codex });
    const patchTool = turn.requests[0].tools.find((t) => t.name === 'apply_patch');
    assert.strictEqual(
      patchTool?.type,
      'custom',
      `apply_patch is offered as a freeform tool: ${safeJson(turn.requests[0].tools.map((t) => t.name))}`,
    );
    assert.strictEqual(turn.requests[0].api, 'responses');
    assert.strictEqual(diskText(f), 'alpha\nBETA\n');
    // the hook sees the freeform call as an Edit whose input is the patch itself
    const pre = hooks.records('PreToolUse').find((r) => r.stdin.includes(f.abs));
    assert.strictEqual(pre?.input?.tool_name, 'Edit', safeJson(pre?.input));
    assert.strictEqual(pre?.input?.tool_input, patch);
  });
});
