// `npm run typecheck`: `tsc -p` on every TypeScript project of the repository, found, not listed: each
// `tsconfig.json` and `tsconfig.<name>.json` (tsconfig.plain.json: the plain-Node layers) outside
// node_modules, out, dist and .runs — a test folder that brings its own tsconfig.json is checked without a
// line here. `tsconfig.base.json` is only extended, never a project. The projects run side by side, as many
// at once as the machine has cores (each tsc is one thread); every one runs, its output printed whole
// when it ends, and the script fails if any failed, naming them.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// the folders of builds, runs and dependencies (and the benchmark's scratch space), and hidden ones
const SKIPPED = new Set(['node_modules', 'out', 'dist', '.runs', 'bench/tmp']);
const isProject = (name) => /^tsconfig(\.[\w-]+)?\.json$/.test(name) && name !== 'tsconfig.base.json';

/** Every project file under `dir`, the root's first, then by path. */
function projects(dir = root) {
  const found = [];
  const walk = (at) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const path = relative(dir, join(at, e.name)).split('\\').join('/');
      if (e.isDirectory() && !SKIPPED.has(e.name) && !SKIPPED.has(path) && !e.name.startsWith('.')) walk(join(at, e.name));
      else if (e.isFile() && isProject(e.name)) found.push(path);
    }
  };
  walk(dir);
  const depth = (p) => p.split('/').length;
  return found.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** `tsc -p project`: its exit code and everything it printed. */
const check = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });

const queue = projects();
const failed = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
      const { code, output } = await check(project);
      process.stdout.write(`tsc -p ${project}${code === 0 ? '' : ' failed'}\n${output}`);
      if (code !== 0) failed.push(project);
    }
  }),
);
if (failed.length) {
  console.error(`typecheck: ${failed.join(', ')} failed`);
  process.exit(1);
}
