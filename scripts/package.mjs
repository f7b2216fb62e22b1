// `npm run package`: a production bundle, then the .vsix with @vscode/vsce; prints its size and
// file list. Dependencies are bundled, so the package carries no node_modules.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
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
const files = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8', stdin: 'ignore' }).trim().split('\n');
console.log(`\n${out}: ${(statSync(out).size / 1024).toFixed(1)} KiB, ${files.length} files:\n  ${files.sort().join('\n  ')}`);
