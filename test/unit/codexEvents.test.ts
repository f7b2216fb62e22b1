// Codex's hook payloads as the gate reads them (src/agents/codex/node/events.ts), in the shapes the real
// CLI sends (test/codex/FACTS.md): apply_patch's files, the shell reads the gate counts and the commands it
// does not, apply_patch run through the shell, turn ids, compaction.
import * as assert from 'node:assert/strict';
import { codexAgent, parseCodexEvent, patchThroughShell, readOfCommand } from '../../src/agents/codex/node/events';

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

  test('a shell read of one file is a read of it, relative to the payload cwd (the workdir); the turn is its turn_id', () => {
    assert.deepEqual(tool('PreToolUse', 'Bash', 'cat a.txt'), {
      kind: 'before-read',
      chat: SESSION,
      tool: 'Bash',
      files: ['a.txt'],
      turn: TURN,
    });
    assert.deepEqual(tool('PostToolUse', 'Bash', "nl -ba src/x.ts | sed -n '1,120p'"), {
      kind: 'after-read',
      chat: SESSION,
      tool: 'Bash',
      files: ['src/x.ts'],
      turn: TURN,
    });
    assert.equal(codexAgent.verb('Bash'), 'read');
  });

  test('the read grammar: these plain reads of one file, and nothing else', () => {
    const reads: Array<[string, string]> = [
      ['cat a.txt', 'a.txt'],
      ['cat -n a.txt', 'a.txt'],
      ["cat 'my file.txt'", 'my file.txt'],
      ['cat "dir/b c.md"', 'dir/b c.md'],
      ['nl -ba src/x.ts', 'src/x.ts'],
      ['nl -b a src/x.ts', 'src/x.ts'],
      ['nl x', 'x'],
      ["sed -n '1,200p' src/a.ts", 'src/a.ts'],
      ['sed -n 5,9p a', 'a'],
      ["sed -n '40p' a", 'a'],
      ["sed -n '10,$p' a", 'a'],
      ['head a.txt', 'a.txt'],
      ['head -n 20 a.txt', 'a.txt'],
      ['head -20 a.txt', 'a.txt'],
      ['head -n20 a.txt', 'a.txt'],
      ['tail -n +30 a.txt', 'a.txt'],
      ['tail -5 /abs/path/a.txt', '/abs/path/a.txt'],
      ["nl -ba a.ts | sed -n '1,80p'", 'a.ts'],
      ['cat a.ts | head -n 50', 'a.ts'],
      ['cat a.ts|tail -3', 'a.ts'],
      ['  cat a.txt  ', 'a.txt'],
    ];
    for (const [command, file] of reads) assert.equal(readOfCommand(command), file, command);
    const notReads = [
      'cat a.txt b.txt', // several files
      'cat', // none
      'cat -', // stdin
      'cat a.txt > b.txt', // a redirection: a write
      'cat a.txt; rm a.txt',
      'cat a.txt && echo done',
      'cat a.txt || true',
      'cat $FILE',
      'cat "$FILE"',
      'cat `ls`',
      'cat $(ls)',
      'cat *.txt',
      'cat a?.txt',
      'cat ~/notes.txt',
      'cat a.txt 2>/dev/null',
      'cat -A a.txt',
      'head -c 100 a.txt',
      "sed -i 's/a/b/' a.txt",
      "sed -n '/x/p' a.txt",
      "sed -n '1,20p;30p' a.txt",
      "sed '1,20p' a.txt",
      'rg alpha a.txt',
      'grep -n alpha a.txt',
      'wc -l a.txt',
      'ls',
      'cat a.txt | grep x',
      'cat a.txt | head | tail',
      'cat a.txt | sh',
      "cat 'unclosed",
      "cat ''",
      "cat '|' head",
      'echo hi | cat',
      'cd sub && cat a.txt',
      'cat a.txt\ncat b.txt',
      "printf 'x' > a.txt",
    ];
    for (const command of notReads) assert.equal(readOfCommand(command), undefined, command);
  });

  test("a shell command that is neither a read nor a patch is nothing for the gate, but names its chat (its event still says the chat's earlier tool is done)", () => {
    assert.deepEqual(tool('PreToolUse', 'Bash', 'npm test'), {
      kind: 'ignore',
      why: 'a shell command that is not a plain read of one file',
      chat: SESSION,
    });
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
