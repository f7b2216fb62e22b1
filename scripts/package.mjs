// `npm run package`: a production bundle, then the .vsix with @vscode/vsce; prints its size and
// file list. Dependencies are bundled, so the package carries no node_modules. A warning of vsce's
// fails it: each one names something the Marketplace page or an install would get wrong (a missing
// repository, a broken picture), and printed among a long file list it goes unread.
// `--check-install` (run by `npm test`) then installs the .vsix into a fresh extensions folder with
// the offline VS Code host's CLI (code-server --install-extension), as a user would, and starts a host
// on what was installed: the extension must activate by itself and register its tools.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { hostPaths } = createRequire(import.meta.url)('./host/paths.js');

const { name, version, publisher } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `${name}-${version}.vsix`;

/** Runs `vsce <args>`, shows what it printed, and throws if it failed or printed a warning (its lines are named). */
function vsce(args) {
  const run = spawnSync('npx', ['vsce', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`vsce ${args[0]} failed (${run.signal ?? `exit code ${run.status}`})`);
  const warnings = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /\bwarning\b/i.test(line));
  if (warnings.length) throw new Error(`vsce ${args[0]} printed ${warnings.length} warning(s); fix each one:\n${warnings.join('\n')}`);
}

execFileSync('node', ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
try {
  // The README's links and pictures stay relative, to the files the package carries (.vscodeignore):
  // package.json names the repository, but that address is not known to be public yet, and rewritten
  // against it every picture of the extension page would point at nothing, for a .vsix installed
  // offline too. Drop this flag once the repository is public (test/unit/manifest.test.ts says why too).
  vsce(['package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out]);
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
    // then a host starts on exactly what was installed: the extension activates by itself and registers its
    // tools (test/installed/index.js); the probe is the host's development extension, the package is not
    execFileSync('bash', ['scripts/host/run-suite.sh'], {
      stdio: 'inherit',
      env: {
        ...process.env,
        SUITE: 'installed',
        EXT_DIR: join(process.cwd(), 'test', 'installed'),
        EXT_TESTS: join(process.cwd(), 'test', 'installed', 'index.js'),
        PREINSTALL_EXTS: installed,
        SETTINGS_FILE: join(process.cwd(), 'test', 'fixtures', 'user-settings.json'),
        KEEP_RUNS: '3',
        EDITGUARD_HOST_SCRIPT: '1',
        EDITGUARD_INSTALLED_ID: `${publisher}.${name}`,
      },
    });
    console.log(`package: ${out}, installed, starts in a fresh host: active, its tools registered`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
