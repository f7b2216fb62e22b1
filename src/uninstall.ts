// `vscode:uninstall` (package.json): VS Code runs this once, in plain Node and without its API, at
// its next start after the extension was uninstalled (and before it deletes the extension's
// folder). Each agent takes our user-level entries out of its host's files, keeping the user's own,
// so an uninstalled extension leaves nothing behind there. Workspace copies (the `workspace`
// placements) are in folders VS Code does not name here; their commands find no client and exit at once.
import { removeUserLevelClaudeEntries } from './agents/claudeCode/node/settingsOnDisk';
import { removeUserLevelCodexEntries } from './agents/codex/node/hooksOnDisk';
import { removeUserLevelHooksFile } from './agents/copilot/node/hooksFileOnDisk';
import type { Logger } from './core/ports';

// what it did, or why it left a file as it was, is this script's output (VS Code keeps it in its log)
const say = (m: string | Error) => console.log(`Agent Edit Guard: ${String(m)}`);
const complain = (m: string | Error) => console.error(`Agent Edit Guard: ${String(m)}`);
const log: Logger = { debug: () => {}, info: say, warn: complain, error: complain };

for (const uninstall of [removeUserLevelHooksFile, removeUserLevelClaudeEntries, removeUserLevelCodexEntries]) {
  try {
    uninstall(log);
  } catch (e) {
    complain(e instanceof Error ? e.message : String(e));
  }
}
