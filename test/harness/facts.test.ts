// The Copilot harness's behaviour that a gate in front of it depends on, pinned: what a VS Code-format hook
// gets (payloads, environment, working folder), what it can do (a `timeout`, output that is not JSON), which
// events fire, the session id, where a `view` of a dirty buffer reads from, and how extension tools are
// called. test/harness/FACTS.md records them; a test that fails here means the harness changed and FACTS.md
// (and any gate built on it) needs another look.
//
// The turns run once, in suiteSetup (two chats: two turns and /compact, then one turn); each test asserts one
// fact on what they recorded.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { revertAndCloseAll, userEdit } from '../integration/helpers';
import { COPILOT_CLI_PROCESSES } from '../../src/hooks/copilotRuntime';
import type { ToolCall } from './node/protocol';
import {
  compactChat,
  create,
  denyOutput,
  diskText,
  echoToolCalls,
  edit,
  fileRef,
  harnessTurn,
  HookRecord,
  lastResult,
  HookRecorder,
  makeFileAt,
  MODEL_URL_ENV,
  newHarnessChat,
  safeJson,
  say,
  TestFile,
  ToolCallRecord,
  Turn,
  view,
  workspaceRoot,
} from './harness';

/** Set in this extension host's environment only: a hook that sees it runs with the extension host's environment. */
const EXTHOST_ONLY = 'EDITGUARD_HARNESS_EXTHOST_ONLY';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

suite('Copilot harness: facts a gate depends on', () => {
  const hooks = new HookRecorder();
  const files: Record<string, TestFile> = {};
  const turns: Record<string, Turn> = {};
  let dirtyView = { buffer: '', disk: '', shown: '' };
  let echoCalls: ToolCallRecord[] = [];
  let compacted: unknown;

  /** The records of one hook entry for one file (by its path in the payload), oldest first. */
  const recordsFor = (label: string, f?: TestFile) => hooks.records(label).filter((r) => !f || r.stdin.includes(f.abs));
  const only = (label: string, f: TestFile): HookRecord => {
    const found = recordsFor(label, f);
    assert.strictEqual(found.length, 1, `one ${label} record for ${f.rel}: ${safeJson(found.map((r) => r.input))}`);
    return found[0];
  };
  const resultFor = (turn: Turn, f: TestFile) => turn.results.find((r) => JSON.stringify(r.input ?? '').includes(f.abs));

  suiteSetup(async function () {
    this.timeout(400_000);
    hooks.writeHooksFile('harness-facts', {
      SessionStart: [{}],
      UserPromptSubmit: [{}],
      PreToolUse: [{}, { label: 'PreToolUse-timeout2', timeout: 2 }],
      PostToolUse: [{}],
      PostToolUseFailure: [{}],
      PreCompact: [{}],
      Stop: [{}],
    });
    files.viewed = makeFileAt('facts/viewed.txt', 'line one\nline two\n');
    files.edited = makeFileAt('facts/edited.txt', 'alpha\nbeta\n');
    files.created = fileRef('facts/created.txt');
    files.dirty = makeFileAt('facts/dirty.txt', 'on disk\n');
    files.slow = makeFileAt('facts/slow.txt', 'slow\n');
    files.chatty = makeFileAt('facts/chatty.txt', 'chatty\n');
    files.exit2 = makeFileAt('facts/exit2.txt', 'two\n');
    files.exit1 = makeFileAt('facts/exit1.txt', 'one\n');
    files.otherChat = makeFileAt('facts/other-chat.txt', 'other chat\n');
    files.existing = makeFileAt('facts/existing.txt', 'exists\n');
    files.batchA = makeFileAt('facts/batch-a.txt', 'a\n');
    files.batchB = makeFileAt('facts/batch-b.txt', 'b\n');
    hooks.setRules([
      // sleeps past its entry's `timeout: 2`, then denies: a deny would mean the timeout was not enforced
      { label: 'PreToolUse-timeout2', when: files.slow.abs, sleepMs: 6000, stdout: denyOutput('the slow hook got to answer') },
      { label: 'PreToolUse', when: files.chatty.abs, stdout: 'this is not JSON\n' },
      { label: 'PreToolUse', when: files.exit2.abs, stderr: 'stopped by exit code 2', exitCode: 2 },
      { label: 'PreToolUse', when: files.exit1.abs, stderr: 'failed with exit code 1', exitCode: 1 },
    ]);
    process.env[EXTHOST_ONLY] = '1';

    // chat 1, turn 1: the file tools and the extension tool
    await newHarnessChat();
    turns.first = await harnessTurn('facts-first', [
      view(files.viewed.abs),
      edit(files.edited.abs, 'beta', 'BETA'),
      create(files.created.abs, 'made by the harness\n'),
      (req) => {
        const echo = req.tools.find((t) => t.name === 'harnessEcho');
        return echo ? { tool: echo.name, input: { text: 'from the harness' } } : say('The echo tool is not offered.');
      },
      // a create of a file that exists: the runtime's own tool refuses it
      create(files.existing.abs, 'over it\n'),
      // two calls in one response
      { calls: [view(files.batchA.abs), view(files.batchB.abs)] as ToolCall[] },
      say('Done.'),
    ]);
    echoCalls = [...(await echoToolCalls())];
    // a hooks file that appears while the chat's session runs
    hooks.writeHooksFile('harness-facts-late', { PreToolUse: [{ label: 'late' }] });

    // chat 1, turn 2: a dirty buffer (made after the prompt was sent: chat.saveBeforeSend saves dirty editors
    // before a send), the hook that outlives its timeout, the hook that prints text, hooks that exit 2 and 1
    const doc = await vscode.workspace.openTextDocument(files.dirty.uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    turns.second = await harnessTurn('facts-second', [
      async () => {
        await userEdit(doc, 'on disk', 'in the buffer');
        dirtyView = { buffer: doc.getText(), disk: diskText(files.dirty), shown: '' };
        return view(files.dirty.abs);
      },
      (req) => {
        dirtyView.shown = lastResult(req).text;
        return edit(files.slow.abs, 'slow', 'SLOW');
      },
      edit(files.chatty.abs, 'chatty', 'CHATTY'),
      edit(files.exit2.abs, 'two', 'TWO'),
      edit(files.exit1.abs, 'one', 'ONE'),
      say('Done.'),
    ]);
    await revertAndCloseAll();
    // chat 1: /compact
    compacted = await compactChat();

    // chat 2
    await newHarnessChat();
    turns.otherChat = await harnessTurn('facts-other-chat', [view(files.otherChat.abs), say('Done.')]);
  });

  suiteTeardown(async () => {
    delete process.env[EXTHOST_ONLY];
    hooks.setRules([]);
    hooks.removeHooksFiles();
    await revertAndCloseAll();
  });

  test('PreToolUse and PostToolUse payloads of view, edit and create: Read, Edit, Write with the tool input and result', () => {
    const cases: Array<[TestFile, string, unknown]> = [
      [files.viewed, 'Read', { path: files.viewed.abs }],
      [files.edited, 'Edit', { path: files.edited.abs, old_str: 'beta', new_str: 'BETA' }],
      [files.created, 'Write', { path: files.created.abs, file_text: 'made by the harness\n' }],
    ];
    for (const [f, toolName, toolInput] of cases) {
      const pre = only('PreToolUse', f).input ?? {};
      const post = only('PostToolUse', f).input ?? {};
      assert.deepStrictEqual(
        Object.keys(pre).sort(),
        ['cwd', 'hook_event_name', 'session_id', 'timestamp', 'tool_input', 'tool_name'],
        safeJson(pre),
      );
      assert.strictEqual(pre.hook_event_name, 'PreToolUse');
      assert.strictEqual(pre.tool_name, toolName);
      assert.deepStrictEqual(pre.tool_input, toolInput);
      assert.match(String(pre.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'an ISO time');
      assert.deepStrictEqual(Object.keys(post).sort(), [...Object.keys(pre), 'tool_result'].sort(), safeJson(post));
      assert.strictEqual(post.hook_event_name, 'PostToolUse');
      assert.strictEqual(post.tool_name, toolName);
      assert.deepStrictEqual(post.tool_input, toolInput);
      assert.deepStrictEqual(
        post.tool_result,
        { result_type: 'success', text_result_for_llm: resultFor(turns.first, f)?.text },
        'tool_result: what the model got',
      );
    }
    assert.strictEqual(diskText(files.edited), 'alpha\nBETA\n');
    assert.strictEqual(diskText(files.created), 'made by the harness\n');
  });

  test('a call its own tool fails ends in PostToolUseFailure (its input and the error), and no PostToolUse', () => {
    const failure = only('PostToolUseFailure', files.existing).input ?? {};
    assert.strictEqual(failure.hook_event_name, 'PostToolUseFailure');
    assert.strictEqual(failure.tool_name, 'Write');
    assert.deepStrictEqual(failure.tool_input, { path: files.existing.abs, file_text: 'over it\n' });
    assert.match(String(failure.error), /exists/, safeJson(failure));
    assert.deepStrictEqual(recordsFor('PostToolUse', files.existing), []);
    assert.deepStrictEqual(recordsFor('PostToolUseFailure', files.edited), [], 'a call that ran has none');
    assert.strictEqual(diskText(files.existing), 'exists\n');
  });

  test("every PreToolUse of one model response carries one timestamp, a later response's a later one (rule 14 tells siblings by it)", () => {
    const at = (f: TestFile) => String(only('PreToolUse', f).input?.timestamp);
    assert.strictEqual(at(files.batchA), at(files.batchB), 'the two calls of one response');
    assert.ok(at(files.existing) < at(files.batchA), `an earlier response's is earlier: ${at(files.existing)} < ${at(files.batchA)}`);
    assert.notStrictEqual(at(files.edited), at(files.created), 'one call per response: each its own');
  });

  test("a hook's parent process is the SDK's runtime, not the Copilot CLI's `copilot` (which tells the CLI's hooks apart)", () => {
    const { parentName, parent } = only('PreToolUse', files.edited);
    console.log(`[facts] a hook's parent: ${parentName} (${parent})`);
    assert.ok(parentName.length > 0, 'the OS names the parent');
    assert.ok(!COPILOT_CLI_PROCESSES.includes(parentName), `${parentName} is not the Copilot CLI's name`);
  });

  test("a hook's environment: code-server's (HOME, the run's variables) with COPILOT_PROJECT_DIR and co., not the extension host's", () => {
    const { env } = only('PreToolUse', files.edited);
    console.log(
      `[facts] hook environment: ${Object.keys(env)
        .filter((k) => /^(COPILOT|CLAUDE|GITHUB|VSCODE|ELECTRON|NODE)/.test(k))
        .sort()
        .join(' ')}`,
    );
    assert.strictEqual(env.COPILOT_PROJECT_DIR, workspaceRoot());
    assert.strictEqual(env.CLAUDE_PROJECT_DIR, workspaceRoot());
    assert.strictEqual(env.COPILOT_CLI, '1');
    assert.strictEqual(env.HOME, process.env.HOME, "code-server's HOME (the run folder)");
    assert.strictEqual(env[MODEL_URL_ENV], process.env[MODEL_URL_ENV], "code-server's environment reaches the hook");
    assert.strictEqual(env[EXTHOST_ONLY], undefined, "the extension host's own process.env does not");
  });

  test("a hook's working folder and payload cwd are the workspace folder", () => {
    const record = only('PreToolUse', files.edited);
    assert.strictEqual(record.cwd, workspaceRoot());
    assert.strictEqual(record.input?.cwd, workspaceRoot());
  });

  test('SessionStart (when a chat starts, again on a resume), UserPromptSubmit and Stop (once per turn) fire in VS Code format', () => {
    const sessionId = only('PreToolUse', files.edited).input?.session_id;
    const ofChat = (label: string) =>
      hooks
        .records(label)
        .filter((r) => r.input?.session_id === sessionId)
        .map((r) => r.input ?? {});
    const [start, ...moreStarts] = ofChat('SessionStart');
    assert.strictEqual(start?.source, 'new');
    // the runtime may resume the chat's session before a later turn (seen on a loaded machine): SessionStart
    // fires again then, as a resume of the same session, with that turn's prompt
    for (const again of moreStarts) assert.strictEqual(again.source, 'resume', safeJson(moreStarts));
    assert.strictEqual(start?.initial_prompt, turns.first.requests[0].prompt?.slice(turns.first.requests[0].prompt.indexOf('[[harness:')));
    const prompts = ofChat('UserPromptSubmit');
    assert.strictEqual(prompts.length, 2, safeJson(prompts));
    assert.deepStrictEqual(Object.keys(prompts[0]).sort(), ['cwd', 'hook_event_name', 'prompt', 'session_id', 'timestamp']);
    // the query as sent; VS Code may append an attachment's note (an editor it attached) to a later prompt
    assert.strictEqual(prompts[0].prompt, `[[harness:${turns.first.tag}]] Do the scripted task.`);
    assert.ok(String(prompts[1].prompt).startsWith(`[[harness:${turns.second.tag}]] Do the scripted task.`), safeJson(prompts[1]));
    const stops = ofChat('Stop');
    assert.strictEqual(stops.length, 2, safeJson(stops));
    assert.strictEqual(stops[0].stop_reason, 'end_turn');
    assert.strictEqual(stops[0].stop_hook_active, false);
    assert.match(String(stops[0].transcript_path), /\/\.copilot\/session-state\/[0-9a-f-]+\/events\.jsonl$/);
  });

  test('session_id is a UUID, the same for every turn of a chat and another in a new chat', () => {
    const first = only('PreToolUse', files.edited).input?.session_id;
    const second = only('PreToolUse', files.chatty).input?.session_id;
    const other = only('PreToolUse', files.otherChat).input?.session_id;
    assert.match(String(first), UUID);
    assert.strictEqual(second, first);
    assert.match(String(other), UUID);
    assert.notStrictEqual(other, first);
  });

  test('a view of a file with unsaved changes in the editor reads the disk', () => {
    assert.strictEqual(dirtyView.buffer, 'in the buffer\n');
    assert.strictEqual(dirtyView.disk, 'on disk\n');
    assert.ok(dirtyView.shown.includes('on disk'), dirtyView.shown);
    assert.ok(!dirtyView.shown.includes('in the buffer'), dirtyView.shown);
  });

  test('the `timeout` of a VS Code-format entry is enforced: the hook is stopped after it, and the tool runs (fail open)', () => {
    const slow = only('PreToolUse-timeout2', files.slow);
    const post = only('PostToolUse', files.slow);
    assert.strictEqual(slow.finishedAt, undefined, 'the hook never finished its 6 s');
    const waited = post.startedAt - slow.startedAt;
    // had the runtime waited for the hook, the tool would have run no sooner than its 6 s
    assert.ok(waited >= 1500 && waited < 6000, `the runtime went on after about 2 s: ${waited} ms`);
    assert.strictEqual(diskText(files.slow), 'SLOW\n', 'the edit ran');
    assert.match(resultFor(turns.second, files.slow)?.text ?? '', /updated with changes/);
  });

  test('a PreToolUse hook that prints text that is not JSON and exits 0 is no objection', () => {
    const chatty = only('PreToolUse', files.chatty);
    assert.ok(chatty.finishedAt !== undefined && chatty.rule !== undefined, 'the hook printed its text and ended');
    assert.strictEqual(diskText(files.chatty), 'CHATTY\n');
    assert.match(resultFor(turns.second, files.chatty)?.text ?? '', /updated with changes/);
  });

  test('a PreToolUse hook that exits 2, or 1, stops the tool (fail closed, no PostToolUse); the model is told the exit code or the hooks file, not stderr', () => {
    assert.strictEqual(diskText(files.exit2), 'two\n');
    assert.strictEqual(resultFor(turns.second, files.exit2)?.text, 'Denied by preToolUse hook: hook exited with code 2');
    assert.strictEqual(diskText(files.exit1), 'one\n');
    assert.strictEqual(
      resultFor(turns.second, files.exit1)?.text,
      'Denied by preToolUse hook from ".github/hooks/harness-facts.json" (hook errored)',
    );
    assert.deepStrictEqual(
      [...recordsFor('PostToolUse', files.exit2), ...recordsFor('PostToolUse', files.exit1)],
      [],
      'no PostToolUse for a denied call',
    );
  });

  test('/compact runs PreCompact (trigger manual)', () => {
    const sessionId = only('PreToolUse', files.edited).input?.session_id;
    const compactions = hooks.records('PreCompact').map((r) => r.input ?? {});
    assert.strictEqual(compactions.length, 1, safeJson({ compactions, compacted }));
    assert.strictEqual(compactions[0].session_id, sessionId);
    assert.strictEqual(compactions[0].trigger, 'manual');
    assert.strictEqual(compactions[0].custom_instructions, '');
  });

  test('a hooks file added while a chat runs: not in its next turn unless the runtime resumed the session first, in a new chat', () => {
    const sessionId = only('PreToolUse', files.edited).input?.session_id;
    const resumed = hooks.records('SessionStart').some((r) => r.input?.session_id === sessionId && r.input?.source === 'resume');
    // a resume reads the hooks files again (seen on a loaded machine); without one, the chat keeps the entries it started with
    if (!resumed) assert.deepStrictEqual(recordsFor('late', files.slow), [], 'chat 1, turn 2');
    assert.strictEqual(recordsFor('late', files.otherChat).length, 1, 'chat 2');
  });

  test('extension tools: offered under their reference names, run in the extension host with no turn id, and a chat id only if the chat drew the call first', () => {
    const offered = turns.first.requests[0].tools.map((t) => t.name);
    for (const name of ['harnessEcho', 'guardedRead', 'guardedWrite', 'guardedReplace'])
      assert.ok(offered.includes(name), `${name} in ${offered.join(', ')}`);
    const result = turns.first.results.find((r) => r.name === 'harnessEcho');
    assert.strictEqual(result?.text, 'echo: from the harness');
    assert.strictEqual(echoCalls.length, 1, safeJson(echoCalls));
    const [call] = echoCalls;
    console.log(`[facts] extension tool call: ${safeJson(call)}`);
    assert.deepStrictEqual(call.options.input, { text: 'from the harness' });
    assert.strictEqual(call.options.chatStreamToolCallId, result?.callId, "chatStreamToolCallId is the model's tool call id");
    for (const key of ['toolInvocationToken', 'chatRequestId', 'chatInteractionId', 'chatSessionResource']) {
      assert.ok(call.optionKeys.includes(key), `${key} is among the option keys`);
    }
    assert.strictEqual(call.options.chatRequestId, undefined);
    assert.strictEqual(call.options.chatInteractionId, undefined);
    // the workbench runs a tool that needs no confirmation at once: with the chat's resource when the chat view
    // had already drawn the call, without it otherwise (a race; both were seen)
    const resource = call.options.chatSessionResource;
    if (resource !== undefined) {
      assert.match(String(resource), /^agent-host-copilotcli:\/[0-9a-f-]{36}$/);
      assert.deepStrictEqual(
        (call.options.toolInvocationToken as { sessionResource?: { external?: string } })?.sessionResource?.external,
        resource,
      );
      const hookSession = only('PreToolUse', files.edited).input?.session_id;
      assert.ok(!String(resource).includes(String(hookSession)), "the chat's resource is not the hooks' session_id");
    } else assert.strictEqual(call.options.toolInvocationToken, undefined);
    // the file hooks run for extension tools too, under the tool's reference name
    const pre = hooks.records('PreToolUse').find((r) => r.input?.tool_name === 'harnessEcho');
    assert.deepStrictEqual(pre?.input?.tool_input, { text: 'from the harness' });
  });
});
