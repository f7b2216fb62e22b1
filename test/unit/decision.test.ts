import * as assert from 'node:assert/strict';
import { decide, type GateInput } from '../../src/core/decision';
import type { ReadMark } from '../../src/core/marks';

const mark = (over: Partial<ReadMark> = {}): ReadMark => ({
  session: 's',
  uri: 'file:///a',
  hash: 'H1',
  origin: 'read',
  at: 0,
  seq: 1,
  ...over,
});
const input = (over: Partial<GateInput> = {}): GateInput => ({
  enabled: true,
  exists: true,
  currentHash: 'H1',
  mark: mark(),
  turn: 't1',
  ownWriteKeepsMark: 'sameTurn',
  ...over,
});

suite('gate decision (pure)', () => {
  test('rule 2: a write passes when the newest mark equals the current hash', () => {
    assert.deepEqual(decide(input()), { allow: true, basis: 'seen' });
  });
  test('rule 2: a write is blocked (not-read) without any mark', () => {
    assert.deepEqual(decide(input({ mark: undefined })), { allow: false, reason: 'not-read' });
  });
  test('rule 2: a write is blocked (changed) when the current hash differs from the mark', () => {
    assert.deepEqual(decide(input({ currentHash: 'H2' })), { allow: false, reason: 'changed' });
  });
  test('rule 2: a refusal mark counts like a read', () => {
    assert.deepEqual(decide(input({ mark: mark({ origin: 'refusal' }) })), { allow: true, basis: 'seen' });
  });
  test('rule 3 (sameTurn): an own write counts in the same turn only', () => {
    const write = mark({ origin: 'write', turn: 't1' });
    assert.deepEqual(decide(input({ mark: write, turn: 't1' })), { allow: true, basis: 'own-write' });
    assert.deepEqual(decide(input({ mark: write, turn: 't2' })), { allow: false, reason: 'own-write-expired' });
  });
  test('rule 3 (sameTurn): with no turn id every call is its own turn', () => {
    const write = mark({ origin: 'write', turn: undefined });
    assert.deepEqual(decide(input({ mark: write, turn: undefined })), { allow: false, reason: 'own-write-expired' });
  });
  test('rule 3 (never): an own write never counts, even in the same turn', () => {
    assert.deepEqual(decide(input({ mark: mark({ origin: 'write', turn: 't1' }), ownWriteKeepsMark: 'never' })), {
      allow: false,
      reason: 'own-write-expired',
    });
  });
  test('rule 3 (always): an own write counts in later turns', () => {
    assert.deepEqual(decide(input({ mark: mark({ origin: 'write', turn: 't1' }), turn: 't9', ownWriteKeepsMark: 'always' })), {
      allow: true,
      basis: 'own-write',
    });
  });
  test('rule 3: an own write whose file changed since is "changed", not "expired"', () => {
    assert.deepEqual(decide(input({ mark: mark({ origin: 'write' }), currentHash: 'H2' })), { allow: false, reason: 'changed' });
  });
  test('rule 2 (readKeepsMark sameTurn): a read or a refusal counts in its own turn only, and its file unchanged gives read-expired', () => {
    const sameTurn = { readKeepsMark: 'sameTurn' as const };
    assert.deepEqual(decide(input({ ...sameTurn, mark: mark({ turn: 't1' }) })), { allow: true, basis: 'seen' });
    assert.deepEqual(decide(input({ ...sameTurn, mark: mark({ turn: 't0' }) })), { allow: false, reason: 'read-expired' });
    assert.deepEqual(decide(input({ ...sameTurn, mark: mark({ turn: 't0', origin: 'refusal' }) })), {
      allow: false,
      reason: 'read-expired',
    });
    assert.deepEqual(
      decide(input({ ...sameTurn, mark: mark({ turn: 't0' }), currentHash: 'H2' })),
      { allow: false, reason: 'changed' },
      'a change is the more useful thing to tell',
    );
    // the default, and a call without a turn id (no turn to end: the retry must pass)
    assert.deepEqual(decide(input({ mark: mark({ turn: 't0' }) })), { allow: true, basis: 'seen' });
    assert.deepEqual(decide(input({ ...sameTurn, turn: undefined, mark: mark({ turn: undefined }) })), { allow: true, basis: 'seen' });
  });
  test('rule 4: creating a file that does not exist is allowed without a mark', () => {
    assert.deepEqual(decide(input({ exists: false, mark: undefined })), { allow: true, basis: 'new-file' });
  });
  test('rule 8: with the gate disabled nothing is blocked', () => {
    assert.deepEqual(decide(input({ enabled: false, mark: undefined })), { allow: true, basis: 'disabled' });
    assert.deepEqual(decide(input({ enabled: false, currentHash: 'other' })), { allow: true, basis: 'disabled' });
  });
});
