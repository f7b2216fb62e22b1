// @ts-check
// `npm run lint`: typescript-eslint's recommended rules, and the import arrows of docs/design.md
// §Layers — one rule (scripts/eslint-layers.mjs) that reads each file's layer from the folder it sits
// in, so a new file needs no configuration. Formatting is Prettier's (`npm run lint` runs
// `prettier --check` after this).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

const CITE = '(docs/design.md §Layers)';

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
  {
    name: 'layers',
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/arrows': 'error' },
  },
  {
    name: 'layers/unit tests',
    files: ['test/unit/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: `Layer rule unit tests ↛ vscode: test/unit runs in plain Node ${CITE}.` }],
          patterns: [
            {
              regex: '^(?:\\.\\./)+(?:integration|copilot)(?:[/.]|$)',
              message: `Layer rule unit tests ↛ host tests: the host suites import vscode, test/unit runs in plain Node ${CITE}.`,
            },
          ],
        },
      ],
    },
  },
]);
