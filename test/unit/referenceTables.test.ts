// What `npm run generate` (scripts/generate.mjs) writes: the agents' settings, commands and strings in
// package.json and package.nls.json, made from their folders, and the docs made from those (the README's
// and docs/agents.md's rows of the agents, the reference tables of docs/settings.md). Its check mode
// finds every committed file as it would write it, so an agent or a setting changed without running it
// fails here, naming the command; a changed or missing agent entry comes back from the folders; the
// tables name every setting and command of the manifest, each once, in its words; and the cells survive
// text a table cannot hold as it is (a pipe, a line break). The code is the scripts' own, imported.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'scripts', 'reference-tables.mjs');
const generator = path.join(root, 'scripts', 'generate.mjs');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));

/** What scripts/reference-tables.mjs exports. */
interface ReferenceTables {
  DOC: string;
  SCRIPT: string;
  replaceBetween(doc: string, name: string, body: string, file: string): string;
  cell(text: string): string;
  settingsTable(manifest: unknown, nls: Record<string, string>): string;
  commandsTable(manifest: unknown, nls: Record<string, string>): string;
  withTables(doc: string, manifest: unknown, nls: Record<string, string>): string;
}
// a native import: the script is an ES module, and the test bundle is CommonJS
const load = (): Promise<ReferenceTables> => import(pathToFileURL(script).href);

type Json = Record<string, unknown>;
/** What scripts/generate.mjs exports. */
interface Generator {
  loadAgents(at?: string): Promise<unknown>;
  withAgents(manifest: Json, nls: Record<string, string>, loaded: unknown): { manifest: Json; nls: Record<string, string> };
}
const loadGenerator = (): Promise<Generator> => import(pathToFileURL(generator).href);

suite('npm run generate: the files made from the agents and the manifest', () => {
  test('`npm run generate` runs the generator, the one command that writes them', () => {
    assert.equal(manifest.scripts.generate, 'node scripts/generate.mjs');
    const writers = Object.entries<string>(manifest.scripts).filter(([, command]) => /reference-tables|generate\.mjs/.test(command));
    assert.deepEqual(writers, [['generate', 'node scripts/generate.mjs']]);
  });

  test('every file it writes is committed as it writes it (`--check`)', function () {
    this.timeout(60000);
    const run = spawnSync(process.execPath, [generator, '--check'], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
  });

  test("an agent's setting, command or string changed or lost in the manifest comes back from its folder, in its place", async function () {
    this.timeout(60000);
    const { loadAgents, withAgents } = await loadGenerator();
    const loaded = await loadAgents();
    const changed = structuredClone(manifest);
    const properties = changed.contributes.configuration.properties;
    properties['editGuard.guardClaudeCode'].order = 99;
    properties['editGuard.guardClaudeCode'].scope = 'resource';
    delete properties['editGuard.guardBuiltinTools'];
    changed.contributes.commands = changed.contributes.commands.filter((c: { command: string }) => c.command !== 'editGuard.guardCodex');
    const strings: Record<string, string> = { ...nls, 'command.guardPi': 'Guard pi', 'config.guardCline.enum.user.label': 'On' };
    delete strings['config.guardOpencode.description'];
    const made = withAgents(changed, strings, loaded);
    assert.equal(JSON.stringify(made.manifest, null, 2), JSON.stringify(manifest, null, 2));
    assert.equal(JSON.stringify(made.nls, null, 2), JSON.stringify(nls, null, 2));
  });
});

/** The text between a pair of markers (`<!-- name:start … -->` … `<!-- name:end -->`). */
function between(doc: string, name: string): string {
  const start = new RegExp(`<!-- ${name}:start\\b[^>]*-->\\n`).exec(doc);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  assert.ok(start && end > start.index, `the ${name} markers`);
  return doc.slice(start.index + start[0].length, end);
}

/** A table's rows below its header, as cells: split at pipes that are not escaped. */
const rowsOf = (table: string) =>
  table
    .trim()
    .split('\n')
    .slice(2)
    .map((row) =>
      row
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );

suite('reference tables: docs/settings.md', () => {
  test('the tables between its markers are those of package.json now', async () => {
    const { DOC, SCRIPT, withTables } = await load();
    const committed = readFileSync(path.join(root, DOC), 'utf8');
    const now = withTables(committed, manifest, nls);
    for (const name of ['settings', 'commands'])
      assert.equal(
        between(committed, name),
        between(now, name),
        `run \`${SCRIPT}\`: the ${name} table of ${DOC} differs from package.json`,
      );
  });

  test('every setting of package.json has one row, with its type, default and scope; every command one row, with its title', async () => {
    const { DOC } = await load();
    const doc = readFileSync(path.join(root, DOC), 'utf8');
    const settings = rowsOf(between(doc, 'settings'));
    const properties: Record<string, { type: string; default: unknown; scope: string }> = manifest.contributes.configuration.properties;
    assert.deepEqual(
      settings.map((r) => r[0]).sort(),
      Object.keys(properties)
        .map((id) => `\`${id}\``)
        .sort(),
    );
    for (const [id, cells] of settings.map((r) => [r[0].slice(1, -1), r] as const)) {
      assert.equal(cells.length, 5, `${id}: five cells (a pipe in the text would make more)`);
      const p = properties[id];
      assert.ok(cells[1].startsWith(p.type), `${id}: type ${cells[1]}`);
      const first = Array.isArray(p.default) ? p.default[0] : p.default;
      assert.ok(cells[2].startsWith(`\`${String(first)}\``), `${id}: default ${cells[2]}`);
      assert.equal(cells[3], p.scope, `${id}: scope`);
      assert.ok(cells[4].length > 20, `${id}: a description`);
    }
    const commands = rowsOf(between(doc, 'commands'));
    const declared: Array<{ command: string; title: string; category: string }> = manifest.contributes.commands;
    assert.deepEqual(
      commands.map((r) => r[1]),
      declared.map((c) => `\`${c.command}\``),
    );
    for (const [i, c] of declared.entries()) {
      const title = `${nls[c.category.slice(1, -1)]}: ${nls[c.title.slice(1, -1)]}`;
      assert.ok(commands[i][0].startsWith(title), `${c.command}: "${commands[i][0]}" is titled ${title}`);
    }
    assert.doesNotMatch(doc, /%[\w.]+%/, 'every %key% resolved');
    assert.doesNotMatch(doc, /`#editGuard\.\w+#`/, "VS Code's setting links are shown as ids");
  });

  test('a cell holds a pipe and a line break without breaking its row; a %key% with no string fails loudly', async () => {
    const { cell, settingsTable, commandsTable } = await load();
    assert.equal(cell('a | b\n  c `x|y` `#editGuard.enabled#`'), 'a \\| b c `x\\|y` `editGuard.enabled`');
    const odd = {
      contributes: {
        configuration: {
          properties: {
            'x.b': { type: 'string', default: 'a|b', scope: 'resource', order: 1, markdownDescription: '%d%' },
            'x.a': { type: 'integer', default: 3, minimum: 1, order: 1, description: 'one\ntwo' },
            'x.c': { type: 'array', items: { type: 'string' }, default: [], markdownDeprecationMessage: 'Use `#x.a#`.' },
          },
        },
        commands: [{ command: 'x.go', title: '%t%', category: 'X' }],
        menus: { commandPalette: [{ command: 'x.go', when: 'false' }] },
      },
    };
    const rows = rowsOf(settingsTable(odd, { d: 'left | right\nnext' }));
    assert.deepEqual(rows, [
      ['`x.a`', 'integer, 1 to …', '`3`', 'window', 'one two'],
      ['`x.b`', 'string', '`a\\|b`', 'resource', 'left \\| right next'],
      ['`x.c`', 'array of string', '`[]`', 'window', '**Deprecated.** Use `x.a`.'],
    ]);
    assert.deepEqual(rowsOf(commandsTable(odd, { t: 'Go' })), [['X: Go (not in the Command Palette)', '`x.go`']]);
    assert.throws(() => commandsTable(odd, {}), /package\.nls\.json has no string t/);
  });

  test('a doc without the markers is refused, not written over', async () => {
    const { withTables } = await load();
    assert.throws(() => withTables('# Settings\n\nno markers\n', manifest, nls), /no <!-- settings:start -->/);
    const doc = withTables(
      'a\n<!-- settings:start -->\nold\n<!-- settings:end -->\nb\n<!-- commands:start (x) -->\n<!-- commands:end -->\nc\n',
      manifest,
      nls,
    );
    assert.match(doc, /^a\n<!-- settings:start -->\n\| Setting \|/);
    assert.doesNotMatch(doc, /\nold\n/);
    assert.match(doc, /\n<!-- settings:end -->\nb\n<!-- commands:start \(x\) -->\n\| Command \| Id \|/);
    assert.match(doc, /\n<!-- commands:end -->\nc\n$/);
  });
});
