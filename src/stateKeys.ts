// The keys of what the extension keeps in VS Code's global state (the same for every window of this
// profile), each written once.
export const STATE_KEYS = {
  /** the answer to the offer to guard Copilot's own edit tools (src/ui/guardOffer.ts) */
  copilotOffer: 'editGuard.copilotGuardOffer',
  /** the answer to the offer to guard Claude Code's file tools */
  claudeCodeOffer: 'editGuard.claudeGuardOffer',
  /** the `.claude` folders our entries made, so that only those are ever removed */
  claudeFoldersMade: 'editGuard.claudeFoldersMade',
  /** the answer to the offer to guard Codex's file changes */
  codexOffer: 'editGuard.codexGuardOffer',
  /** the `.codex` folders our entries made, so that only those are ever removed */
  codexFoldersMade: 'editGuard.codexFoldersMade',
} as const;
