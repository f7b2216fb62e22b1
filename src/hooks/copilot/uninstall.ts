// `vscode:uninstall` (package.json): VS Code runs this once, in plain Node and without its API, at
// its next start after the extension was uninstalled (and before it deletes the extension's
// folder). It removes our user-level hooks file, if ours, and our entries in Claude Code's user
// settings (`~/.claude/settings.json`, keeping the user's own), so an uninstalled extension leaves
// nothing behind there. Workspace copies (`.github/hooks`, `.claude/settings.local.json`: the
// `workspace` placements) are in folders VS Code does not name here; their commands find no client
// and exit at once.
import { removeOurClaudeHooks, userClaudeSettingsFile } from '../claude/claudeSettingsOnDisk';
import { removeOurHooksFile, userHooksFile } from './hooksFileOnDisk';

const file = userHooksFile();
try {
  console.log(removeOurHooksFile(file) ? `Agent Edit Guard: removed ${file}` : `Agent Edit Guard: no hooks file of ours at ${file}`);
} catch (e) {
  console.error(`Agent Edit Guard: could not remove ${file}: ${e instanceof Error ? e.message : String(e)}`);
}

// what it did, or why it left the file as it was, is this script's output (VS Code keeps it in its log)
const say = (m: string | Error) => console.log(`Agent Edit Guard: ${String(m)}`);
const complain = (m: string | Error) => console.error(`Agent Edit Guard: ${String(m)}`);
removeOurClaudeHooks(userClaudeSettingsFile(), { debug: () => {}, info: say, warn: complain, error: complain });
