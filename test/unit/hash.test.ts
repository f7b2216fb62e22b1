import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { HashCache, sha256 } from '../../src/core/hash';

suite('hashing', () => {
  test('sha256 is the SHA-256 of the UTF-8 bytes', () => {
    const text = 'héllo — 世界\r\n';
    assert.equal(sha256(text), createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });

  test('long texts are hashed in chunks to the same digest, surrogate pairs included', () => {
    for (const text of ['a'.repeat(256 * 1024 * 3 + 7), '😀'.repeat(300_000), 'x' + '😀'.repeat(200_000)]) {
      assert.equal(sha256(text), createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    }
  });

  test('an unchanged document version is not hashed again', () => {
    const cache = new HashCache<object>();
    const doc = {};
    let reads = 0;
    const text = () => (reads++, 'abc');
    const first = cache.hash(doc, 1, text);
    assert.equal(cache.hash(doc, 1, text), first);
    assert.equal(reads, 1);
    cache.hash(doc, 2, text);
    assert.equal(reads, 2, 'a new version is hashed');
  });

  test('a document opened again is a new object: its version 1 is not the old version 1', () => {
    // VS Code restarts versions at 1 when it reopens a document; the old hash must not answer for it
    const cache = new HashCache<object>();
    const before = {};
    const reopened = {};
    assert.equal(
      cache.hash(before, 1, () => 'old text'),
      sha256('old text'),
    );
    assert.equal(
      cache.hash(reopened, 1, () => 'new text'),
      sha256('new text'),
    );
  });
});
