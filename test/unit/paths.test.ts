import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import packageJson from '../../package.json';
import { type FileFacts, resolveToolPath } from '../../src/core/pathResolution';
import {
  DEFAULT_PROTECTED_FILES,
  isInsideGitFolder,
  isNotebook,
  type PathPolicyOptions,
  policeToolPath,
  protectedPattern,
  realTargetOf,
} from '../../src/core/paths';

const one = [{ name: 'ws', fsPath: '/work/ws' }];
const two = [
  { name: 'app', fsPath: '/r/app' },
  { name: 'lib', fsPath: '/r/lib' },
];

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
    const manifest = packageJson.contributes.configuration.properties['editGuard.protectedFiles'].default;
    assert.deepEqual(manifest, DEFAULT_PROTECTED_FILES);
  });

  test('.git folders and notebooks are recognised', () => {
    assert.equal(isInsideGitFolder('/work/ws/.git/config'), true);
    assert.equal(isInsideGitFolder('/work/ws/sub/.git/HEAD'), true);
    assert.equal(isInsideGitFolder('/work/ws/.github/x.yml'), false);
    assert.equal(isNotebook('/work/ws/a.IPYNB'), true);
  });

  test('a link leading outside the workspace is caught, for new files through their folder too', () => {
    const links: Record<string, string> = {
      '/work/ws': '/work/ws',
      '/work/ws/out': '/etc',
      '/work/ws/out/x': '/etc/x',
      '/work/ws/ok.txt': '/work/ws/ok.txt',
    };
    const facts: FileFacts = { exists: (p) => p in links, realpath: (p) => links[p], readlink: () => undefined };
    const police = (p: string) =>
      policeToolPath(p, { folders: one, allowOutsideWorkspace: false, writes: true, facts, protectedFiles: () => [] });
    assert.equal(police('/work/ws/ok.txt').ok, true);
    const out = police('/work/ws/out/x');
    assert.ok(!out.ok && out.code === 'outside-workspace' && out.message.includes('/etc/x'), JSON.stringify(out));
    const created = police('/work/ws/out/new-file');
    assert.ok(
      !created.ok && created.code === 'outside-workspace' && created.message.includes('/etc/new-file'),
      `nearest existing ancestor, joined with the rest: ${JSON.stringify(created)}`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// a small fake file system: the facts the adapter would read from disk

type Entry = 'file' | 'dir' | { link: string };

/** Files, folders and symbolic links at absolute POSIX paths; parents of any entry are folders. */
function fakeFs(entries: Record<string, Entry>): FileFacts {
  const entryAt = (p: string): Entry | undefined =>
    entries[p] ?? (p === '/' || Object.keys(entries).some((k) => k.startsWith(p + '/')) ? 'dir' : undefined);
  const realpath = (p: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined; // a loop, like ELOOP
    let at = '/';
    for (const part of p.split('/').filter(Boolean)) {
      const next = path.posix.join(at, part);
      const e = entryAt(next);
      if (e === undefined) return undefined;
      if (typeof e === 'object') {
        const target = realpath(path.posix.resolve(at, e.link), hops + 1);
        if (target === undefined) return undefined;
        at = target;
      } else at = next;
    }
    return at;
  };
  /** the entry itself, its folder's links resolved (what lstat sees) */
  const own = (p: string): Entry | undefined => {
    const parent = realpath(path.posix.dirname(p));
    return parent === undefined ? undefined : entryAt(path.posix.join(parent, path.posix.basename(p)));
  };
  return {
    exists: (p) => own(p) !== undefined,
    realpath: (p) => realpath(p),
    readlink: (p) => {
      const e = own(p);
      return typeof e === 'object' ? e.link : undefined;
    },
  };
}

const NOTHING = fakeFs({ '/work/ws': 'dir' });

suite('paths as sent: file:// URIs and other schemes', () => {
  const resolve = (p: string, facts: FileFacts = NOTHING) => resolveToolPath(p, one, false, facts.exists);
  const fsPathOf = (p: string, facts?: FileFacts) => {
    const r = resolve(p, facts);
    assert.ok(r.ok, `${JSON.stringify(p)} resolves: ${!r.ok && r.message}`);
    return r.fsPath;
  };

  test('file:///abs/path is that absolute path (FILE: too, and file:/abs)', () => {
    assert.equal(fsPathOf('file:///work/ws/src/a.ts'), '/work/ws/src/a.ts');
    assert.equal(fsPathOf('FILE:///work/ws/src/a.ts'), '/work/ws/src/a.ts');
    assert.equal(fsPathOf('file:/work/ws/src/a.ts'), '/work/ws/src/a.ts');
    const r = resolve('file:///work/ws/src/a.ts');
    assert.equal(r.ok && r.display, 'src/a.ts');
  });

  test('percent-encoding is decoded; a raw space is taken as it is', () => {
    assert.equal(fsPathOf('file:///work/ws/my%20notes.txt'), '/work/ws/my notes.txt');
    assert.equal(fsPathOf('file:///work/ws/caf%C3%A9.txt'), '/work/ws/café.txt');
    assert.equal(fsPathOf('file:///work/ws/my notes.txt'), '/work/ws/my notes.txt');
    assert.equal(fsPathOf('file:///work/ws/a%23b.txt'), '/work/ws/a#b.txt');
  });

  test('file://localhost/… is this machine', () => {
    assert.equal(fsPathOf('file://localhost/work/ws/a.txt'), '/work/ws/a.txt');
  });

  test('file://otherhost/… is refused as invalid input naming the host', () => {
    const r = resolve('file://build-server/work/ws/a.txt');
    assert.equal(!r.ok && r.code, 'invalid-input');
    assert.match(!r.ok ? r.message : '', /host "build-server"/);
  });

  test('a file:// URI that cannot be decoded is refused, not guessed at', () => {
    for (const bad of ['file:///work/ws/a%2Fb.txt', 'file:///work/ws/100%.txt', 'file:///work/ws/a\tb.txt']) {
      const r = resolve(bad);
      assert.equal(!r.ok && r.code, 'invalid-input', bad);
      assert.match(!r.ok ? r.message : '', /file:\/\/ URI/, bad);
    }
  });

  test('a file:// URI outside the workspace is outside-workspace', () => {
    const r = resolve('file:///etc/passwd');
    assert.equal(!r.ok && r.code, 'outside-workspace');
  });

  test('other schemes are invalid input: only file paths or file:// URIs', () => {
    for (const uri of [
      'vscode-remote://ssh-remote+box/work/ws/a.txt',
      'untitled:Untitled-1',
      'http://example.com/a.txt',
      'https://x/y',
      'vscode-userdata:/u/settings.json',
      'vscode-notebook-cell:/a.ipynb#X1',
    ]) {
      const r = resolve(uri);
      assert.equal(!r.ok && r.code, 'invalid-input', uri);
      assert.match(!r.ok ? r.message : '', /only file paths .* or file:\/\/ URIs/, uri);
      assert.equal(/"\.\//.test(!r.ok ? r.message : ''), !uri.includes('://'), `the ./ hint only where a file name could be meant: ${uri}`);
    }
  });

  test('a Windows drive letter is not a scheme (a scheme has two characters or more)', () => {
    for (const drive of ['C:\\x\\a.txt', 'C:/x/a.txt', 'c:/x']) {
      const r = resolve(drive);
      assert.ok(r.ok || r.code !== 'invalid-input', `${drive} is taken as a path: ${!r.ok && r.message}`);
    }
  });

  test('a file whose name only looks like a URI is still that file; ./ says so for a new one', () => {
    const facts = fakeFs({ '/work/ws/notes:2024.txt': 'file' });
    assert.equal(fsPathOf('notes:2024.txt', facts), '/work/ws/notes:2024.txt');
    const fresh = resolve('todo:later.txt', facts);
    assert.equal(!fresh.ok && fresh.code, 'invalid-input');
    assert.match(!fresh.ok ? fresh.message : '', /"\.\/todo:later\.txt"/);
    assert.equal(fsPathOf('./todo:later.txt', facts), '/work/ws/todo:later.txt');
  });
});

suite('paths as sent: stray whitespace and control characters', () => {
  const facts = fakeFs({
    '/work/ws/gen/a.txt': 'file',
    '/work/ws/gen/dir': 'dir',
    '/work/ws/gen/padded.txt ': 'file',
    '/work/ws/gen/tab\there.txt': 'file',
  });
  const resolve = (p: string) => resolveToolPath(p, one, false, facts.exists);

  test('stray whitespace around an existing file resolves to it', () => {
    for (const p of [
      'gen/a.txt ',
      '\tgen/a.txt',
      'gen/a.txt\n',
      'gen/a.txt\r\n',
      '  gen/a.txt \t',
      ' /work/ws/gen/a.txt',
      'file:///work/ws/gen/a.txt\n',
      ' file:///work/ws/gen/a.txt',
    ]) {
      const r = resolve(p);
      assert.equal(r.ok && r.fsPath, '/work/ws/gen/a.txt', JSON.stringify(p));
    }
  });

  test('a trimmed path that is a folder is used (the tools then say it is a folder)', () => {
    const r = resolve('gen/dir ');
    assert.equal(r.ok && r.fsPath, '/work/ws/gen/dir');
  });

  test('a file that really has the whitespace in its name is that file', () => {
    const r = resolve('gen/padded.txt ');
    assert.equal(r.ok && r.fsPath, '/work/ws/gen/padded.txt ');
  });

  test('stray whitespace on a path where nothing exists (a create) is refused, naming the characters', () => {
    const cases: Array<[string, RegExp]> = [
      ['gen/new.txt ', /trailing " "/],
      ['\tgen/new.txt', /leading "\\t"/],
      ['gen/new.txt\n', /trailing "\\n"/],
      [' gen/new.txt\r\n', /leading " " and trailing "\\r\\n"/],
    ];
    for (const [p, names] of cases) {
      const r = resolve(p);
      assert.equal(!r.ok && r.code, 'invalid-input', JSON.stringify(p));
      const message = !r.ok ? r.message : '';
      assert.match(message, names, message);
      assert.ok(message.includes(JSON.stringify(p)), `the path is quoted visibly: ${message}`);
      assert.match(message, /"gen\/new\.txt"/, 'the trimmed path is named');
      assert.match(message, /Remove the stray whitespace/);
    }
  });

  test('without file facts, a padded path is refused rather than guessed', () => {
    const r = resolveToolPath('gen/a.txt ', one);
    assert.equal(!r.ok && r.code, 'invalid-input');
  });

  test('control characters inside a path are refused unless a file has exactly that name', () => {
    for (const [p, shown] of [
      ['gen/a\tb.txt', '"\\t"'],
      ['gen/a\nb.txt', '"\\n"'],
      ['gen/\u001b[31mred.txt', '"\\u001b"'],
      ['gen/del\u007f.txt', '"\\u007f"'],
    ]) {
      const r = resolve(p);
      assert.equal(!r.ok && r.code, 'invalid-input', JSON.stringify(p));
      const message = !r.ok ? r.message : '';
      assert.match(message, /control character/);
      assert.ok(message.includes(shown), `${shown} is named in: ${message}`);
      // eslint-disable-next-line no-control-regex -- the test looks for control characters
      assert.ok(!/[\u0000-\u001f\u007f]/.test(message), `the message itself holds no control character: ${JSON.stringify(message)}`);
    }
    const real = resolve('gen/tab\there.txt');
    assert.equal(real.ok && real.fsPath, '/work/ws/gen/tab\there.txt');
  });

  test('NUL is still refused even if the facts say something is there', () => {
    const r = resolveToolPath('gen/a\0.txt', one, false, () => true);
    assert.match(!r.ok ? r.message : '', /NUL/);
  });
});

suite('paths as sent: every policy decides on the real target too', () => {
  // gen/u is a folder with a nested repository, a .env and a notebook; the rest are links to them
  const facts = fakeFs({
    '/work/ws/gen/u/.git/hooks/pre-commit': 'file',
    '/work/ws/gen/u/.env': 'file',
    '/work/ws/gen/u/plain.txt': 'file',
    '/work/ws/gen/u/book.ipynb': 'file',
    '/work/ws/gen/to-hook.txt': { link: 'u/.git/hooks/pre-commit' },
    '/work/ws/gen/hooks': { link: '/work/ws/gen/u/.git/hooks' },
    '/work/ws/gen/dangling.txt': { link: 'u/.git/hooks/post-checkout' },
    '/work/ws/gen/note.txt': { link: 'u/.env' },
    '/work/ws/gen/.env': { link: 'u/plain.txt' },
    '/work/ws/gen/nb.txt': { link: 'u/book.ipynb' },
    '/work/ws/gen/out': { link: '/etc' },
    '/etc/passwd': 'file',
  });
  const options = (writes: boolean, more: Partial<PathPolicyOptions> = {}): PathPolicyOptions => ({
    folders: one,
    allowOutsideWorkspace: false,
    writes,
    facts,
    protectedFiles: () => DEFAULT_PROTECTED_FILES,
    ...more,
  });
  const write = (p: string) => policeToolPath(p, options(true));
  const read = (p: string) => policeToolPath(p, options(false));

  test('the real target: the realpath, or the nearest existing ancestor joined with the rest, or a dangling link followed', () => {
    assert.equal(realTargetOf('/work/ws/gen/to-hook.txt', facts), '/work/ws/gen/u/.git/hooks/pre-commit');
    assert.equal(realTargetOf('/work/ws/gen/hooks/new-hook', facts), '/work/ws/gen/u/.git/hooks/new-hook');
    assert.equal(realTargetOf('/work/ws/gen/dangling.txt', facts), '/work/ws/gen/u/.git/hooks/post-checkout');
    assert.equal(realTargetOf('/work/ws/gen/new/deeper.txt', facts), '/work/ws/gen/new/deeper.txt');
    const loop = fakeFs({ '/work/ws/a': { link: 'b' }, '/work/ws/b': { link: 'a' } });
    assert.equal(typeof realTargetOf('/work/ws/a', loop), 'string', 'a link loop ends');
  });

  test('a link to a file in .git: writes refused (protected), naming the target; reads still allowed', () => {
    const r = write('gen/to-hook.txt');
    assert.equal(!r.ok && r.code, 'protected');
    assert.equal(
      !r.ok && r.message,
      "gen/to-hook.txt is a symbolic link to gen/u/.git/hooks/pre-commit, inside a .git folder: the repository's own data, which agents may not write, through a link or otherwise. Use git commands instead.",
    );
    assert.equal(read('gen/to-hook.txt').ok, true);
  });

  test('a new file through a linked folder that leads into .git is refused', () => {
    const r = write('gen/hooks/pre-push');
    assert.equal(!r.ok && r.code, 'protected');
    assert.match(
      !r.ok ? r.message : '',
      /gen\/hooks\/pre-push lies under a symbolic link and leads to gen\/u\/\.git\/hooks\/pre-push, inside a \.git folder/,
    );
  });

  test('a dangling link into .git is refused too (writing through it would create the hook)', () => {
    const r = write('gen/dangling.txt');
    assert.equal(!r.ok && r.code, 'protected');
    assert.match(!r.ok ? r.message : '', /symbolic link to gen\/u\/\.git\/hooks\/post-checkout/);
  });

  test('a harmless name linking to .env is protected, and says where it leads', () => {
    const r = read('gen/note.txt');
    assert.ok(r.ok);
    assert.equal(r.protectedBy, '**/.env');
    assert.equal(r.protectedTarget, 'gen/u/.env');
    assert.equal(r.fsPath, '/work/ws/gen/note.txt', 'the path as given is kept, not canonicalised');
    assert.equal(r.realPath, '/work/ws/gen/u/.env');
    assert.equal(r.display, 'gen/note.txt');
  });

  test('a link named .env to a harmless file is still asked about (the name matches)', () => {
    const r = read('gen/.env');
    assert.ok(r.ok);
    assert.equal(r.protectedBy, '**/.env');
    assert.equal(r.protectedTarget, undefined, 'the path as given matched: no link to explain');
    assert.equal(r.realPath, '/work/ws/gen/u/plain.txt');
  });

  test('a plain file is not protected and its real path is itself', () => {
    const r = write('gen/u/plain.txt');
    assert.ok(r.ok);
    assert.equal(r.protectedBy, undefined);
    assert.equal(r.realPath, '/work/ws/gen/u/plain.txt');
  });

  test('a link to a notebook: writes refused naming the notebook, reads allowed', () => {
    const r = write('gen/nb.txt');
    assert.equal(!r.ok && r.code, 'invalid-input');
    assert.match(!r.ok ? r.message : '', /gen\/nb\.txt is a symbolic link to gen\/u\/book\.ipynb, a Jupyter notebook/);
    assert.equal(read('gen/nb.txt').ok, true);
  });

  test('a link out of the workspace is outside-workspace, naming the target', () => {
    const r = read('gen/out/passwd');
    assert.equal(!r.ok && r.code, 'outside-workspace');
    assert.match(!r.ok ? r.message : '', /gen\/out\/passwd lies under a symbolic link and leads to \/etc\/passwd, outside the workspace/);
    assert.equal(policeToolPath('gen/out/passwd', options(false, { allowOutsideWorkspace: true })).ok, true);
  });

  test('the target is matched against the patterns of the folder holding it, relative to that folder', () => {
    const multi = fakeFs({ '/r/lib/secrets/token.txt': 'file', '/r/app/token.txt': { link: '/r/lib/secrets/token.txt' } });
    const asked: string[] = [];
    const r = policeToolPath('app/token.txt', {
      folders: two,
      allowOutsideWorkspace: false,
      writes: false,
      facts: multi,
      protectedFiles: (p) => (asked.push(p), p.startsWith('/r/lib/') ? ['secrets/**'] : []),
    });
    assert.ok(r.ok);
    assert.equal(r.protectedBy, 'secrets/**');
    assert.equal(r.protectedTarget, 'lib/secrets/token.txt');
    assert.deepEqual(asked, ['/r/app/token.txt', '/r/lib/secrets/token.txt']);
  });

  test('a workspace folder opened through a link: its own files are not "links", nor outside', () => {
    const linked = fakeFs({ '/real/ws/.env': 'file', '/real/ws/a.txt': 'file', '/work/ws': { link: '/real/ws' } });
    const opts = { folders: one, allowOutsideWorkspace: false, facts: linked, protectedFiles: () => DEFAULT_PROTECTED_FILES };
    const env = policeToolPath('.env', { ...opts, writes: false });
    assert.ok(env.ok);
    assert.equal(env.protectedBy, '**/.env');
    assert.equal(env.protectedTarget, undefined);
    const plain = policeToolPath('a.txt', { ...opts, writes: true });
    assert.ok(plain.ok);
    assert.equal(plain.realPath, '/real/ws/a.txt');
    assert.equal(plain.protectedBy, undefined);
  });
});
