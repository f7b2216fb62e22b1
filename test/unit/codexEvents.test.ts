// Codex's hook payloads as the gate reads them (src/agents/codex/node/events.ts), in the shapes the real
// CLI sends (test/codex/FACTS.md): apply_patch's files, shell commands (the shell level reads them), apply_patch run through the shell, turn ids, compaction.
import * as assert from 'node:assert/strict';
import { codexAgent, parseCodexEvent, patchThroughShell } from '../../src/agents/codex/node/events';

const SESSION = '01a23473-97ef-7410-ac8c-9c711d10b30b';
const TURN = '01a23473-98eb-7ee2-9b0e-476926259788';
/** A payload as Codex 0.171 sends it (FACTS.md "PreToolUse of the shell tool"). */
const payload = (event: string, extra: Record<string, unknown> = {}) => ({
  session_id: SESSION,
  turn_id: TURN,
  transcript_path: '/h/.codex/sessions/2026/12/02/rollout.jsonl',
  cwd: '/ws',
  hook_event_name: event,
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
  ...extra,
});
const tool = (event: string, name: string, command: string, id = 'call_1') =>
  parseCodexEvent(payload(event, { tool_name: name, tool_input: { command }, tool_use_id: id }));

suite("Codex's hook payloads", () => {
  test('apply_patch: every file it updates or deletes is changed, every file it adds or moves to is created; paths as the patch names them; the turn is its turn_id', () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Add File: sub/new.txt\n+new file\n*** Delete File: del.txt\n*** Update File: mv.txt\n*** Move to: moved/mv2.txt\n@@\n-move me\n+moved\n*** Update File: /ws/crlf.txt\n@@\n-one\n+ONE\n*** End Patch\n';
    assert.deepEqual(tool('PreToolUse', 'apply_patch', patch), {
      kind: 'before-edit',
      chat: SESSION,
      tool: 'apply_patch',
      turn: TURN,
      files: [
        { path: 'a.txt', intent: 'change' },
        { path: 'sub/new.txt', intent: 'create' },
        { path: 'del.txt', intent: 'change' },
        { path: 'mv.txt', intent: 'change' },
        { path: 'moved/mv2.txt', intent: 'create' },
        { path: '/ws/crlf.txt', intent: 'change' },
      ],
    });
    assert.equal(tool('PostToolUse', 'apply_patch', patch).kind, 'after-edit');
    assert.equal(codexAgent.verb('apply_patch'), 'patch', 'labelled "Codex patch"');
    assert.equal(codexAgent.name, 'Codex');
    assert.ok(codexAgent.writesDisk && codexAgent.ownChats);
  });

  test('a shell command is a shell event of its chat and turn, its command as the model wrote it (the shell level reads it: rule 16)', () => {
    assert.deepEqual(tool('PreToolUse', 'Bash', 'cat a.txt'), {
      kind: 'before-shell',
      chat: SESSION,
      tool: 'Bash',
      command: 'cat a.txt',
      turn: TURN,
    });
    assert.deepEqual(tool('PostToolUse', 'Bash', "printf 'x' > a.txt"), {
      kind: 'after-shell',
      chat: SESSION,
      tool: 'Bash',
      command: "printf 'x' > a.txt",
      turn: TURN,
    });
    assert.equal(codexAgent.verb('Bash'), 'shell command', 'labelled "Codex shell command"');
    assert.equal(tool('PreToolUse', 'view_image', 'x').kind, 'ignore');
  });

  test('apply_patch run through the shell (a heredoc, as Codex intercepts it; or after cd DIR &&) is an edit of the files its patch names', () => {
    const heredoc =
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: b.txt\n@@\n-bee\n+BEE\n*** Add File: c.txt\n+c\n*** End Patch\nEOF";
    assert.deepEqual(tool('PreToolUse', 'Bash', heredoc), {
      kind: 'before-edit',
      chat: SESSION,
      tool: 'apply_patch',
      turn: TURN,
      files: [
        { path: 'b.txt', intent: 'change' },
        { path: 'c.txt', intent: 'create' },
      ],
    });
    assert.deepEqual(
      patchThroughShell(
        "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: d.txt\n*** Update File: /abs/e.txt\n*** End Patch\nEOF",
      ),
      [
        { path: 'sub/d.txt', intent: 'change' },
        { path: '/abs/e.txt', intent: 'change' },
      ],
    );
    assert.deepEqual(patchThroughShell('applypatch "*** Begin Patch\n*** Delete File: d.txt\n*** End Patch"'), [
      { path: 'd.txt', intent: 'change' },
    ]);
    assert.equal(
      patchThroughShell("cat > p.diff <<'EOF'\n*** Begin Patch\n*** Delete File: d.txt\n*** End Patch\nEOF"),
      undefined,
      'writing a patch to a file applies nothing',
    );
    assert.equal(patchThroughShell('apply_patch_helper --version'), undefined);
  });

  test('UserPromptSubmit starts the turn its turn_id names, with the prompt; PreCompact compacts; SessionStart and Stop are nothing', () => {
    assert.deepEqual(parseCodexEvent(payload('UserPromptSubmit', { prompt: 'Fix a.txt' })), {
      kind: 'turn',
      chat: SESSION,
      prompt: 'Fix a.txt',
      turn: TURN,
    });
    assert.deepEqual(parseCodexEvent(payload('PreCompact', { trigger: 'auto' })), { kind: 'compact', chat: SESSION });
    assert.equal(parseCodexEvent(payload('SessionStart', { source: 'compact' })).kind, 'ignore');
    assert.equal(parseCodexEvent(payload('Stop', { stop_hook_active: false })).kind, 'ignore');
    assert.equal(parseCodexEvent({ hook_event_name: 'PreToolUse' }).kind, 'ignore', 'no session_id');
    assert.equal(parseCodexEvent('not an object').kind, 'ignore');
  });

  test('its deny is the VS Code-format JSON with the reason (Codex blocks on it and shows the model the reason)', () => {
    assert.deepEqual(JSON.parse(codexAgent.deny('BLOCKED: nothing was written.')), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'BLOCKED: nothing was written.',
      },
    });
  });
});
