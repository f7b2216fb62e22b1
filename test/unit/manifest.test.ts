// The manifest and the package: fixed names, localised strings, contributed files, and a .vsix
// that holds only what runs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const manifestText = readFileSync(path.join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText);
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));

suite('manifest', () => {
  test('the three tools keep their fixed names and reference names', () => {
    const tools = manifest.contributes.languageModelTools.map((t: { name: string; toolReferenceName: string }) => [t.name, t.toolReferenceName]);
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
    for (const k of ['guardedRead', 'guardedWrite', 'guardedReplace']) assert.match(nls[`tool.${k}.modelDescription`], /not part of the file/);
  });

  test('every setting has a description and a scope', () => {
    for (const [name, prop] of Object.entries<{ markdownDescription?: string; scope?: string }>(manifest.contributes.configuration.properties)) {
      assert.ok(prop.markdownDescription && prop.scope, name);
    }
  });

  test('contributed files exist: the Guarded agent and the walkthrough media', () => {
    for (const agent of manifest.contributes.chatAgents) assert.ok(existsSync(path.join(root, agent.path)), agent.path);
    for (const step of manifest.contributes.walkthroughs[0].steps) assert.ok(existsSync(path.join(root, step.media.markdown)), step.media.markdown);
  });

  test('the Guarded agent offers the three guarded tools and not the built-in edit tools', () => {
    const agent = readFileSync(path.join(root, 'agents/guarded.agent.md'), 'utf8');
    const tools = /^tools:\s*\[(.*)\]$/m.exec(agent)?.[1] ?? '';
    for (const t of ['guardedRead', 'guardedWrite', 'guardedReplace']) assert.match(tools, new RegExp(`'editguard\\.agent-edit-guard/${t}'`));
    assert.doesNotMatch(tools, /'edit'|replace_string_in_file|create_file|apply_patch/);
  });
});

suite('package', () => {
  test('the .vsix file list holds only what runs: no sources, tests or node_modules', function () {
    this.timeout(60000);
    const files = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')
      .sort();
    console.log(`      .vsix files (${files.length}): ${files.join(', ')}`);
    const allowed = [/^dist\/(extension|hook-bridge)\.js$/, /^package(\.nls)?\.json$/, /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/, /^agents\/guarded\.agent\.md$/, /^media\/[\w-]+\.png$/, /^media\/walkthrough\/\w+\.md$/, /^(README|CHANGELOG)\.md$/, /^LICENSE$/];
    for (const f of files) assert.ok(allowed.some((re) => re.test(f)), `unexpected file in the package: ${f}`);
    for (const f of ['dist/extension.js', 'dist/hook-bridge.js', 'package.json', 'package.nls.json', 'l10n/bundle.l10n.json', 'agents/guarded.agent.md', 'media/icon.png', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
      assert.ok(files.includes(f), `${f} is packaged`);
    }
  });
});
