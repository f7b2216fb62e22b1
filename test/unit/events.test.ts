// Events of the core: one failing listener neither stops the others (nor the gate) nor vanishes.
import * as assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events';
import { MarkStore } from '../../src/core/marks';
import { coreOver, MemoryDocuments, MemoryLog, verbOf } from './memoryDocuments';

suite('core events', () => {
  test("a listener's exception goes to the owner's handler, and the listeners after it still run", () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((e) => errors.push(e));
    const heard: number[] = [];
    emitter.event(() => {
      throw new Error('listener bug');
    });
    emitter.event((n) => heard.push(n));
    emitter.fire(7);
    assert.deepEqual(heard, [7]);
    assert.equal(errors.length, 1);
    assert.match(String((errors[0] as Error).message), /listener bug/);
  });

  test('a failing listener of a blocked write is logged, and the refusal still reaches the agent', async () => {
    const docs = new MemoryDocuments().file('file:///ws/a.txt', 'one\n');
    const log = new MemoryLog();
    const { gate, tools } = coreOver(
      new MarkStore(),
      docs,
      () => ({ enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000 }),
      log,
    );
    gate.onDidBlock(() => {
      throw new Error('diagnostics broke');
    });
    const tool = 'editGuard_writeFile';
    const out = await tools.write(
      { tool, verb: verbOf(tool), session: 's', turn: 't', uri: 'file:///ws/a.txt', path: 'a.txt', arrival: gate.arrival() },
      { content: 'two\n', append: false },
    );
    assert.equal(out.data.status, 'blocked');
    assert.equal(docs.memory.disk('file:///ws/a.txt'), 'one\n', 'nothing was written');
    assert.ok(
      log.lines.some((l) => l.startsWith('error ') && l.includes('diagnostics broke')),
      log.lines.join('\n'),
    );
  });
});
