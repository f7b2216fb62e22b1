// Bundles the extension (and, with --tests, the unit and integration tests) with esbuild.
// `vscode` is provided by the extension host; `mocha` is loaded from node_modules by the test entry.
import { build } from 'esbuild';
import { writeHookClient } from './hookClient.mjs';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { copyShellWasm } from './shellWasm.mjs';
import { join } from 'node:path';

const withTests = process.argv.includes('--tests');
const production = process.argv.includes('--production');
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: !production, logLevel: 'warning' };
const tsFiles = (dir, filter = () => true) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && filter(f))
    .map((f) => join(dir, f));

await build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: production });
// the shell level (src/shell/index.ts), loaded at the first shell command an agent runs (src/activation/shellLevel.ts),
// with the parser's WebAssembly beside it
await build({ ...common, entryPoints: ['src/shell/index.ts'], outfile: 'dist/shell.js', minify: production });
copyShellWasm('dist');
// the hooks bridge's Node client: an agent runs it as a hook command with the editor's own Node runtime
await build({
  ...common,
  entryPoints: ['src/hooks/nodeClient.ts'],
  outfile: 'dist/hook-bridge.js',
  minify: production,
  sourcemap: false,
});
// each agent's in-process plugin (src/agents/<agent>/node/plugin.ts): loaded into the agent's own process by the
// file of ours it loads (pi's extension), from dist/plugins/<agent>.js (src/hooks/command.ts pluginFile)
const plugins = readdirSync('src/agents').filter((agent) => existsSync(join('src/agents', agent, 'node', 'plugin.ts')));
await build({
  ...common,
  entryPoints: Object.fromEntries(plugins.map((agent) => [agent, join('src/agents', agent, 'node', 'plugin.ts')])),
  outdir: 'dist/plugins',
  minify: production,
  sourcemap: false,
});
// run by VS Code after an uninstall (package.json `vscode:uninstall`): takes our user-level entries out of each agent's files
await build({
  ...common,
  entryPoints: ['src/uninstall.ts'],
  outfile: 'dist/uninstall.js',
  minify: production,
  sourcemap: false,
});
// the cheaper client for where bash runs the hook (src/hooks/bashClient.ts): its text, from the protocol's constants
await writeHookClient('dist');
if (withTests) {
  // the runners load every *.test.js in these folders: a test whose source is gone must not run
  rmSync('out/test', { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: tsFiles('test/unit', (f) => f.endsWith('.test.ts')),
    outdir: 'out/test/unit',
    // esbuild finds its own binary at run time: bundled, it cannot (test/unit/agentCatalog.test.ts builds with it)
    external: ['mocha', 'esbuild'],
  });
  // each integration file separately: index.js is the entry the extension host loads, it requires the *.test.js beside it
  await build({ ...common, entryPoints: tsFiles('test/integration'), outdir: 'out/test/integration', external: ['vscode', 'mocha'] });
  // the suite that runs under GitHub Copilot's own agent loop, same shape
  if (existsSync('test/copilot')) {
    await build({ ...common, entryPoints: tsFiles('test/copilot'), outdir: 'out/test/copilot', external: ['vscode', 'mocha'] });
  }
  // the suite under the Copilot harness (VS Code's Agent Host): the host side, same shape, and its servers, which
  // run in plain Node outside VS Code (scripts/host/run-harness.sh starts them)
  if (existsSync('test/harness')) {
    await build({ ...common, entryPoints: tsFiles('test/harness'), outdir: 'out/test/harness', external: ['vscode', 'mocha'] });
    await build({ ...common, entryPoints: ['test/harness/node/servers.ts'], outdir: 'out/test/harness/node' });
  }
  // what the guard prevents (scripts/outcomes.mjs): the Copilot suite's host, its own entry
  await build({
    ...common,
    entryPoints: tsFiles('test/outcomes', (f) => f.endsWith('.test.ts') || f === 'index.ts' || f === 'table.ts'),
    outdir: 'out/test/outcomes',
    external: ['vscode', 'mocha'],
  });
  // every writer at once for a while (scripts/soak.mjs): the integration host, its own entry, and the program it starts
  await build({ ...common, entryPoints: tsFiles('test/soak'), outdir: 'out/test/soak', external: ['vscode', 'mocha'] });
  // not tests: the host entries of `npm run screenshots` and `npm run copilot:capture` (scripts/screenshots/run.sh)
  rmSync('out/scripts', { recursive: true, force: true });
  await build({ ...common, entryPoints: tsFiles('scripts/screenshots'), outdir: 'out/scripts/screenshots', external: ['vscode', 'mocha'] });
}
