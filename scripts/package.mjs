// `npm run package`: a production bundle, then the .vsix with @vscode/vsce; prints its size and
// file list. Dependencies are bundled, so the package carries no node_modules.
// `--check-install` (run by `npm test`) then installs the .vsix into a fresh extensions folder with
// the offline VS Code host's CLI (code-server --install-extension), as a user would.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { hostPaths } = createRequire(import.meta.url)('./host/paths.js');

const { name, version, publisher } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `${name}-${version}.vsix`;
execFileSync('node', ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
try {
  execFileSync(
    'npx',
    // no repository yet: README images stay relative (they are packaged in media/)
    ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
} finally {
  execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' }); // back to the development bundle (with source map)
}
const files = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  .trim()
  .split('\n');
console.log(`\n${out}: ${(statSync(out).size / 1024).toFixed(1)} KiB, ${files.length} files:\n  ${files.sort().join('\n  ')}`);

if (process.argv.includes('--check-install')) {
  execFileSync('bash', ['scripts/host/install.sh'], { stdio: 'inherit' });
  const { node24: node, csEntry: entry } = hostPaths();
  const dir = mkdtempSync(join(tmpdir(), 'vsix-install-'));
  try {
    const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
    const args = [
      entry,
      '--config',
      join(dir, 'config.yaml'),
      '--user-data-dir',
      join(dir, 'user-data'),
      '--extensions-dir',
      join(dir, 'extensions'),
      '--install-extension',
      join(process.cwd(), out),
    ];
    console.log(execFileSync(node, args, { env, encoding: 'utf8' }).trim().split('\n').at(-1));
    const installed = join(dir, 'extensions', `${publisher}.${name}-${version}`);
    const ok =
      existsSync(join(installed, 'package.json')) &&
      existsSync(join(installed, 'dist', 'extension.js')) &&
      existsSync(join(installed, 'dist', 'hook-bridge.js')) &&
      existsSync(join(installed, 'dist', 'hook-client.sh')) &&
      existsSync(join(installed, 'dist', 'uninstall.js')) &&
      existsSync(join(installed, 'agents', 'guarded.agent.md')) &&
      existsSync(join(installed, 'l10n', 'bundle.l10n.json'));
    if (!ok) throw new Error(`the .vsix did not install as expected: ${readdirSync(join(dir, 'extensions')).join(', ')}`);
    console.log(`package: ${out} installs into a fresh VS Code (code-server) extensions folder`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
