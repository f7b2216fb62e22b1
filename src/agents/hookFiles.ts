// The window's side of an agent's hook files (Claude Code's settings, Codex's hooks files): which of
// their folders our entries made, and telling the user once of a file left as it was.
import * as vscode from 'vscode';

/** The folders an agent's entries made, kept in global state under `key` (the same for every window), so only those are ever removed. */
export function madeFolders(
  state: vscode.Memento,
  key: string,
): { has(dir: string): boolean; add(dir: string): void; delete(dir: string): void } {
  const all = () => state.get<string[]>(key, []);
  return {
    has: (dir) => all().includes(dir),
    add: (dir) => void state.update(key, [...new Set([...all(), dir])]),
    delete: (dir) =>
      void state.update(
        key,
        all().filter((d) => d !== dir),
      ),
  };
}

/** Tells the user of an agent's file left as it was (the log has it at every sync), once per window and reason. */
export class FileLeftWarnings {
  private readonly shown = new Set<string>();

  /** `message`: the agent's words for it, localized where the agent is */
  constructor(private readonly message: (file: string, reason: string) => string) {}

  show({ file, reason }: { file: string; reason: string }): void {
    const key = `${file}\n${reason}`;
    if (this.shown.has(key)) return;
    this.shown.add(key);
    const open = vscode.l10n.t('Open File');
    void vscode.window.showWarningMessage(this.message(file, reason), open).then((answer) => {
      if (answer === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
    });
  }
}
