// The shell parser's WebAssembly (src/shell/parser.ts, SHELL_WASM_FILES): tree-sitter's runtime and bash's grammar,
// copied from their packages beside a bundle (scripts/build.mjs into dist/, bench/run.mjs into its copy of the
// extension). test/unit/manifest.test.ts checks that the package carries each file the parser loads.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const require = createRequire(import.meta.url);

export const SHELL_WASM_SOURCES = ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'];

/** Copies the two files into `dir`. */
export function copyShellWasm(dir) {
  mkdirSync(dir, { recursive: true });
  for (const file of SHELL_WASM_SOURCES) copyFileSync(require.resolve(file), join(dir, basename(file)));
}
