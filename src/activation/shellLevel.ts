// The shell level's bundle (dist/shell.js, src/shell/index.ts), required from beside this one at the first shell
// command an agent is about to run — not bundled into the extension's first load (docs/performance.md, activation).
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { ShellLevel } from '../shell';

/** The bundle's file name in the extension's dist/ (scripts/build.mjs builds it there). */
export const SHELL_BUNDLE = 'shell.js';

/** Loads the shell level from `dist` once, its parser ready; a load that failed is tried again at the next command. */
export function shellLevelIn(dist: string): () => Promise<ShellLevel> {
  let loading: Promise<ShellLevel> | undefined;
  return () => {
    loading ??= (async () => {
      const level = createRequire(__filename)(path.join(dist, SHELL_BUNDLE)) as typeof import('../shell');
      await level.loadShellParser(dist);
      return level;
    })();
    loading.catch(() => (loading = undefined));
    return loading;
  };
}
