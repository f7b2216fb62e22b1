import * as assert from 'node:assert/strict';
import { resolveToolPath } from '../../src/core/paths';

const one = [{ name: 'ws', fsPath: '/work/ws' }];
const two = [{ name: 'app', fsPath: '/r/app' }, { name: 'lib', fsPath: '/r/lib' }];

suite('path policy', () => {
  test('relative to the first folder; absolute as is', () => {
    const r = resolveToolPath('src/a.ts', one);
    assert.deepEqual(r.ok && [r.fsPath, r.display], ['/work/ws/src/a.ts', 'src/a.ts']);
    const a = resolveToolPath('/work/ws/b.txt', one);
    assert.deepEqual(a.ok && [a.fsPath, a.display], ['/work/ws/b.txt', 'b.txt']);
  });

  test('multi-root: folderName/… picks that folder, and paths show it', () => {
    const r = resolveToolPath('lib/x.ts', two);
    assert.deepEqual(r.ok && [r.fsPath, r.display], ['/r/lib/x.ts', 'lib/x.ts']);
    const first = resolveToolPath('src/y.ts', two);
    assert.deepEqual(first.ok && first.display, 'app/src/y.ts');
  });

  test('.. is normalised and outside the workspace is refused', () => {
    const r = resolveToolPath('../etc/passwd', one);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.code, 'outside-workspace');
    assert.equal(resolveToolPath('/etc/passwd', one).ok, false);
    assert.equal(resolveToolPath('src/../a.ts', one).ok, true);
    assert.equal(resolveToolPath('/etc/passwd', one, true).ok, true, 'allowed when the setting says so');
  });

  test('empty, non-string or NUL-holding paths are invalid input', () => {
    for (const bad of ['', '  ', null, 42, 'a\0b']) {
      const r = resolveToolPath(bad, one);
      assert.equal(!r.ok && r.code, 'invalid-input', String(bad));
    }
  });
});
