// `vscode:uninstall` (package.json): VS Code runs this once, in plain Node and without its API, at
// its next start after the extension was uninstalled (and before it deletes the extension's
// folder). It removes our user-level hooks file, if ours, so an uninstalled extension leaves
// nothing behind there. Workspace copies (`.github/hooks`, the `workspace` placement) are in
// folders VS Code does not name here; their commands find no client and exit at once.
import { removeOurHooksFile, userHooksFile } from './hooksFileOnDisk';

const file = userHooksFile();
try {
  console.log(removeOurHooksFile(file) ? `Agent Edit Guard: removed ${file}` : `Agent Edit Guard: no hooks file of ours at ${file}`);
} catch (e) {
  console.error(`Agent Edit Guard: could not remove ${file}: ${e instanceof Error ? e.message : String(e)}`);
}
