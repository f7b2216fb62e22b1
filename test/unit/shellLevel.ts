// The shell level as the unit tests' routers get it: bundled into the test (the extension requires its own bundle,
// src/activation/shellLevel.ts), the parser loaded from node_modules.
import * as shell from '../../src/shell';

export const shellLevel = async () => {
  await shell.loadShellParser();
  return shell;
};
