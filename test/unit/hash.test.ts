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
    const cache = new HashCache();
    let reads = 0;
    const text = () => (reads++, 'abc');
    const first = cache.hash('doc', 1, text);
    assert.equal(cache.hash('doc', 1, text), first);
    assert.equal(reads, 1);
    cache.hash('doc', 2, text);
    assert.equal(reads, 2, 'a new version is hashed');
  });

  test('the cache is bounded', () => {
    const cache = new HashCache(3);
    for (let i = 0; i < 10; i++) cache.hash(`d${i}`, 1, () => String(i));
    assert.equal(cache.size, 3);
  });
});
