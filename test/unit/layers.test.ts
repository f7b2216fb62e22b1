// `npm run lint` holds the layers of docs/design.md §Layers and the formatting, for files nobody has
// listed anywhere: a scratch copy of the project gets a new file that breaks one rule, and the real
// `npm run lint` must fail on it, naming the rule. (The layer rule reads each file's folder:
// scripts/eslint-layers.mjs.) The arrows point one way within a layer too: no module of src/ reaches
// itself through its imports, type-only ones included (the lint has no cycle rule without a plugin).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** A copy of what `npm run lint` reads: src/, the configs, the layer rule; node_modules linked; test/ and bench/ all but empty. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-lint-'));
  fs.cpSync(path.join(root, 'src'), path.join(dir, 'src'), { recursive: true });
  for (const f of ['package.json', 'eslint.config.mjs', '.prettierrc.json', '.prettierignore', 'scripts/eslint-layers.mjs']) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  // the folders `npm run lint` names, each with a file that breaks nothing
  for (const d of ['test', 'bench']) {
    fs.mkdirSync(path.join(dir, d));
    fs.writeFileSync(path.join(dir, d, 'empty.ts'), 'export {};\n');
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function lintWith(files: Record<string, string>): { status: number | null; output: string } {
  const dir = scratchCopy();
  try {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const r = spawnSync('npm', ['run', '--silent', 'lint'], { cwd: dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

suite('npm run lint: the layers and the format, in files no list names', function () {
  // two runs of the whole lint over a copy of src/: seconds each
  this.timeout(120_000);

  test('a new file in an agent folder that imports another agent, and a new plain-Node file that imports vscode: both fail, each naming its rule', () => {
    const { status, output } = lintWith({
      // a sibling agent: Claude Code's folder reaching into Copilot's
      'src/agents/claudeCode/borrowed.ts': "import { COPILOT } from '../copilot/node/events';\n\nexport const borrowed = COPILOT;\n",
      // vscode in a plain-Node folder, in a file no configuration lists
      'src/hooks/newHelper.ts': "import * as vscode from 'vscode';\n\nexport const version = vscode.version;\n",
    });
    assert.notEqual(status, 0, output);
    assert.match(output, /borrowed\.ts[\s\S]*one agent, one folder — claudeCode may not import another agent's folder \(copilot\)/);
    assert.match(output, /newHelper\.ts[\s\S]*Layer rule hooks ↛ vscode: src\/hooks\/newHelper\.ts runs in plain Node/);
  });

  test('an unformatted file that breaks no import rule fails on its format', () => {
    const { status, output } = lintWith({ 'src/core/untidy.ts': 'export   const   untidy = {a:1,\n      b:2}\n' });
    assert.notEqual(status, 0, output);
    assert.match(output, /src\/core\/untidy\.ts/);
    assert.match(output, /Code style issues/);
  });
});

/** Each module of src/ (relative, without `.ts`) and the modules of src/ it imports or re-exports, type-only ones included. */
function importsOf(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(p, 'utf8');
        const targets: string[] = [];
        for (const [, spec] of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
          const target = path.resolve(path.dirname(p), spec);
          const file = [`${target}.ts`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f));
          if (file) targets.push(path.relative(srcDir, file).replace(/\.ts$/, ''));
        }
        graph.set(path.relative(srcDir, p).replace(/\.ts$/, ''), targets);
      }
    }
  };
  walk(srcDir);
  return graph;
}

/** The import cycles of a graph, each as the path from a module back to itself (one per cycle found by a depth-first walk). */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (m: string) => {
    if (done.has(m)) return;
    const at = stack.indexOf(m);
    if (at >= 0) {
      cycles.push([...stack.slice(at), m].join(' → '));
      return;
    }
    stack.push(m);
    for (const next of graph.get(m) ?? []) visit(next);
    stack.pop();
    done.add(m);
  };
  for (const m of [...graph.keys()].sort()) visit(m);
  return cycles;
}

suite('no import cycle in src/', () => {
  test('no module of src/ imports itself through others, type-only imports included', () => {
    assert.deepEqual(cyclesOf(importsOf(path.join(root, 'src'))), []);
  });

  test('the check finds a cycle, a type-only one too, in a scratch tree', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-cycle-'));
    try {
      fs.mkdirSync(path.join(dir, 'hooks'));
      fs.writeFileSync(path.join(dir, 'hooks', 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
      fs.writeFileSync(path.join(dir, 'hooks', 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "export { type A } from './hooks/a';\n");
      assert.deepEqual(cyclesOf(importsOf(dir)), [`${path.join('hooks', 'a')} → ${path.join('hooks', 'b')} → ${path.join('hooks', 'a')}`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
