// The runtime strings bundle: l10n/bundle.l10n.json is what `npm run l10n` (@vscode/l10n-dev's
// export) writes from src/ now, and every vscode.l10n.t call is one the export can see. A string
// added or changed without `npm run l10n` fails here.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const bundleFile = path.join(root, 'l10n', 'bundle.l10n.json');
const committed = readFileSync(bundleFile, 'utf8');
const bundle: Record<string, string | { message: string; comment: string[] }> = JSON.parse(committed);

/** The quoted string at `text[at]` ('…', "…" or `…` without ${}), with its escapes resolved; else undefined. */
function literalAt(text: string, at: number): string | undefined {
  const m = /^(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.|\$(?!\{))*`)/s.exec(text.slice(at));
  return m ? (new Function(`return ${m[0]};`)() as string) : undefined;
}

suite('l10n', () => {
  test('package.json points VS Code at the bundle, and `npm run l10n` regenerates it', () => {
    assert.equal(manifest.l10n, './l10n');
    assert.equal(manifest.scripts.l10n, 'node scripts/l10n.mjs');
  });

  test('l10n/bundle.l10n.json is what `npm run l10n` would write now', function () {
    this.timeout(30000); // the export parses every source file with tree-sitter: about 1 s of CPU
    const now = execFileSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs'), '--stdout'], { cwd: root, encoding: 'utf8' });
    const fresh = JSON.parse(now);
    const missing = Object.keys(fresh).filter((k) => !(k in bundle));
    const unused = Object.keys(bundle).filter((k) => !(k in fresh));
    assert.deepEqual(
      { missing, unused },
      { missing: [], unused: [] },
      'run `npm run l10n`: the bundle is missing strings src/ uses, or holds strings it no longer does',
    );
    assert.deepEqual(bundle, fresh, 'run `npm run l10n`: a string in the bundle differs from src/');
    assert.equal(committed, now, 'run `npm run l10n`: the bundle is not in the form it writes (sorted keys)');
  });

  test('every vscode.l10n.t call in src/ names a literal the bundle holds', () => {
    const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const keys = Object.keys(bundle);
    let calls = 0;
    for (const file of files) {
      const text = readFileSync(path.join(root, 'src', file), 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*/g)) {
        const at = m.index + m[0].length;
        const where = `src/${file}:${text.slice(0, at).split('\n').length}`;
        calls++;
        // the { message, comment } form: its key is "message/comment"
        const message = text[at] === '{' ? /^\{\s*message:\s*/.exec(text.slice(at)) : null;
        const literal = literalAt(text, message ? at + message[0].length : at);
        // the export skips a variable or a concatenation silently: the string would never be translated
        assert.ok(
          literal !== undefined,
          `${where}: the message of vscode.l10n.t must be a string literal, or { message: '…', comment: … } with one, so the export can see it`,
        );
        assert.ok(
          message ? keys.some((k) => k.startsWith(`${literal}/`)) : literal in bundle,
          `${where}: ${JSON.stringify(literal)} is in l10n/bundle.l10n.json`,
        );
      }
    }
    assert.ok(calls > 40, `found the vscode.l10n.t calls (${calls})`);
  });
});
