// Bash's grammar for tree-sitter, loaded once: the shell level (docs/design.md rule 16) reads every
// command an agent's shell tool is about to run with it. tree-sitter's bash grammar is what Codex itself
// parses its shell commands with (codex-rs `bash.rs`), it marks what it cannot parse instead of guessing,
// and it parses a command in a fraction of a millisecond (README §Architecture says why this one). Its two
// WebAssembly files ship beside the bundle (scripts/build.mjs copies them into dist/).
import * as path from 'node:path';
import type { Parser as ParserType, Tree } from 'web-tree-sitter';

// required, not imported: the bundle is CommonJS, and the package's ES module version needs `import.meta`
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');

/** The two files the parser needs: tree-sitter's runtime and bash's grammar. */
export const SHELL_WASM_FILES = { runtime: 'tree-sitter.wasm', grammar: 'tree-sitter-bash.wasm' } as const;

let parser: ParserType | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the parser (once; later calls wait for the first). `folder`: where the two WebAssembly files are
 * (the extension's dist/); without it, from node_modules (the unit tests, run from the repository).
 */
export function loadShellParser(folder?: string): Promise<void> {
  loading ??= (async () => {
    const locate = (file: string) => (folder ? path.join(folder, file) : require.resolve(packagedPath(file)));
    await Parser.init({ locateFile: () => locate(SHELL_WASM_FILES.runtime) });
    const grammar = await Language.load(locate(SHELL_WASM_FILES.grammar));
    const p = new Parser();
    p.setLanguage(grammar);
    parser = p;
  })();
  // a failed load may be tried again (the next command's check)
  loading.catch(() => (loading = undefined));
  return loading;
}

const packagedPath = (file: string) => (file === SHELL_WASM_FILES.runtime ? `web-tree-sitter/${file}` : `tree-sitter-bash/${file}`);

/** The command's syntax tree; `undefined` before the parser is loaded (or when the parse gave up). The caller deletes it. */
export function parseShell(command: string): Tree | undefined {
  return parser?.parse(command) ?? undefined;
}
