import * as assert from 'node:assert/strict';
import { DEFAULT_PROTECTED_FILES, escapesThroughLink, isInsideGitFolder, isNotebook, protectedPattern, resolveToolPath } from '../../src/core/paths';

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

suite('path policy: protected files, .git, notebooks, links', () => {
  test('protected patterns match relative to the workspace folder, dotfiles included', () => {
    assert.equal(protectedPattern('/work/ws/.env', one, DEFAULT_PROTECTED_FILES), '**/.env');
    assert.equal(protectedPattern('/work/ws/config/.env.local', one, DEFAULT_PROTECTED_FILES), '**/.env.*');
    assert.equal(protectedPattern('/work/ws/certs/server.key', one, DEFAULT_PROTECTED_FILES), '**/*.key');
    assert.equal(protectedPattern('/work/ws/.vscode/settings.json', one, DEFAULT_PROTECTED_FILES), '**/.vscode/settings.json');
    assert.equal(protectedPattern('/work/ws/src/env.ts', one, DEFAULT_PROTECTED_FILES), undefined);
  });

  test('the manifest default equals the code default', () => {
    const manifest = require('../../package.json').contributes.configuration.properties['editGuard.protectedFiles'].default;
    assert.deepEqual(manifest, DEFAULT_PROTECTED_FILES);
  });

  test('.git folders and notebooks are recognised', () => {
    assert.equal(isInsideGitFolder('/work/ws/.git/config'), true);
    assert.equal(isInsideGitFolder('/work/ws/sub/.git/HEAD'), true);
    assert.equal(isInsideGitFolder('/work/ws/.github/x.yml'), false);
    assert.equal(isNotebook('/work/ws/a.IPYNB'), true);
  });

  test('a link leading outside the workspace is caught, for new files through their folder too', () => {
    const links: Record<string, string> = { '/work/ws': '/work/ws', '/work/ws/out': '/etc', '/work/ws/out/x': '/etc/x', '/work/ws/ok.txt': '/work/ws/ok.txt' };
    const realpath = (p: string) => links[p];
    assert.equal(escapesThroughLink('/work/ws/ok.txt', one, realpath), undefined);
    assert.equal(escapesThroughLink('/work/ws/out/x', one, realpath), '/etc/x');
    assert.equal(escapesThroughLink('/work/ws/out/new-file', one, realpath), '/etc', 'nearest existing ancestor');
  });
});
