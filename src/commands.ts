// The commands the extension contributes, by id (package.json `contributes.commands`;
// test/unit/manifest.test.ts keeps the two in step).
export const COMMANDS = {
  showReadMarks: 'editGuard.showReadMarks',
  clearReadMarks: 'editGuard.clearReadMarks',
  toggleGate: 'editGuard.toggleGate',
  guardCopilotTools: 'editGuard.guardCopilotTools',
  guardClaudeCode: 'editGuard.guardClaudeCode',
  guardCodex: 'editGuard.guardCodex',
  showLog: 'editGuard.showLog',
  showAgentEdits: 'editGuard.showAgentEdits',
  openEditDiff: 'editGuard.openEditDiff',
  goToEditedLines: 'editGuard.goToEditedLines',
  revertEdit: 'editGuard.revertEdit',
  revertFileInTurn: 'editGuard.revertFileInTurn',
  revertTurn: 'editGuard.revertTurn',
  revertChat: 'editGuard.revertChat',
  clearAgentEdits: 'editGuard.clearAgentEdits',
} as const;

/** Registered only when the extension runs under tests: lets them force the gate's fail-open path (rule 7). */
export const TEST_COMMANDS = {
  injectGateFault: 'editGuard.test.injectGateFault',
  /** shows the offer to guard Copilot's own edit tools again, as on a fresh profile */
  offerCopilotGuard: 'editGuard.test.offerCopilotGuard',
  /** the same for the offer to guard Claude Code's file tools */
  offerClaudeGuard: 'editGuard.test.offerClaudeGuard',
  /** the same for the offer to guard Codex's file changes */
  offerCodexGuard: 'editGuard.test.offerCodexGuard',
  /** where the record of agent edits is stored, and a flush of it (the budget test measures the folder) */
  agentEditsStorage: 'editGuard.test.agentEditsStorage',
} as const;
