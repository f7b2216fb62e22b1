// The round trip that brings the editor's documents up to date, shared (src/core/barrier.ts,
// docs/design.md §Layers, *The answer comes first*): who may share one, and who must not.
import * as assert from 'node:assert/strict';
import { SharedBarrier } from '../../src/core/barrier';

/** A barrier on a clock the test moves, whose round trips come back when the test says. */
function barrierOnClock() {
  let now = 0;
  const answers: Array<(ok: boolean) => void> = [];
  const barrier = new SharedBarrier(
    () => new Promise((resolve, reject) => answers.push((ok) => (ok ? resolve(undefined) : reject(new Error('gone'))))),
    () => now,
  );
  return { barrier, answers, tick: (ms: number) => (now += ms), at: () => now };
}

suite('shared barrier: one round trip for every call it is valid for', () => {
  test('calls that arrived before a round trip was sent share it, whether it is on its way or back', async () => {
    const b = barrierOnClock();
    const arrived = b.at();
    const first = b.barrier.pass(arrived);
    b.tick(3);
    const second = b.barrier.pass(arrived);
    assert.equal(b.barrier.sent, 1);
    b.answers[0](true);
    await Promise.all([first, second]);
    assert.equal(await b.barrier.pass(arrived), undefined);
    assert.equal(b.barrier.sent, 1, 'a later load of the same call shares it too');
  });

  test('a call that arrived after the round trip was sent gets its own: a keystroke made after the workbench answered would be missing', async () => {
    const b = barrierOnClock();
    void b.barrier.pass(b.at());
    b.tick(1);
    void b.barrier.pass(b.at());
    assert.equal(b.barrier.sent, 2);
    b.tick(1);
    void b.barrier.pass();
    assert.equal(b.barrier.sent, 3, 'no time given: now');
  });

  test('a round trip that fails has still come back: the call goes on', async () => {
    const b = barrierOnClock();
    const passing = b.barrier.pass(b.at());
    b.answers[0](false);
    assert.equal(await passing, undefined);
  });
});
