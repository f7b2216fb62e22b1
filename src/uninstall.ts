// `vscode:uninstall` (package.json): VS Code runs this once, in plain Node and without its API, at
// its next start after the extension was uninstalled (and before it deletes the extension's
// folder). Each agent of the list (src/agents/catalog.ts) takes our user-level entries out of its files, keeping the user's own,
// so an uninstalled extension leaves nothing behind there. Workspace copies (the `workspace`
// placements) are in folders VS Code does not name here; their commands find no client and exit at once.
import { agentsWithEntries } from './agents/catalog';
import type { Logger } from './core/ports';

// what it did, or why it left a file as it was, is this script's output (VS Code keeps it in its log)
const say = (m: string | Error) => console.log(`Agent Edit Guard: ${String(m)}`);
const complain = (m: string | Error) => console.error(`Agent Edit Guard: ${String(m)}`);
const log: Logger = { debug: () => {}, info: say, warn: complain, error: complain };

for (const agent of agentsWithEntries()) {
  try {
    agent.entries.removeUserLevel(log);
  } catch (e) {
    complain(e instanceof Error ? e.message : String(e));
  }
}
