// The shell level as one module (docs/design.md rule 16): the window loads it — its own bundle, dist/shell.js,
// with the parser's WebAssembly beside it — at the first shell command an agent is about to run, not when the
// extension starts: most of it is the parser's runtime and the glob matcher, which a window whose agents run no
// shell command never needs (docs/performance.md, activation).
import { shellEffects } from './effects';
import { loadShellParser } from './parser';
import { filesOnDisk } from './targets';

export { loadShellParser } from './parser';
export { shellEffects, type ShellEffects, type ShellWrite, type WriteHow } from './effects';
export { filesOnDisk } from './targets';

/** What the hook router uses of the shell level, its parser loaded. */
export interface ShellLevel {
  shellEffects: typeof shellEffects;
  filesOnDisk: typeof filesOnDisk;
}

/**
 * The shell level with its parser loaded from `folder` (the extension's dist/; without it, node_modules). The parser
 * loads once (`loadShellParser`); a load that failed is tried again at the next call.
 */
export async function readyShellLevel(folder?: string): Promise<ShellLevel> {
  await loadShellParser(folder);
  return { shellEffects, filesOnDisk };
}
