// The docs that describe the code stay true to it: docs/design.md §Layers (the one map of the code)
// names only paths that exist, and covers every folder of src/; the README's settings table holds
// every setting of the table in src/core/settings.ts, with its default. And the docs hold together:
// the README is a front door (short, the two commands on its first screen, a user's install line before
// them), and every relative link and picture of the README, of the docs it leads to and of
// CONTRIBUTING.md leads to a file of the repository and a heading there. (That the .vsix carries
// what the README links to is checked with the package's file list, in manifest.test.ts.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allSettings } from '../../src/agents/catalog';
import { SECTION } from '../../src/core/settings';
import { anchorsOf, brokenLinks, linksIn, relativeLinks, slug } from './markdownLinks';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The text of a `## heading` section of a Markdown file, up to the next `## `. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the section ${heading}`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Does a path written in the doc exist? `<agent>` stands for an agent's folder (a file there: in one of them), `*.ts` for any file. */
function exists(p: string): boolean {
  if (p.includes('<agent>')) {
    const agents = fs.readdirSync(path.join(root, 'src/agents'), { withFileTypes: true }).filter((e) => e.isDirectory());
    const each = agents.map((a) => exists(p.replace('<agent>', a.name)));
    return p.endsWith('/') ? each.length > 0 && each.every(Boolean) : each.some(Boolean);
  }
  if (p.endsWith('*.ts')) {
    const dir = path.join(root, p.slice(0, -'*.ts'.length));
    return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ts'));
  }
  return fs.existsSync(path.join(root, p));
}

suite('docs/design.md §Layers: the one map of the code', () => {
  const layers = section(read('docs/design.md'), 'Layers');
  const rows = layers.split('\n').filter((l) => /^\| `src\//.test(l));

  test('every path it names exists: the folders of its table, the files each row holds, and the paths in its text', () => {
    const missing: string[] = [];
    let checked = 0;
    const check = (p: string) => {
      checked++;
      if (!exists(p)) missing.push(p);
    };
    for (const row of rows) {
      const [, folders, holds] = row.split('|').map((c) => c.trim());
      const places = [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      // the row's folder: `src/x/`, or the folder of `src/x/*.ts`
      const folder = places.map((p) => (p.endsWith('*.ts') ? p.slice(0, -'*.ts'.length) : p)).find((p) => p.endsWith('/'));
      for (const p of places) check(p);
      // the files a row holds: by name in its folder, or from src/ (`core/settings.ts`)
      for (const [, name] of holds.matchAll(/`([\w/.]+\.(?:ts|mjs|json))`/g)) {
        const candidates = [folder ? `${folder}${name}` : undefined, `src/${name}`, name].filter((c): c is string => !!c);
        checked++;
        if (!candidates.some(exists)) missing.push(`${name} (row ${folders})`);
      }
    }
    for (const [, p] of layers.matchAll(/`((?:src|test|scripts|bench)\/[^`\s]*)`/g)) check(p);
    for (const [, p] of layers.matchAll(/`((?:tsconfig|eslint)[\w.]*\.(?:json|mjs))`/g)) check(p);
    assert.ok(checked > 40, `checked ${checked} paths`);
    assert.deepEqual(missing, []);
  });

  test('every folder of src/, and every file directly in it, has a row', () => {
    const named = rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    const entries = fs.readdirSync(path.join(root, 'src'), { withFileTypes: true });
    const unmapped = entries
      .map((e) => (e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`))
      .filter((p) => !named.includes(p) && !(p === 'src/agents/' && named.some((n) => n.startsWith('src/agents/'))));
    assert.deepEqual(unmapped, []);
  });
});

suite("the README's settings table", () => {
  test('names every setting of the table (src/core/settings.ts) with its default, and no other', () => {
    const table = section(read('README.md'), 'Settings');
    const rows = new Map(
      [...table.matchAll(/^\| `(editGuard\.\w+)` \| (.*?) \|/gm)].map(([, key, value]) => [key, value.replace(/`/g, '')] as const),
    );
    const expected = Object.entries(allSettings()).filter(([, spec]) => !('deprecated' in spec));
    assert.deepEqual([...rows.keys()].sort(), expected.map(([key]) => `${SECTION}.${key}`).sort());
    for (const [key, spec] of expected) {
      const shown = rows.get(`${SECTION}.${key}`)!;
      const value = Array.isArray(spec.default) ? spec.default.join(', ') : String(spec.default);
      assert.equal(shown, value, `${key}: the README says ${shown}`);
    }
  });
});

suite('the README: a front door, and links that lead somewhere', () => {
  test('at most 250 lines, with `npm start` and `npm test` on its first screen (its first 25 lines)', () => {
    const lines = read('README.md').replace(/\n$/, '').split('\n');
    assert.ok(lines.length <= 250, `README.md has ${lines.length} lines`);
    for (const command of ['npm start', 'npm test'])
      assert.ok(
        lines.slice(0, 25).some((l) => l === command || l.startsWith(`${command} `)),
        `no line of the README's first 25 starts with ${command}`,
      );
  });

  test("its install line, before the developers' commands, names the file `npm run package` makes", () => {
    const { name } = JSON.parse(read('package.json'));
    const lines = read('README.md').split('\n');
    const install = lines.findIndex((l) => l.includes(`\`code --install-extension ${name}-<version>.vsix\``));
    const commands = lines.findIndex((l) => l.startsWith('```'));
    assert.ok(install >= 0, `no line of the README shows code --install-extension ${name}-<version>.vsix`);
    assert.ok(install < commands, 'the install line comes before the first code block, the developers’ commands');
    // the file scripts/package.mjs writes: <name>-<version>.vsix
    assert.match(read('scripts/package.mjs'), /^const out = `\$\{name\}-\$\{version\}\.vsix`;$/m);
  });

  test('every relative link and picture of the README leads to a file of the repository, and a #fragment to a heading there', () => {
    const links = relativeLinks(root, 'README.md');
    assert.ok(links.filter((l) => l.picture).length >= 2, 'the README shows pictures');
    assert.ok(
      links.some((l) => l.file.startsWith('docs/')),
      'the README links into docs/',
    );
    assert.deepEqual(brokenLinks(root, 'README.md'), []);
  });

  test('so do the links of the docs: every Markdown file of docs/, CONTRIBUTING.md and CHANGELOG.md, in the repository', () => {
    const files = [
      'CONTRIBUTING.md',
      'CHANGELOG.md',
      ...fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const unchecked = relativeLinks(root, 'README.md')
      .map((l) => l.file)
      .filter((f) => f.endsWith('.md') && f !== 'README.md' && !files.includes(f));
    assert.deepEqual(unchecked, [], 'a Markdown file the README links to is checked here too');
    assert.deepEqual(
      files.flatMap((f) => brokenLinks(root, f)),
      [],
    );
  });

  test('the link checker sees headings and links as GitHub does: code is not prose, repeats are numbered', () => {
    assert.equal(slug("The Copilot harness (VS Code's Agent Host)"), 'the-copilot-harness-vs-codes-agent-host');
    assert.equal(slug('CI and `.ci/run`'), 'ci-and-cirun');
    assert.equal(slug('What it prevents: how it is measured'), 'what-it-prevents-how-it-is-measured');
    assert.deepEqual([...anchorsOf('# A\n\n```sh\n# not a heading\n```\n\n## A\n## B\n')], ['a', 'a-1', 'b']);
    const links = linksIn(
      'See [the\nrules](design.md#rules), `[code](x.md)` and [a site](https://example.com).\n\n````text\n[z](w.md)\n````\n\n![a picture](../media/i.png)\n',
      'docs/a.md',
    );
    assert.deepEqual(
      links.map((l) => [l.file, l.anchor, l.picture, l.line]),
      [
        ['docs/design.md', 'rules', false, 1],
        ['media/i.png', undefined, true, 8],
      ],
    );
  });
});
