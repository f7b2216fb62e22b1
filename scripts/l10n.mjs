// `npm run l10n`: writes l10n/bundle.l10n.json, the bundle VS Code loads for `vscode.l10n.t`
// (package.json "l10n"), from every `vscode.l10n.t(...)` call in src/, with @vscode/l10n-dev's
// `export` command. Its keys are sorted: the export lists them in the order it found the source
// files, which is a directory listing's and differs between machines, so without sorting a fresh
// clone could rewrite the whole file; sorted, a new string is a one-line diff.
// `--stdout` prints that bundle instead of writing it (test/unit/l10n.test.ts compares it with the
// committed file, so a new string without `npm run l10n` fails `npm test`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = createRequire(import.meta.url).resolve('@vscode/l10n-dev/dist/cli.js');
const outFile = join(root, 'l10n', 'bundle.l10n.json');

function exportBundle() {
  const dir = mkdtempSync(join(tmpdir(), 'l10n-export-'));
  try {
    // stderr piped, not shown: into a temporary folder the export always warns that package.json's
    // "l10n" names another folder; a real failure still throws with its stderr
    execFileSync(process.execPath, [cli, 'export', '--outDir', dir, './src'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    const strings = JSON.parse(readFileSync(join(dir, 'bundle.l10n.json'), 'utf8'));
    const sorted = Object.fromEntries(Object.entries(strings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return `${JSON.stringify(sorted, undefined, 2)}\n`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const bundle = exportBundle();
if (process.argv.includes('--stdout')) process.stdout.write(bundle);
else {
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, bundle);
  console.log(`l10n: ${Object.keys(JSON.parse(bundle)).length} strings in ${outFile}`);
}
