// @ts-check
// The import arrows of docs/design.md §Layers as one ESLint rule (`layers/arrows`): each file of src/
// belongs to a layer by the folder it sits in — never by a list of files — and may import only the
// layers its row names. Every relative import is resolved to the file it reaches, so `../core/../tools`
// is read as what it is. A layer that runs in plain Node (the core, chat identity, the hooks level,
// each agent's node/ folder, the uninstall script) may not import `vscode`; an agent's folder may not
// import another agent's. tsconfig.plain.json checks the same plain folders without `vscode`, so an
// indirect import of it fails the type check too.
import * as fs from 'node:fs';
import * as path from 'node:path';

const CITE = '(docs/design.md §Layers)';

/**
 * The layers, first match wins. `plain`: runs in plain Node, no `vscode`. `may`: the layers it may
 * import besides its own. `agent` is any one agent's folder (`agent node` its node/ folder) and
 * `agents shared` the files directly in src/agents/; an agent's files reach only their own agent's.
 */
const LAYERS = [
  { name: 'core', match: /^src\/core\//, plain: true, may: [] },
  { name: 'chat', match: /^src\/chat\//, plain: true, may: ['core'] },
  // what a shell command writes: bash's grammar, no gate
  { name: 'shell', match: /^src\/shell\//, plain: true, may: [] },
  { name: 'hooks', match: /^src\/hooks\//, plain: true, may: ['core', 'chat', 'shell'] },
  { name: 'agent node', match: /^src\/agents\/([^/]+)\/node\//, plain: true, may: ['core', 'chat', 'hooks'] },
  // the list of agents: the settings, commands, uninstall script and window are built from it
  { name: 'catalog', match: /^src\/agents\/catalog\.ts$/, plain: true, may: ['agent node', 'core', 'chat', 'hooks'] },
  {
    name: 'agent',
    match: /^src\/agents\/([^/]+)\//,
    may: ['agent node', 'agents shared', 'core', 'chat', 'hooks', 'editor', 'ui', 'config', 'commands'],
  },
  {
    name: 'agents shared',
    match: /^src\/agents\/[^/]+$/,
    may: ['catalog', 'core', 'chat', 'hooks', 'editor', 'ui', 'config', 'commands'],
  },
  { name: 'editor', match: /^src\/editor\//, may: ['core'] },
  { name: 'tools', match: /^src\/tools\//, may: ['core', 'editor', 'chat', 'config', 'commands'] },
  { name: 'ui', match: /^src\/ui\//, may: ['core', 'chat', 'config', 'commands'] },
  { name: 'config', match: /^src\/config\.ts$/, may: ['core', 'hooks'] },
  { name: 'api', match: /^src\/api\.ts$/, may: ['core'] },
  { name: 'commands', match: /^src\/commands\.ts$/, plain: true, may: [] },
  { name: 'uninstall', match: /^src\/uninstall\.ts$/, plain: true, may: ['catalog', 'core', 'hooks'] },
  {
    name: 'activation',
    match: /^src\/activation\//,
    may: [
      'core',
      'chat',
      'hooks',
      'agent node',
      'agent',
      'agents shared',
      'editor',
      'tools',
      'ui',
      'config',
      'api',
      'commands',
      'catalog',
      'shell',
    ],
  },
  { name: 'extension.ts', match: /^src\/extension\.ts$/, may: ['activation', 'catalog', 'api'] },
];

/** The layer of a src/-relative path, and the agent whose folder holds it. */
function layerOf(file) {
  for (const layer of LAYERS) {
    const m = layer.match.exec(file);
    if (m) return { layer, agent: m[1] };
  }
  return undefined;
}

/** The src/-relative file a relative import reaches (a folder means its index.ts). */
function target(fromFile, spec, repo) {
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  if (/\.(ts|js|json)$/.test(resolved)) return resolved;
  let folder = false;
  try {
    folder = fs.statSync(path.join(repo, resolved)).isDirectory();
  } catch {
    // not a folder: a module without its extension
  }
  return folder ? `${resolved}/index.ts` : `${resolved}.ts`;
}

/** @type {import('eslint').Rule.RuleModule} */
const arrows = {
  meta: { type: 'problem', docs: { description: `the import arrows of the layers ${CITE}` }, schema: [] },
  create(context) {
    const repo = context.cwd;
    const file = path.relative(repo, context.filename).split(path.sep).join('/');
    if (!file.startsWith('src/') || file.endsWith('.generated.ts')) return {};
    const from = layerOf(file);
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (!from) {
        context.report({
          node,
          message: `${file} is in no layer: give its folder a row in scripts/eslint-layers.mjs and docs/design.md §Layers.`,
        });
        return;
      }
      if (spec === 'vscode') {
        if (from.layer.plain)
          context.report({ node, message: `Layer rule ${from.layer.name} ↛ vscode: ${file} runs in plain Node ${CITE}.` });
        return;
      }
      if (!spec.startsWith('.')) return; // npm libraries and node: builtins
      const to = layerOf(target(file, spec, repo));
      if (!to) {
        context.report({ node, message: `Layer rule ${from.layer.name}: '${spec}' reaches outside src/'s layers ${CITE}.` });
        return;
      }
      if (to.agent !== undefined && from.agent !== undefined && to.agent !== from.agent) {
        context.report({
          node,
          message: `Layer rule: one agent, one folder — ${from.agent} may not import another agent's folder (${to.agent}); share through src/agents/*.ts or src/hooks/ ${CITE}.`,
        });
        return;
      }
      if (to.layer === from.layer) return;
      if (to.layer.name === 'extension.ts') {
        context.report({ node, message: `Layer rule: nothing imports extension.ts, the composition root ${CITE}.` });
        return;
      }
      if (!from.layer.may.includes(to.layer.name))
        context.report({
          node,
          message: `Layer rule ${from.layer.name} → ${from.layer.may.join(', ') || 'itself only'}: ${file} may not import ${to.layer.name} ('${spec}') ${CITE}.`,
        });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const layersPlugin = { rules: { arrows } };
export { LAYERS };
