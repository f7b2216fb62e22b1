// `npm run lint` holds the layers of docs/design.md §Layers and the formatting, for files nobody has
// listed anywhere: a scratch copy of the project gets a new file that breaks one rule, and the real
// `npm run lint` must fail on it, naming the rule. (The layer rule reads each file's folder:
// scripts/eslint-layers.mjs.)
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
