// Answer first, then tidy (src/core/afterAnswer.ts; docs/design.md §Layers): the surfaces' refreshes wait
// for the answers in progress, run once per burst, and never hold up or change an answer.
import * as assert from 'node:assert/strict';
import { ChatNames } from '../../src/chat/names';
import { ChatSessions } from '../../src/chat/session';
import { copilotAgent } from '../../src/agents/copilot/node/events';
import { AfterAnswer, MAX_TIDY_DELAY_MS } from '../../src/core/afterAnswer';
import { HookRouter } from '../../src/hooks/hookRouter';
import { coreFixture } from './memoryDocuments';
import { readyShellLevel } from '../../src/shell';

const failOnError = (e: unknown) => assert.fail(`a refresh threw: ${String(e)}`);

/** A promise and the function that settles it: an answer the test ends when it chooses. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

/** Resolves once `ok()` holds, checking after each turn of the event loop (no fixed delay). */
async function until(ok: () => boolean, what: string, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (ok()) return;
    await new Promise((r) => setImmediate(r));
  }
  assert.fail(`never happened: ${what}`);
}

suite('AfterAnswer: the surfaces are refreshed after the answers', () => {
  test('a refresh asked for during an answer runs only once the answer is given', async () => {
    const errors: unknown[] = [];
    const tidy = new AfterAnswer((e) => errors.push(e));
    const order: string[] = [];
    const ends = gate();
    const answered = tidy.answer(async () => {
      tidy.later(() => order.push('refresh'));
      await ends.opened;
      order.push('answer made');
      return 'the answer';
    });
    // turns of the event loop pass while the answer is being made: the refresh waits for it
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(order.length, 0, 'nothing ran before the answer was made');
    ends.open();
    assert.equal(await answered, 'the answer');
    order.push('answer given');
    await until(() => order.includes('refresh'), 'the refresh after the answer');
    assert.deepEqual(order, ['answer made', 'answer given', 'refresh']);
    assert.deepEqual(errors, []);
    tidy.dispose();
  });

  test('a burst of changes is one refresh; two refreshes run in the order first asked for', async () => {
    const tidy = new AfterAnswer(failOnError);
    const ran: string[] = [];
    const status = tidy.coalesced(() => ran.push('status'));
    const view = tidy.coalesced(() => ran.push('view'));
    await tidy.answer(async () => {
      for (let i = 0; i < 50; i++) {
        status();
        view();
      }
    });
    await until(() => ran.length >= 2, 'both refreshes');
    // a later change asks again
    status();
    await until(() => ran.length >= 3, 'the next refresh');
    assert.deepEqual(ran, ['status', 'view', 'status']);
    tidy.dispose();
  });

  test('answers that keep coming do not hold the surfaces back past the bound', async () => {
    const tidy = new AfterAnswer(failOnError);
    let refreshed = false;
    const never = gate();
    // an answer still being made (a check waiting for another chat's write, up to seconds)
    void tidy.answer(() => never.opened);
    const asked = Date.now();
    tidy.later(() => (refreshed = true));
    await until(() => refreshed, 'the overdue refresh', 1_000_000);
    assert.ok(Date.now() - asked >= MAX_TIDY_DELAY_MS - 5, 'not before its bound, while the answer is still being made');
    never.open();
    tidy.dispose();
  });

  test('a refresh that throws is reported and does not stop the others', async () => {
    const errors: unknown[] = [];
    const tidy = new AfterAnswer((e) => errors.push(e));
    let after = false;
    tidy.later(() => {
      throw new Error('broken view');
    });
    tidy.later(() => (after = true));
    await until(() => after, 'the refresh after the broken one');
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /broken view/);
    tidy.dispose();
  });

  test('the answers to hook events are the same whether the deferred refreshes ever run or not', async () => {
    const CHAT = '8f6a71fe-6353-4bd9-a032-dba0e1966cf5';
    const A = 'file:///ws/a.txt';
    /** One window: the router as activate() wires it, its surfaces' refreshes behind `schedule`; a scenario's answers. */
    const run = async (schedule: ((run: () => void) => void) | undefined) => {
      // `schedule` given: the refreshes' only way to run, with no bound behind the answers
      const { docs, store, log, edits } = coreFixture({ maxResultChars: 7000 });
      const names = new ChatNames();
      const tidy = new AfterAnswer(failOnError, schedule ?? setImmediate, schedule ? Infinity : undefined);
      let refreshes = 0;
      // what the status bar and the views listen to, as src/activation/surfaces.ts wires them
      const refresh = tidy.coalesced(() => refreshes++);
      store.onDidChange(refresh);
      names.onDidChange(refresh);
      const router = new HookRouter({
        shell: () => readyShellLevel(),
        edits,
        sessions: new ChatSessions((p) => `${p.scheme}://${p.authority}${p.path}`),
        log,
        agents: new Map([[copilotAgent.id, copilotAgent]]),
        active: () => true,
        onActivity: refresh,
        resolveFile: (p) => ({ uri: 'file:///ws/' + p, path: p }),
        names,
      });
      let n = 0;
      const send = (event: string, extra: Record<string, unknown>) =>
        tidy.answer(() =>
          router.handle(
            copilotAgent.id,
            JSON.stringify({
              hook_event_name: event,
              session_id: CHAT,
              transcript_path: '/x/t.jsonl',
              cwd: '/ws',
              tool_use_id: `toolu_${++n}`,
              ...extra,
            }),
          ),
        );
      const read = { tool_name: 'read_file', tool_input: { filePath: 'a.txt', startLine: 1, endLine: 9 } };
      const replace = (oldString: string) => ({
        tool_name: 'replace_string_in_file',
        tool_input: { filePath: 'a.txt', oldString, newString: 'y' },
      });
      docs.file(A, 'one\ntwo\n');
      const answers: string[] = [];
      answers.push(await send('UserPromptSubmit', { prompt: 'change two' }));
      answers.push(await send('PreToolUse', read));
      answers.push(await send('PostToolUse', { ...read, tool_response: 'one\ntwo\n' }));
      answers.push(await send('PreToolUse', replace('two')));
      docs.userEdit(A, 'one\ny\n'); // the tool's edit lands
      answers.push(await send('PostToolUse', { ...replace('two'), tool_response: '' }));
      docs.userEdit(A, 'one\ny\nthree\n'); // the user types
      answers.push(await send('PreToolUse', replace('y'))); // refused, with the change
      answers.push(await send('PreToolUse', replace('y'))); // the refusal was a read: allowed
      return { answers, refreshes: () => refreshes };
    };
    const held = await run(() => undefined); // the tidy never runs
    const tidied = await run(undefined);
    assert.deepEqual(held.answers, tidied.answers);
    assert.match(held.answers[5], /"permissionDecision":"deny"/);
    assert.equal(held.answers[6], '');
    // in the held window the refreshes were really deferred, and never ran; in the other they ran
    assert.equal(held.refreshes(), 0);
    await until(() => tidied.refreshes() > 0, 'the refreshes of the window that tidies');
  });
});
