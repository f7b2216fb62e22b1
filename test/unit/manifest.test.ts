// The manifest and the package: fixed names, localised strings, contributed files, and a .vsix
// that holds only what runs — and the docs its README links to.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, TEST_COMMANDS } from '../../src/commands';
import { agentCommands, agentsWithEntries, allSettings } from '../../src/agents/catalog';
import { SECTION } from '../../src/core/settings';
import { commandOf } from '../../src/hooks/agentDescriptor';
import { TOOL_IDS } from '../../src/core/toolIds';
import { SHELL_WASM_FILES } from '../../src/shell/parser';
import { SHELL_BUNDLE } from '../../src/activation/shellLevel';
import { relativeLinks } from './markdownLinks';

const root = path.resolve(__dirname, '../../..');
const manifestText = readFileSync(path.join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText);
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));

suite('manifest', () => {
  test('the three tools keep their fixed names and reference names', () => {
    const tools = manifest.contributes.languageModelTools.map((t: { name: string; toolReferenceName: string }) => [
      t.name,
      t.toolReferenceName,
    ]);
    assert.deepEqual(tools, [
      ['editGuard_readFile', 'guardedRead'],
      ['editGuard_writeFile', 'guardedWrite'],
      ['editGuard_replaceString', 'guardedReplace'],
    ]);
    for (const t of manifest.contributes.languageModelTools) {
      assert.ok(t.canBeReferencedInPrompt && t.icon && t.tags.length && t.inputSchema.required.includes('filePath'), t.name);
    }
  });

  test('every %key% has a string in package.nls.json, and every string is used', () => {
    const keys = [...manifestText.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    assert.ok(keys.length > 30);
    for (const k of keys) assert.ok(nls[k], `package.nls.json has ${k}`);
    for (const k of Object.keys(nls)) assert.ok(keys.includes(k), `${k} is used in package.json`);
  });

  test('the model is taught the gate in every tool description', () => {
    assert.match(nls['tool.guardedWrite.modelDescription'], /refused unless you have seen/);
    assert.match(nls['tool.guardedReplace.modelDescription'], /next call can be the corrected edit/);
    for (const k of ['guardedRead', 'guardedWrite', 'guardedReplace'])
      assert.match(nls[`tool.${k}.modelDescription`], /not part of the file/);
  });

  test('every setting has a description and a scope', () => {
    for (const [name, prop] of Object.entries<{ markdownDescription?: string; scope?: string }>(
      manifest.contributes.configuration.properties,
    )) {
      assert.ok(prop.markdownDescription && prop.scope, name);
    }
  });

  test('the repository is named once: the issues and the home page are addresses in it', () => {
    const repository: string = manifest.repository.url;
    assert.equal(manifest.repository.type, 'git');
    assert.match(repository, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/, 'an address without .git or a trailing slash');
    assert.equal(manifest.bugs.url, `${repository}/issues`);
    assert.equal(manifest.homepage, `${repository}#readme`);
    // the Marketplace's own Q&A tab: no second address to keep in step
    assert.equal(manifest.qna, 'marketplace');
    assert.equal(manifestText.split(repository).length - 1, 3, 'package.json writes the address in repository, bugs and homepage only');
  });

  test('contributed files exist: the Guarded agent and the walkthrough media', () => {
    for (const agent of manifest.contributes.chatAgents) assert.ok(existsSync(path.join(root, agent.path)), agent.path);
    for (const step of manifest.contributes.walkthroughs[0].steps)
      assert.ok(existsSync(path.join(root, step.media.markdown)), step.media.markdown);
  });

  test('the Guarded agent offers the three guarded tools and not the built-in edit tools', () => {
    const agent = readFileSync(path.join(root, 'agents/guarded.agent.md'), 'utf8');
    const tools = /^tools:\s*\[(.*)\]$/m.exec(agent)?.[1] ?? '';
    for (const t of ['guardedRead', 'guardedWrite', 'guardedReplace'])
      assert.match(tools, new RegExp(`'editguard\\.agent-edit-guard/${t}'`));
    assert.doesNotMatch(tools, /'edit'|replace_string_in_file|create_file|apply_patch/);
  });
});

/** The text of a TypeScript file without its comments (strings, template literals and regex literals kept). */
function withoutComments(source: string): string {
  let out = '';
  let i = 0;
  // a "/" starts a regex literal where an expression may begin, else it divides
  const regexMayStart = () => /(^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof|\bcase)\s*$/.test(out.slice(-20));
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`' || (c === '/' && regexMayStart())) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length) {
        const d = source[j];
        if (d === '\\') j += 2;
        else if (c === '/' && d === '[') {
          inClass = true;
          j++;
        } else if (c === '/' && d === ']') {
          inClass = false;
          j++;
        } else if (d === c && !inClass) break;
        else if (d === '\n' && c !== '`') break;
        else j++;
      }
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFilesUnder(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const properties: Record<
  string,
  { default?: unknown; minimum?: number; maximum?: number; enum?: string[]; scope?: string; markdownDeprecationMessage?: string }
> = manifest.contributes.configuration.properties;

suite('manifest and code in step', () => {
  test('every tool id in TOOL_IDS is a contributed languageModelTool, and every contributed tool is in TOOL_IDS', () => {
    const declared = manifest.contributes.languageModelTools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual(declared, Object.values(TOOL_IDS).sort());
  });

  test("every command in COMMANDS and every agent's command is contributed, and no other; test commands are not in the manifest", () => {
    const declared = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    const ours: string[] = [...Object.values(COMMANDS), ...agentCommands()];
    assert.deepEqual(declared, ours.sort());
    for (const id of Object.values(TEST_COMMANDS))
      assert.ok(!manifestText.includes(id), `${id} is registered in test mode only and must not appear in package.json`);
    // menus and keybindings may only name contributed commands
    const named = [...manifestText.matchAll(/"command"\s*:\s*"([^"]+)"/g)].map((m) => m[1]);
    for (const id of named) assert.ok(ours.includes(id), `${id} in package.json is neither in COMMANDS nor an agent's command`);
  });

  test("package.json declares exactly the settings of the table (src/core/settings.ts) and the agents' (src/agents/catalog.ts): each key with its default, scope, values and bounds", () => {
    const table = allSettings();
    assert.deepEqual(
      Object.keys(properties).sort(),
      Object.keys(table)
        .map((k) => `${SECTION}.${k}`)
        .sort(),
    );
    for (const [key, spec] of Object.entries(table)) {
      const declared = properties[`${SECTION}.${key}`];
      const s: { default: unknown; scope: string; values?: readonly unknown[]; minimum?: number; maximum?: number; deprecated?: true } =
        spec;
      assert.deepEqual(declared.default, s.default, `${key}: default`);
      assert.equal(declared.scope, s.scope, `${key}: scope`);
      if (s.values) assert.deepEqual([...(declared.enum ?? [])].sort(), [...s.values].sort(), `${key}: values`);
      else assert.equal(declared.enum, undefined, `${key}: no values`);
      assert.equal(declared.minimum, s.minimum, `${key}: minimum`);
      assert.equal(declared.maximum, s.maximum, `${key}: maximum`);
      assert.equal(!!declared.markdownDeprecationMessage, !!s.deprecated, `${key}: deprecated`);
    }
  });

  test("each agent's descriptor and package.json in step: its setting described and its command titled, in the manifest's strings", () => {
    const strings = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const text = (v: string | undefined) => (v?.startsWith('%') ? strings[v.slice(1, -1)] : v);
    for (const agent of agentsWithEntries()) {
      const setting = properties[`${SECTION}.${agent.setting}`] as { markdownDescription?: string; description?: string };
      assert.ok(text(setting.markdownDescription ?? setting.description), `${agent.setting}: described`);
      const command = manifest.contributes.commands.find((c: { command: string }) => c.command === commandOf(agent)) as { title?: string };
      assert.ok(text(command?.title), `${commandOf(agent)}: titled`);
    }
  });

  test('no file under src/ but toolIds.ts and commands.ts spells a tool or command id as a string literal', () => {
    const ids = new Set<string>([...Object.values(TOOL_IDS), ...Object.values(COMMANDS), ...Object.values(TEST_COMMANDS)]);
    const owners = new Set(['src/core/toolIds.ts', 'src/commands.ts']);
    const files = tsFilesUnder(path.join(root, 'src')).map((f) => path.relative(root, f).split(path.sep).join('/'));
    assert.ok(files.length > 30 && files.includes('src/extension.ts'), `scanned ${files.length} files`);
    const found: string[] = [];
    for (const file of files) {
      // generated from package.json itself (npm run schemas): the manifest is where the ids come from
      if (owners.has(file) || file.endsWith('.generated.ts')) continue;
      const code = withoutComments(readFileSync(path.join(root, file), 'utf8'));
      for (const m of code.matchAll(/(['"`])(editGuard[._][\w.]+)\1/g)) {
        // any tool-id-shaped literal is a tool id; a dotted one only if it is one of our commands (settings keys and view ids are not)
        if (ids.has(m[2]) || m[2].startsWith('editGuard_')) found.push(`${file}: ${m[0]}`);
      }
    }
    assert.deepEqual(found, [], 'name them through TOOL_IDS / COMMANDS');
  });

  test('the literal scan sees literals and skips comments', () => {
    const code = withoutComments(
      `// 'editGuard_readFile'\n/** "editGuard.showLog" */ const url = 'http://x'; const re = /a'b/; const id = 'editGuard_writeFile'; // 'editGuard.toggleGate'\nconst t = \`editGuard.showLog\`;`,
    );
    assert.deepEqual(
      [...code.matchAll(/(['"`])(editGuard[._][\w.]+)\1/g)].map((m) => m[2]),
      ['editGuard_writeFile', 'editGuard.showLog'],
    );
  });
});

suite('package', () => {
  // The README is the Marketplace page, and it links into docs/ and to CONTRIBUTING.md. package.json
  // names the repository, but its address is not known to be public yet, so nothing may depend on it:
  // `npm run package` keeps the README's links relative (`--no-rewrite-relative-links`, as for its
  // pictures in media/), and a relative link leads only to a file of the package itself. So the
  // package carries every file the README links to (.vscodeignore names each one) and the pictures
  // they show — and no other doc: docs/design.md and the rest stay in the repository, where the
  // packaged docs' own links into them (and into test/ and scripts/) lead; test/unit/docs.test.ts
  // checks those there. (VS Code's own extension page — 1.139, read in its workbench — opens only
  // http(s) and mailto links; once the repository is public, vsce can write every relative link as
  // an address in it, and this choice can be made again.)
  const readmeLinks = relativeLinks(root, 'README.md');
  const linkedFiles = [...new Set(readmeLinks.map((l) => l.file))].sort();

  test('the .vsix file list holds only what runs, and the docs the README links to: no sources, tests or node_modules', function () {
    this.timeout(60000);
    const files = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .sort();
    console.log(`      .vsix files (${files.length}): ${files.join(', ')}`);
    const allowed = [
      /^dist\/(extension|hook-bridge|uninstall|shell)\.js$/,
      /^dist\/plugins\/\w+\.js$/,
      /^dist\/hook-client\.sh$/,
      // the shell parser's WebAssembly (src/shell/parser.ts)
      ...Object.values(SHELL_WASM_FILES).map((f) => new RegExp(`^dist/${f.replace(/\./g, '\\.')}$`)),
      /^package(\.nls)?\.json$/,
      /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
      /^agents\/guarded\.agent\.md$/,
      /^media\/[\w-]+\.png$/,
      /^media\/walkthrough\/\w+\.md$/,
      /^(README|CHANGELOG)\.md$/,
      /^LICENSE$/,
    ];
    // the docs the README links to, and only those
    const linkedDocs = linkedFiles.filter((f) => /^(docs\/[\w-]+|CONTRIBUTING)\.md$/.test(f));
    assert.ok(linkedDocs.length > 3, `the README links to ${linkedDocs.join(', ')}`);
    for (const f of files) assert.ok(allowed.some((re) => re.test(f)) || linkedDocs.includes(f), `unexpected file in the package: ${f}`);
    // everything the README links to or shows, and every picture the docs it links to show
    const shown = linkedDocs.flatMap((doc) =>
      relativeLinks(root, doc)
        .filter((l) => l.picture)
        .map((l) => l.file),
    );
    for (const f of [...linkedFiles, ...shown]) assert.ok(files.includes(f), `${f} (linked from the README) is packaged`);
    for (const f of [
      'dist/extension.js',
      'dist/hook-bridge.js',
      'dist/hook-client.sh',
      'dist/uninstall.js',
      // the shell level, loaded at the first shell command (src/activation/shellLevel.ts)
      `dist/${SHELL_BUNDLE}`,
      ...Object.values(SHELL_WASM_FILES).map((f) => `dist/${f}`),
      'package.json',
      'package.nls.json',
      'l10n/bundle.l10n.json',
      'agents/guarded.agent.md',
      'media/icon.png',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ]) {
      assert.ok(files.includes(f), `${f} is packaged`);
    }
    // each agent's in-process plugin (src/agents/<agent>/node/plugin.ts), which the file the agent loads requires
    const agents = path.join(root, 'src', 'agents');
    for (const agent of readdirSync(agents).filter((a) => existsSync(path.join(agents, a, 'node', 'plugin.ts'))))
      assert.ok(files.includes(`dist/plugins/${agent}.js`), `${agent}'s plugin is packaged`);
    // VS Code runs `node <file>` after an uninstall: that file must be in the package
    const uninstall = /^node \.\/(\S+)$/.exec(manifest.scripts['vscode:uninstall'] ?? '')?.[1];
    assert.ok(uninstall && files.includes(uninstall), `vscode:uninstall runs a packaged file (${manifest.scripts['vscode:uninstall']})`);
  });
});
