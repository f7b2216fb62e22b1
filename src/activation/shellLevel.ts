// The shell level's bundle (dist/shell.js, src/shell/index.ts), required from beside this one at the first shell
// command an agent is about to run — not bundled into the extension's first load (docs/performance.md, activation).
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { ShellLevel } from '../shell';

/** The bundle's file name in the extension's dist/ (scripts/build.mjs builds it there). */
export const SHELL_BUNDLE = 'shell.js';

/** The shell level from `dist`, its parser ready (Node caches the bundle; the parser loads once). */
export function shellLevelIn(dist: string): () => Promise<ShellLevel> {
  return async () => {
    const level = createRequire(__filename)(path.join(dist, SHELL_BUNDLE)) as typeof import('../shell');
    return level.readyShellLevel(dist);
  };
}
