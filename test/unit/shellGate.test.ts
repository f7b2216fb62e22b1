// The gate in front of an agent's shell tool (docs/design.md rule 16), through the hook router as Claude
// Code's and Codex's payloads reach it: each file a command writes is checked as an edit of an agent that
// writes the disk — a stale overwrite, append or in-place edit is refused with the change, unsaved changes
// refuse even a fresh reader, a delete needs only a clean buffer — the whole command refused for one file,
// a command that writes nothing passed at once, and what a command let through wrote recorded as its edit.
import * as assert from 'node:assert/strict';
import { ChatSessions } from '../../src/chat/session';
import type { CompletedWrite } from '../../src/core/ports';
import { claudeCodeAgent } from '../../src/agents/claudeCode/node/events';
import { codexAgent } from '../../src/agents/codex/node/events';
import { HookRouter } from '../../src/hooks/hookRouter';
import { loadShellParser } from '../../src/shell/parser';
import { coreFixture } from './memoryDocuments';
import { readyShellLevel } from '../../src/shell';

const CHAT = 'c1a2b3c4-0000-4000-8000-00000000c1a2';
const OTHER = 'c1a2b3c4-0000-4000-8000-0000000000b2';
const uriOf = (file: string) => `file:///ws/${file}`;
const A = uriOf('a.txt');

function setup() {
  const { docs, store, log, gate, edits } = coreFixture({ maxResultChars: 7000 });
  const sessions = new ChatSessions((p) => `${p.scheme}://${p.authority}${p.path}`);
  const pending: string[] = [];
  const hooks = new HookRouter({
    shell: () => readyShellLevel(),
    edits,
    sessions,
    log,
    agents: new Map([claudeCodeAgent, codexAgent].map((a) => [a.id, a])),
    active: () => true,
    onActivity: () => undefined,
    // the workspace is /ws; a path the command names absolutely stays as it is
    resolveFile: (p, cwd) => {
      const abs = p.startsWith('/') ? p : `${cwd ?? '/ws'}/${p}`;
      return { uri: `file://${abs}`, path: abs.replace(/^\/ws\//, '') };
    },
    onPending: (chat, on) => pending.push(`${chat.slice(-2)} ${on}`),
  });
  const writes: CompletedWrite[] = [];
  gate.onDidWrite((w) => writes.push(w));
  const blocks: string[] = [];
  gate.onDidBlock((b) => blocks.push(`${b.path} ${b.reason}`));
  const send = (agent: string, event: string, extra: Record<string, unknown>, chat = CHAT) =>
    hooks.handle(agent, JSON.stringify({ session_id: chat, cwd: '/ws', hook_event_name: event, permission_mode: 'acceptEdits', ...extra }));
  /** Claude Code's Bash, before (its hook's answer) or after the command ran. */
  const bash = (command: string, event: 'PreToolUse' | 'PostToolUse' = 'PreToolUse', chat = CHAT) =>
    send(
      claudeCodeAgent.id,
      event,
      { tool_name: 'Bash', tool_input: { command }, ...(event === 'PostToolUse' && { tool_response: {} }) },
      chat,
    );
  /** A whole command the gate lets through: its check, what it does to the disk, its PostToolUse. */
  const run = async (command: string, does: () => void = () => undefined, chat = CHAT) => {
    const out = await bash(command, 'PreToolUse', chat);
    assert.equal(out, '', `let through: ${command}`);
    does();
    assert.equal(await bash(command, 'PostToolUse', chat), '');
  };
  const denied = (out: string) => (out === '' ? undefined : (JSON.parse(out).hookSpecificOutput.permissionDecisionReason as string));
  const key = (chat = CHAT) => sessions.keyOfChatId(chat);
  return { docs, store, gate, hooks, send, bash, run, denied, key, writes, blocks, pending };
}

suite("the gate in front of an agent's shell: what a command writes is checked before it runs (rule 16)", () => {
  suiteSetup(() => loadShellParser());

  test("a rewrite by redirection from an old read is refused with the other writer's change; the refusal shows it, so the retry passes", async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.run('cat a.txt');
    // another program appends a line after the agent's read
    t.docs.diskChange(A, 'one\ntwo (another program)\n');
    const command = "cat > a.txt <<'EOF'\none\nthree\nEOF";
    const reason = t.denied(await t.bash(command));
    assert.ok(reason, 'refused');
    assert.match(reason, /^Agent Edit Guard stopped this Bash call: nothing was applied/);
    assert.match(reason, /^BLOCKED: nothing was written\. a\.txt changed since you last read it/m);
    assert.match(reason, /^\+two \(another program\)$/m, 'the change it missed is shown');
    assert.deepEqual(t.blocks, ['a.txt changed']);
    assert.equal(t.docs.text(A), 'one\ntwo (another program)\n', 'nothing ran');
    // the refusal counts as the read it showed (rule 6): the agent's corrected command passes
    await t.run("cat > a.txt <<'EOF'\none\ntwo (another program)\nthree\nEOF", () =>
      t.docs.diskChange(A, 'one\ntwo (another program)\nthree\n'),
    );
    assert.deepEqual(
      t.writes.map((w) => ({
        tool: w.tool,
        agent: w.agent,
        before: w.before !== 'created' && w.before !== 'unknown' ? w.before.text : w.before,
        after: w.after.text,
      })),
      [{ tool: 'Bash', agent: 'claude-code', before: 'one\ntwo (another program)\n', after: 'one\ntwo (another program)\nthree\n' }],
      "recorded as the agent's edit, with the text it changed",
    );
    assert.equal(t.store.newest(t.key(), A)?.origin, 'write', "its own write's text counts as seen (rule 3)");
  });

  test('an append, an in-place edit and a copy onto a file the chat never read are refused with its content; a new file passes', async () => {
    const t = setup();
    const commands: Array<[string, string]> = [
      ['a.txt', 'echo done >> a.txt'],
      ['b.txt', "sed -i 's/alpha/ALPHA/' b.txt"],
      ['c.txt', 'cp /tmp/x c.txt'],
      ['src/d.ts', 'cd src && prettier --write d.ts'],
    ];
    for (const [file] of commands) t.docs.file(uriOf(file), 'alpha\n');
    for (const [, command] of commands) {
      const reason = t.denied(await t.bash(command));
      assert.ok(reason, `refused: ${command}`);
      assert.match(reason, /have not read/, command);
      assert.match(reason, /alpha/, `the content is shown: ${command}`);
      // the refusal showed the file: it counts as the read (rule 6)
      assert.equal(await t.bash(command), '', `the retry passes: ${command}`);
      assert.equal(await t.bash('true'), '', 'the next call settles it');
    }
    assert.deepEqual(t.blocks, ['a.txt not-read', 'b.txt not-read', 'c.txt not-read', 'src/d.ts not-read']);
    // a file that does not exist yet may be made without a read (rule 4)
    await t.run("printf 'new\\n' > new.txt", () => t.docs.diskChange(uriOf('new.txt'), 'new\n'));
    assert.deepEqual(t.writes.at(-1)?.before, 'created');
  });

  test("unsaved changes in the file's buffer refuse an in-place edit even after a fresh read: the shell writes the disk (rule 13)", async () => {
    const t = setup();
    t.docs.file(A, 'x = 1\n');
    await t.run('cat a.txt');
    t.docs.userEdit(A, 'x = 1\ny = 2 (typed, unsaved)\n');
    const reason = t.denied(await t.bash("sed -i 's/x = 1/x = 3/' a.txt"));
    assert.ok(reason);
    assert.match(reason, /The user has unsaved changes to a\.txt in the editor/);
    assert.match(reason, /^\+y = 2 \(typed, unsaved\)$/m);
    assert.deepEqual(t.docs.get(A), { text: 'x = 1\ny = 2 (typed, unsaved)\n', disk: 'x = 1\n', dirty: true });
  });

  test('a delete needs no read but a clean buffer; what it removed is recorded, and a delete that did not happen leaves no mark', async () => {
    const t = setup();
    t.docs.file(A, 'keep me\n');
    t.docs.file(uriOf('old.log'), 'old\n');
    t.docs.userEdit(A, 'keep me\nand this (unsaved)\n');
    const reason = t.denied(await t.bash('rm -f a.txt old.log'));
    assert.ok(reason, 'the file with unsaved changes refuses the whole command');
    assert.match(reason, /unsaved changes to a\.txt/);
    assert.equal(t.docs.get(uriOf('old.log')).text, 'old\n', 'nothing of it ran');
    // the clean, never-read file may go
    await t.run('rm old.log', () => t.docs.memory.deleteFile(uriOf('old.log')));
    assert.deepEqual(
      t.writes.map((w) => ({
        uri: w.uri,
        deleted: w.deleted,
        before: w.before !== 'created' && w.before !== 'unknown' ? w.before.text : w.before,
      })),
      [{ uri: uriOf('old.log'), deleted: true, before: 'old\n' }],
    );
    // an rm that failed (the file is still there) stamps no mark of a text the agent never saw
    t.docs.file(uriOf('c.txt'), 'c\n');
    await t.run('rm c.txt');
    assert.equal(t.store.newest(t.key(), uriOf('c.txt')), undefined);
  });

  test('one refused file refuses the whole command, and the files it would have written stay free for another chat', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    const reason = t.denied(await t.bash('echo made > made.txt && echo more >> a.txt'));
    assert.ok(reason);
    assert.deepEqual(t.blocks, ['a.txt not-read']);
    assert.equal(t.pending.length, 0, 'nothing of the command is held');
    // another chat writes made.txt at once: no reservation of the refused command waits it out
    await t.run('echo other > made.txt', () => t.docs.diskChange(uriOf('made.txt'), 'other\n'), OTHER);
  });

  test('a command that writes nothing passes at once, holds nothing, and marks nothing; one that may write what it cannot name passes too, watched until it settles', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    for (const command of ['ls -la', 'git status', 'echo hi > /dev/null', 'grep -rn a .']) {
      assert.equal(await t.bash(command), '', command);
    }
    assert.deepEqual(t.pending, []);
    for (const command of ['npm test 2>&1 | tail -20', 'python3 gen.py']) assert.equal(await t.bash(command), '', command);
    assert.deepEqual(t.pending, ['a2 true', 'a2 false', 'a2 true'], 'each is watched until the next call settles it');
    assert.deepEqual(t.blocks, []);
    assert.equal(t.store.all().length, 0);
  });

  test('a plain read of one file marks its text on disk for every agent; cd, a subshell and a path outside the folder are followed', async () => {
    const t = setup();
    t.docs.file(uriOf('sub/b.txt'), 'b\n');
    t.docs.file(A, 'a\n');
    // Codex reads through its shell, in its own chat
    const codex = (command: string, event: string) =>
      t.send(codexAgent.id, event, { turn_id: 'turn-1', tool_name: 'Bash', tool_input: { command } }, OTHER);
    assert.equal(await codex("nl -ba a.txt | sed -n '1,120p'", 'PreToolUse'), '');
    assert.equal(await codex("nl -ba a.txt | sed -n '1,120p'", 'PostToolUse'), '');
    assert.equal(t.store.newest(t.key(OTHER), A)?.origin, 'read');
    assert.equal(t.store.newest(t.key(), A), undefined, "another chat's read is not this one's");
    await t.run('cat a.txt');
    // cd moves where the next path is read from; a subshell's cd does not outlive it
    const reason = t.denied(await t.bash("(cd sub && sed -i 's/b/B/' b.txt) && sed -i 's/a/A/' a.txt"));
    assert.ok(reason);
    assert.deepEqual(t.blocks, ['sub/b.txt not-read'], 'a.txt was read: only sub/b.txt is stale');
  });
});

suite("what an agent's shell command wrote past the parse: watched, recorded, merged into unsaved buffers (rule 16)", () => {
  suiteSetup(() => loadShellParser());

  /** The records' before and after texts, by file. */
  const recorded = (writes: CompletedWrite[]) =>
    writes.map((w) => ({
      file: w.uri.replace('file:///ws/', ''),
      tool: w.tool,
      before: w.before === 'created' || w.before === 'unknown' ? w.before : w.before.text,
      after: w.after.text,
      ...(w.deleted ? { deleted: true } : {}),
    }));
  /** Until `done` holds: the recording of a finished command runs in the background (a bound of turns of the event loop, not of time). */
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
    assert.ok(done(), 'the background recording ran');
  };
  const settled = (t: ReturnType<typeof setup>, count: number) => until(() => t.writes.length >= count);

  test('a script that changes a file the editor holds, deletes one and changes one the chat read: each is recorded with the text from before; a file neither held nor read, changed or made, is not', async () => {
    const t = setup();
    const held = uriOf('src/held.ts');
    const gone = uriOf('old.txt');
    t.docs.file(held, 'export const a = 1;\n');
    t.docs.file(gone, 'old\n');
    t.docs.file(uriOf('elsewhere.txt'), 'x\n');
    await t.docs.load(held);
    await t.docs.load(gone);
    // read by the chat, then dropped by the editor (VS Code drops a document nobody shows after a while)
    const read = uriOf('src/read.ts');
    t.docs.file(read, 'let r = 1;\n');
    await t.run('cat src/read.ts');
    assert.ok(t.docs.memory.evict(read), 'the editor no longer holds it');
    await t.run('python3 gen.py', () => {
      t.docs.diskChange(read, 'let r = 2;\n');
      t.docs.diskChange(held, 'export const a = 2;\n');
      t.docs.diskChange(uriOf('src/generated.ts'), 'export {};\n');
      t.docs.memory.deleteFile(gone);
      t.docs.diskChange(uriOf('elsewhere.txt'), 'y\n');
    });
    await t.bash('true'); // the chat's next call settles it
    await settled(t, 3);
    assert.deepEqual(recorded(t.writes), [
      { file: 'src/read.ts', tool: 'Bash', before: 'let r = 1;\n', after: 'let r = 2;\n' },
      { file: 'src/held.ts', tool: 'Bash', before: 'export const a = 1;\n', after: 'export const a = 2;\n' },
      { file: 'old.txt', tool: 'Bash', before: 'old\n', after: '', deleted: true },
    ]);
    assert.equal(t.store.newest(t.key(), held), undefined, 'no mark: the agent never saw what the script wrote');
  });

  test("a formatter run under the user's unsaved changes: its change goes into the buffer with theirs, the buffer stays unsaved and the disk holds the formatter's", async () => {
    const t = setup();
    t.docs.file(A, 'const a=1\nconst b = 2;\n');
    t.docs.userEdit(A, 'const a=1\nconst b = 2;\nconst c = 3; // typed, unsaved\n');
    await t.run('npm run format', () => t.docs.diskChange(A, 'const a = 1;\nconst b = 2;\n'));
    await t.bash('true');
    await until(() => t.docs.get(A).text.startsWith('const a = 1;'));
    assert.deepEqual(t.docs.get(A), {
      text: 'const a = 1;\nconst b = 2;\nconst c = 3; // typed, unsaved\n',
      disk: 'const a = 1;\nconst b = 2;\n',
      dirty: true,
    });
    assert.deepEqual(recorded(t.writes), [
      { file: 'a.txt', tool: 'Bash', before: 'const a=1\nconst b = 2;\n', after: 'const a = 1;\nconst b = 2;\n' },
    ]);
    // saving writes both: the editor finds nothing newer on disk than the text it took in
    await t.docs.userSave(A);
    assert.equal(t.docs.get(A).disk, 'const a = 1;\nconst b = 2;\nconst c = 3; // typed, unsaved\n');
  });

  test('where the command and the unsaved changes change the same line, the buffer gets both between conflict markers; nothing of either is lost', async () => {
    const t = setup();
    t.docs.file(A, 'name = "a"\n');
    t.docs.userEdit(A, 'name = "the user"\n');
    await t.run('./rename.sh', () => t.docs.diskChange(A, 'name = "the script"\n'));
    await t.bash('true');
    await until(() => t.docs.get(A).text.startsWith('<<<<<<<'));
    const { text, disk, dirty } = t.docs.get(A);
    assert.equal(disk, 'name = "the script"\n');
    assert.ok(dirty);
    assert.equal(
      text,
      '<<<<<<< your unsaved changes\nname = "the user"\n=======\nname = "the script"\n>>>>>>> what Claude Code\'s shell command wrote\n',
    );
  });

  test('a command the parse sees through is not watched: its named files are recorded once, as its own writes', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.run('cat a.txt');
    await t.run("sed -i 's/a/b/' a.txt", () => t.docs.diskChange(A, 'b\n'));
    await t.bash('true');
    await settled(t, 1);
    assert.deepEqual(recorded(t.writes), [{ file: 'a.txt', tool: 'Bash', before: 'a\n', after: 'b\n' }]);
    assert.equal(t.store.newest(t.key(), A)?.origin, 'write', 'its own write, seen (rule 3)');
  });
});
