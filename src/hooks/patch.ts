// The files a patch in the `*** Begin Patch` format names (OpenAI's apply_patch: Copilot's tool of that
// name, the Copilot harness's, Codex's): `Update File` and `Delete File` change an existing file, `Add
// File` and `Move to` (a rename's target) make one. Pure.
import type { TouchedFile } from './event';

export function filesOfPatch(patch: string): TouchedFile[] {
  const files: TouchedFile[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Update File|Delete File|Add File|Move to):\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    files.push({ path: m[2], intent: m[1] === 'Add File' || m[1] === 'Move to' ? 'create' : 'change' });
  }
  return files;
}
