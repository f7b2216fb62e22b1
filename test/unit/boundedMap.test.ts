// The bounded map behind every cache: it never holds more than `max`, and it forgets the least
// recently used entry first (a read counts as a use).
import * as assert from 'node:assert/strict';
import { BoundedMap } from '../../src/core/boundedMap';

suite('bounded map', () => {
  test('over its bound it forgets the least recently used entry, and a read or a set counts as a use', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    assert.equal(m.get('a'), 1); // a is now the most recently used: b is the oldest
    m.set('d', 4);
    assert.equal(m.size, 3);
    assert.equal(m.has('b'), false, 'the least recently used went');
    assert.deepEqual(
      ['a', 'c', 'd'].map((k) => m.get(k)),
      [1, 3, 4],
    );
    m.set('c', 30); // a set of a known key is a use too, and replaces the value
    m.set('e', 5); // the oldest is now a (read before c and d were read above)
    assert.equal(m.has('a'), false);
    assert.equal(m.get('c'), 30);
    assert.equal(m.delete('c'), true);
    assert.equal(m.get('c'), undefined);
    assert.equal(m.size, 2);
  });

  test('peek reads without counting as a use; iteration lists the least recently used first', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    assert.equal(m.peek('a'), 1);
    assert.equal(m.peek('x'), undefined);
    m.set('d', 4);
    assert.equal(m.has('a'), false, 'a peek did not keep a alive');
    m.get('b');
    assert.deepEqual(
      [...m],
      [
        ['c', 3],
        ['d', 4],
        ['b', 2],
      ],
    );
    const copy = new BoundedMap<string, number>(3);
    for (const [k, v] of m) copy.set(k, v);
    copy.set('e', 5);
    assert.deepEqual(
      [...copy].map(([k]) => k),
      ['d', 'b', 'e'],
      'rebuilt in that order, the copy forgets the same entry first',
    );
  });

  test('a bound below one is refused, not taken as "no bound"', () => {
    assert.throws(() => new BoundedMap(0), RangeError);
    assert.throws(() => new BoundedMap(Number.POSITIVE_INFINITY), RangeError);
  });
});
