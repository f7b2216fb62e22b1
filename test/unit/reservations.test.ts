// Rule 14 (docs/design.md §Rules): a write the gate let through holds its file until it lands, and a
// write that did not reach the disk is never reported done. Over the in-memory editor: agents' hook events
// as the bridge hands them over (Claude Code's and the Copilot CLI's, which write the disk themselves) and
// our own tools, on one file at once.
import * as assert from 'node:assert/strict';
import { claudeCodeAgent } from '../../src/agents/claudeCode/node/events';
import { copilotAgent } from '../../src/agents/copilot/node/events';
import { copilotHarnessAgent } from '../../src/agents/copilotHarness/node/events';
import { ChatSessions } from '../../src/chat/session';
import { ExternalEdits } from '../../src/core/externalEdits';
import { Gate } from '../../src/core/gate';
import { GuardedTools } from '../../src/core/guardedTools';
import { KeyedLock } from '../../src/core/lock';
import { MarkStore } from '../../src/core/marks';
import type { CallContext, GateSettings } from '../../src/core/ports';
import { Reservations } from '../../src/core/reservations';
import type { ToolOutcome } from '../../src/core/types';
import { HookRouter } from '../../src/hooks/hookRouter';
import { callOn, MemoryDocuments, MemoryLog } from './memoryDocuments';
import { MemoryEditor } from './memoryEditor';
import { readyShellLevel } from '../../src/shell';

const A = 'file:///ws/a.txt';
const CLAUDE_CHAT = 'c1a2b3c4-0000-4000-8000-00000000c1a2';
const CLI_CHAT = '3f1c2b4a-0000-4000-8000-00000000a11c';

/** Lets every callback and timer-free continuation that is ready run (no time passes). */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Whether a promise has settled once everything ready has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

/** One window's core; `disk`: the files of another window's editor, for two windows on one folder. */
function setup(boundMs = 60_000, disk?: MemoryEditor['files']) {
  const memory = new MemoryEditor();
  if (disk) Object.defineProperty(memory, 'files', { value: disk });
  const docs = new MemoryDocuments(memory);
  const store = new MarkStore();
  const log = new MemoryLog();
  const settings: GateSettings = { enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000, maxResultChars: 7000 };
  const gate = new Gate(store, docs, () => settings, log, new Reservations(boundMs));
  const tools = new GuardedTools(gate);
  const edits = new ExternalEdits(gate);
  const sessions = new ChatSessions((p) => `${p.scheme}://${p.authority}${p.path}`);
  const hooks = new HookRouter({
    shell: () => readyShellLevel(),
    edits,
    sessions,
    log,
    agents: new Map([copilotAgent, copilotHarnessAgent, claudeCodeAgent].map((a) => [a.id, a])),
    active: () => true,
    onActivity: () => undefined,
    resolveFile: (p) => ({ uri: 'file:///ws/' + p, path: p }),
  });
  const blocks: string[] = [];
  gate.onDidBlock((b) => blocks.push(`${b.tool} ${b.path} ${b.reason}`));

  /** Claude Code's hook events (its commands name it; it reads and writes the disk itself). */
  const claude = (event: string, extra: Record<string, unknown> = {}) =>
    hooks.handle(
      claudeCodeAgent.id,
      JSON.stringify({
        session_id: CLAUDE_CHAT,
        transcript_path: '/h/t.jsonl',
        cwd: '/ws',
        hook_event_name: event,
        prompt_id: 'p1',
        ...extra,
      }),
    );
  const claudeTool = (event: 'PreToolUse' | 'PostToolUse', tool: string, input: Record<string, unknown>) =>
    claude(event, { tool_name: tool, tool_input: input, ...(event === 'PostToolUse' && { tool_response: {} }) });
  /** The Copilot CLI's hook events: the harness's format, on Copilot's hooks file. */
  const cli = (event: 'PreToolUse' | 'PostToolUse', tool: string, input: Record<string, unknown>) =>
    hooks.handle(
      copilotAgent.id,
      JSON.stringify({
        hook_event_name: event,
        session_id: CLI_CHAT,
        timestamp: '2026-12-05T00:00:00.000Z',
        cwd: '/ws',
        tool_name: tool,
        tool_input: input,
      }),
    );
  const denied = (output: string) => output !== '' && JSON.parse(output).hookSpecificOutput?.permissionDecision === 'deny';
  const reason = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;

  const call = (tool: string, session = 'tools-chat'): CallContext =>
    callOn(store, tool, A, session, undefined, tool === 'editGuard_readFile' ? 'read' : 'replace');
  const read = () => tools.read(call('editGuard_readFile'), {});
  const replace = (oldString: string, newString: string) =>
    tools.replace(call('editGuard_replaceString'), { oldString, newString, replaceAll: false });
  const claudeKey = () => sessions.keyOfChatId(CLAUDE_CHAT);
  return { docs, store, log, gate, edits, hooks, blocks, claude, claudeTool, cli, denied, reason, read, replace, claudeKey };
}

/** Claude Code has read a.txt and its Edit was let through: the write is in flight (not landed). */
async function claudeEditInFlight(t: ReturnType<typeof setup>) {
  await t.claudeTool('PreToolUse', 'Read', { file_path: 'a.txt' });
  await t.claudeTool('PostToolUse', 'Read', { file_path: 'a.txt' });
  const out = await t.claudeTool('PreToolUse', 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' });
  assert.equal(out, '', "Claude Code's edit is let through");
  assert.equal(t.gate.reservations.size, 1, 'and holds the file');
}

suite('rule 14: an allowed write holds its file until it lands', () => {
  test("a guarded write waits for a hook's edit in flight, then is refused with what it wrote, naming Claude Code", async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    assert.equal((await t.read()).data.status, 'ok');
    await claudeEditInFlight(t);
    // the guarded replace comes while Claude Code's write has not landed: on the old text it would pass
    const replace = t.replace('two', 'TWO');
    assert.equal(await settled(replace), false, 'it waits for the write in flight');
    // the write lands, then Claude Code's PostToolUse says it is done
    t.docs.diskChange(A, 'ONE\ntwo\n');
    assert.equal(await settled(replace), false, 'a landed write still holds the file until its event');
    await t.claudeTool('PostToolUse', 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' });
    const out = await replace;
    assert.equal(out.data.status, 'blocked');
    assert.equal(out.data.reason, 'changed');
    assert.match(out.text, /a\.txt changed since you last read it \(written by Claude Code\)/);
    assert.match(out.text, /^-one$/m);
    assert.match(out.text, /^\+ONE$/m);
    assert.deepEqual(
      t.docs.get(A),
      { text: 'ONE\ntwo\n', disk: 'ONE\ntwo\n', dirty: false },
      "nothing of the refused write; Claude Code's is kept",
    );
    assert.equal(t.gate.reservations.size, 0);
    // the refusal counted as a read: the retry lands on top of Claude Code's write
    assert.equal((await t.replace('two', 'TWO')).data.status, 'ok');
    assert.equal(t.docs.get(A).disk, 'ONE\nTWO\n');
  });

  test("another agent's edit waits for the one in flight, then is refused with its change (the Copilot CLI after Claude Code)", async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.cli('PreToolUse', 'Read', { path: 'a.txt' });
    await t.cli('PostToolUse', 'Read', { path: 'a.txt' });
    await claudeEditInFlight(t);
    const cliEdit = t.cli('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'one', new_str: 'uno' });
    assert.equal(await settled(cliEdit), false, "the CLI's check waits for Claude Code's write");
    t.docs.diskChange(A, 'ONE\n');
    await t.claudeTool('PostToolUse', 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' });
    const out = await cliEdit;
    assert.ok(t.denied(out), 'denied');
    assert.match(t.reason(out), /written by Claude Code/);
    assert.match(t.reason(out), /^\+ONE$/m);
  });

  test('a chat never waits for its own write: its next event settles it first', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await claudeEditInFlight(t);
    t.docs.diskChange(A, 'ONE\n');
    // no PostToolUse: Claude Code's next call of the same chat is judged at once, on what its write left
    const out = await t.claudeTool('PreToolUse', 'Edit', { file_path: 'a.txt', old_string: 'ONE', new_string: 'One' });
    assert.equal(out, '', 'its own write counts as seen (rule 3)');
  });

  test('a reservation whose write never comes ends at its bound; the waiting write then decides on what is there', async () => {
    const t = setup(30);
    t.docs.file(A, 'one\ntwo\n');
    await t.read();
    await claudeEditInFlight(t);
    // no write, no further event: the bound frees the file, and nothing changed, so the replace lands
    const out = await t.replace('two', 'TWO');
    assert.equal(out.data.status, 'ok', out.text);
    assert.equal(t.gate.reservations.size, 0);
    assert.equal(t.docs.get(A).disk, 'one\nTWO\n');
  });

  test('a hook that cannot wait past its deadline is refused write-in-flight, naming the writer; no mark, nothing written', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await claudeEditInFlight(t);
    const ctx = {
      tool: 'Edit',
      verb: 'edit',
      agent: 'copilot-harness',
      session: 'cli',
      turn: undefined,
      uri: A,
      path: 'a.txt',
      arrival: t.store.watermark,
    };
    const verdict = await t.edits.check([ctx], Date.now() + 20);
    assert.equal(verdict.allow, false);
    assert.match((verdict as { text: string }).text, /^BLOCKED: nothing was written\. Claude Code is writing a\.txt right now/);
    assert.deepEqual(t.blocks, ['Edit a.txt write-in-flight']);
    assert.equal(t.store.newest('cli', A), undefined, 'no mark: the text is about to change');
    assert.equal(t.gate.reservations.size, 1, "Claude Code's reservation stands");
  });

  test('a refused call holds nothing: the other file of a patch is free again', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    t.docs.file('file:///ws/b.txt', 'b\n');
    // read b only: a is refused (not-read), so b, which passed, must not stay held
    await t.claudeTool('PreToolUse', 'Read', { file_path: 'b.txt' });
    await t.claudeTool('PostToolUse', 'Read', { file_path: 'b.txt' });
    const verdict = await t.edits.check(
      ['b.txt', 'a.txt'].map((path) => ({
        tool: 'Edit',
        verb: 'edit',
        session: t.claudeKey(),
        turn: undefined,
        uri: `file:///ws/${path}`,
        path,
        arrival: t.store.watermark,
      })),
    );
    assert.equal(verdict.allow, false);
    assert.equal(t.gate.reservations.size, 0);
  });

  test('compaction of the chat frees the files of its edits still in flight', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await claudeEditInFlight(t);
    await t.claude('PreCompact', { trigger: 'manual' });
    assert.equal(t.gate.reservations.size, 0);
  });
});

suite('rule 15: a guarded write that did not reach the disk is never reported done', () => {
  /** Another program writes the file while our edit is being saved (between the edit and the save). */
  function raceTheSave(t: ReturnType<typeof setup>, text: string): void {
    t.docs.memory.inFlight = () => t.docs.memory.writeDisk(A, text);
  }

  test('the disk changed under the edit: nothing is saved, the edit is taken back (the editor follows the disk), and the call is refused with the change', async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    await t.read();
    raceTheSave(t, 'one\ntwo\nthree, by another program\n');
    const out: ToolOutcome = await t.replace('two', 'TWO');
    assert.equal(out.data.status, 'blocked', out.text);
    assert.equal(out.data.reason, 'changed');
    assert.match(out.text, /^\+three, by another program$/m);
    assert.equal(t.docs.saves, 0, 'no save over the newer file');
    assert.equal(t.docs.memory.reloads, 1);
    assert.deepEqual(t.docs.get(A), {
      text: 'one\ntwo\nthree, by another program\n',
      disk: 'one\ntwo\nthree, by another program\n',
      dirty: false,
    });
    // the buffer is the disk's again, so it is not the user's unsaved change: a disk-writing agent may edit after a read
    await t.claudeTool('PreToolUse', 'Read', { file_path: 'a.txt' });
    await t.claudeTool('PostToolUse', 'Read', { file_path: 'a.txt' });
    assert.equal(await t.claudeTool('PreToolUse', 'Edit', { file_path: 'a.txt', old_string: 'two', new_string: '2' }), '');
  });

  test('a save the editor refuses (the disk unchanged): the edit is taken back and the call is an error, not ok', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.read();
    t.docs.memory.saveFails = true;
    const out = await t.replace('one', 'ONE');
    assert.equal(out.data.status, 'error');
    assert.equal(out.data.code, 'internal');
    assert.match(out.text, /nothing was written: VS Code could not save a\.txt, so your edit was taken back out of the editor/);
    assert.deepEqual(t.docs.get(A), { text: 'one\n', disk: 'one\n', dirty: false });
  });

  test('the user typed during that failed save: their change is never dropped, and the call says the edit is not on disk', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.read();
    t.docs.memory.saveFails = true;
    // a keystroke lands after the save was asked for and before the edit is taken back
    const save = t.docs.memory.save.bind(t.docs.memory);
    t.docs.memory.save = async (d) => {
      const ok = await save(d);
      t.docs.userEdit(A, 'ONE\ntyped\n');
      return ok;
    };
    const out = await t.replace('one', 'ONE');
    assert.equal(out.data.status, 'error');
    assert.equal(out.data.code, 'kept-in-editor', 'a known race, named as such: never internal');
    assert.match(out.text, /was not saved/);
    assert.equal(t.docs.get(A).text, 'ONE\ntyped\n', "the user's typing stays");
    assert.equal(t.docs.memory.reloads, 0);
  });
});

suite('rules 14 and 15 across two windows on one folder: what holds', () => {
  test("window B's guarded write, when an agent let through in window A writes the file under it, is refused with the change; B's buffer follows the disk", async () => {
    const a = setup();
    const b = setup(60_000, a.docs.memory.files);
    a.docs.file(A, 'one\n');
    assert.equal((await b.read()).data.status, 'ok');
    await claudeEditInFlight(a);
    // window B does not know of A's reservation: its replace is decided at once, on the old text …
    b.docs.memory.inFlight = () => a.docs.memory.writeDisk(A, 'ONE\n');
    const out = await b.replace('one', 'uno');
    // … but its save meets the newer file: nothing is saved over it, and the call says so
    assert.equal(out.data.status, 'blocked', out.text);
    assert.match(out.text, /^\+ONE$/m);
    assert.deepEqual(b.docs.get(A), { text: 'ONE\n', disk: 'ONE\n', dirty: false });
  });

  test("limit: a reservation holds only its own window: window B's check is not made to wait for a write let through in window A", async () => {
    const a = setup();
    const b = setup(60_000, a.docs.memory.files);
    a.docs.file(A, 'one\n');
    await b.read();
    await claudeEditInFlight(a);
    const out = b.replace('one', 'uno');
    assert.equal(await settled(out), true, 'decided without waiting for window A');
    assert.equal((await out).data.status, 'ok');
  });
});

suite('KeyedLock.runWithin: a turn that does not come in time gives up its place', () => {
  test('the late waiter gets { ran: false }; the one behind it runs once the holder is done', async () => {
    const lock = new KeyedLock();
    let release!: () => void;
    const holder = lock.run('k', () => new Promise<void>((resolve) => (release = resolve)));
    const late = lock.runWithin('k', Date.now() + 10, async () => 'late');
    const next = lock.run('k', async () => 'next');
    assert.deepEqual(await late, { ran: false });
    assert.equal(await settled(next), false, 'still behind the holder');
    release();
    await holder;
    assert.equal(await next, 'next');
  });
});
