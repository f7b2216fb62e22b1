// @ts-check
// `npm run lint`: typescript-eslint's recommended rules, and the import arrows of docs/design.md
// §Layers as ESLint's own `no-restricted-imports`, one block per layer.
//
// How the layer blocks work: a file gets the options of the LAST block that matches it (flat config
// replaces a rule's options, it does not merge them), so the blocks below match disjoint sets of files
// and each carries every restriction that applies to its files. Patterns are regular expressions on the
// import path as written. `(\.\./)+x` matches `x` at any depth above the file, so nested folders stay
// covered; it would also match a folder `x` above src/, and there is none. Relative paths must be in
// normal form (no `./..`, `a/..`, `//`), or a path like `../core/../tools` would slip past them.
// They do not see `require()` or `import()` (@typescript-eslint/no-require-imports flags the first;
// tsconfig.plain.json and test/unit/tsconfig.json catch any `vscode` import, however written).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CITE = '(docs/design.md §Layers)';
const normalForm = {
  regex: '^(?=\\.)(?!(?:\\.|\\.\\.(?:/\\.\\.)*)(?:/(?!\\.\\.?(?:/|$))[^/]+)*$)',
  message: `Layer rules: write a relative import in normal form (no ./.., a/.., //), the layer rules read the path as written ${CITE}.`,
};
/** A regular expression for a relative import of one of `names` in a folder any number of `../` above. */
const above = (...names) => `^(?:\\.\\./)+(?:${names.join('|')})(?:[/.]|$)`;

/** One layer: its files, and what they may not import (`vscode`, and paths matching a pattern). */
function layer(name, files, { vscode, patterns = [], ignores }) {
  return {
    name: `layers/${name}`,
    files,
    ...(ignores && { ignores }),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: vscode ? [{ name: 'vscode', message: `${vscode} ${CITE}.` }] : [],
          patterns: [...patterns.map(([regex, message]) => ({ regex, message: `${message} ${CITE}.` })), normalForm],
        },
      ],
    },
  };
}

const PLAIN_COPILOT = [
  'src/hooks/copilot/builtinToolGate.ts',
  'src/hooks/copilot/hookEvents.ts',
  'src/hooks/copilot/hooksFile.ts',
  'src/hooks/copilot/hooksFileOnDisk.ts',
  'src/hooks/copilot/uninstall.ts',
];
const PLAIN_CLAUDE = ['src/hooks/claude/claudeSettings.ts', 'src/hooks/claude/claudeSettingsOnDisk.ts'];
const ROOT_CORE_ONLY = ['src/config.ts', 'src/api.ts'];

export default defineConfig([
  // *.generated.ts: written by a tool (`npm run schemas`: Ajv's standalone code), not by us
  globalIgnores(['bench/tmp/', 'out/', 'dist/', '**/node_modules/', '.runs/', '.host/', 'media/', '**/*.vsix', 'src/**/*.generated.ts']),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'conventions',
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // the scripts' cleanup is best effort (kill a process group that may be gone): `catch {}` on purpose
      'no-empty': ['error', { allowEmptyCatch: true }],
      // as tsc's noUnusedParameters: `_x` is a parameter an interface requires and this one ignores;
      // `({ i, ...rest })` drops `i`
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    name: 'node-scripts',
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    name: 'commonjs-scripts',
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    // plain CommonJS (no package.json "type"): require() is how these files import
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  layer('core', ['src/core/**'], {
    vscode: 'Layer rule core ↛ vscode: src/core/ never imports vscode, it runs in plain Node',
    patterns: [
      [
        '^\\.\\.(?:/|$)',
        'Layer rule core → core only: src/core/ imports only src/core/, npm libraries and node: builtins; a `../` import leaves the core',
      ],
    ],
  }),
  layer('editor', ['src/editor/**'], {
    patterns: [
      [
        above('tools', 'ui', 'hooks', 'extension', 'api'),
        'Layer rule editor → core: src/editor/ may import the core, not tools, ui, hooks, extension.ts or api.ts',
      ],
    ],
  }),
  layer('chat', ['src/chat/**'], {
    vscode: 'Layer rule chat ↛ vscode: src/chat/ is unit-tested in plain Node',
    patterns: [
      [
        above('tools', 'ui', 'hooks', 'extension', 'api'),
        'Layer rule chat → core: src/chat/ may import the core, not tools, ui, hooks, extension.ts or api.ts',
      ],
    ],
  }),
  layer('tools', ['src/tools/**'], {
    patterns: [
      [
        above('ui', 'hooks', 'extension'),
        'Layer rule tools → core, editor, chat, config, commands: src/tools/ never imports ui or hooks (a block or a write is a core event the UI hears through extension.ts), nor extension.ts',
      ],
    ],
  }),
  layer('hooks transport', ['src/hooks/*.ts'], {
    vscode:
      'Layer rule hooks transport ↛ vscode: src/hooks/*.ts runs in plain Node (bridgeScript.ts is the hook command Copilot runs, bridgeServer.ts is unit-tested)',
    patterns: [
      [
        '^\\./copilot(?:[/.]|$)',
        'Layer rule hooks transport ↛ hooks/copilot: the transport knows nothing of Copilot; src/hooks/copilot/ imports it, not the reverse',
      ],
      [
        '^\\.\\.(?:$|/(?!core(?:[/.]|$)))',
        'Layer rule hooks transport → core only: src/hooks/*.ts imports only src/core/ (not tools, ui, chat, editor, config, extension.ts)',
      ],
    ],
  }),
  layer('hooks/copilot', ['src/hooks/copilot/**'], {
    ignores: PLAIN_COPILOT,
    patterns: [
      [
        above('tools', 'ui', 'editor', 'extension'),
        'Layer rule hooks/copilot → core, chat, hooks: src/hooks/copilot/ never imports tools, ui, editor or extension.ts',
      ],
    ],
  }),
  layer('hooks/copilot in plain Node', PLAIN_COPILOT, {
    vscode:
      'Layer rule hooks/copilot gate ↛ vscode: builtinToolGate.ts, hookEvents.ts and the hooks file modules are unit-tested in plain Node (uninstall.ts runs without VS Code)',
    patterns: [
      [
        above('tools', 'ui', 'editor', 'extension'),
        'Layer rule hooks/copilot → core, chat, hooks: src/hooks/copilot/ never imports tools, ui, editor or extension.ts',
      ],
    ],
  }),
  layer('hooks/claude', ['src/hooks/claude/**'], {
    ignores: PLAIN_CLAUDE,
    patterns: [
      [
        above('tools', 'ui', 'editor', 'extension'),
        'Layer rule hooks/claude → core, chat, hooks, hooks/copilot: src/hooks/claude/ never imports tools, ui, editor or extension.ts',
      ],
    ],
  }),
  layer('hooks/claude in plain Node', PLAIN_CLAUDE, {
    vscode:
      'Layer rule hooks/claude settings ↛ vscode: claudeSettings.ts and claudeSettingsOnDisk.ts are unit-tested in plain Node (the uninstall script runs the second without VS Code)',
    patterns: [
      [
        above('tools', 'ui', 'editor', 'extension'),
        'Layer rule hooks/claude → core, chat, hooks, hooks/copilot: src/hooks/claude/ never imports tools, ui, editor or extension.ts',
      ],
    ],
  }),
  layer('ui', ['src/ui/**'], {
    patterns: [
      [
        above('tools', 'hooks', 'editor', 'extension'),
        'Layer rule ui → core, chat, commands, config: src/ui/ never imports tools, hooks or editor (it hears blocks and writes as core events, wired in extension.ts), nor extension.ts',
      ],
    ],
  }),
  layer('config and api', ROOT_CORE_ONLY, {
    patterns: [['^\\.\\.?/(?!core/)', 'Layer rule config, api → core: src/config.ts and src/api.ts import only src/core/']],
  }),
  layer('src root', ['src/*.ts'], {
    ignores: ['src/extension.ts', ...ROOT_CORE_ONLY],
    patterns: [
      ['^\\./extension(?:[/.]|$)', 'Layer rule: nothing imports extension.ts, the composition root'],
      ['^\\./hooks/copilot(?:[/.]|$)', 'Layer rule: only extension.ts imports src/hooks/copilot/ from outside src/hooks/'],
      ['^\\./hooks/claude(?:[/.]|$)', 'Layer rule: only extension.ts imports src/hooks/claude/ from outside src/hooks/'],
    ],
  }),
  layer('unit tests', ['test/unit/**'], {
    vscode: 'Layer rule unit tests ↛ vscode: test/unit runs in plain Node',
    patterns: [
      // src/tools/input.ts (and the validators it runs) imports no vscode: unit-tested, so allowed
      [
        `^(?:\\.\\./)+src/(?:(?:editor|ui|extension|config|api|hooks/copilot/hooksBridge)(?:[/.]|$)|tools(?:$|\\.|/(?!input(?:Validators\\.generated)?(?:\\.ts)?$)))`,
        'Layer rule unit tests → src modules without vscode: src/editor/, src/tools/ (but input.ts), src/ui/, extension.ts, config.ts, api.ts and hooks/copilot/hooksBridge.ts import vscode, test/unit runs in plain Node',
      ],
      [
        above('integration', 'copilot'),
        'Layer rule unit tests ↛ host tests: test/integration and test/copilot import vscode, test/unit runs in plain Node',
      ],
    ],
  }),
]);
