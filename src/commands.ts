// The commands the extension contributes, by id (package.json `contributes.commands`;
// test/unit/manifest.test.ts keeps the two in step). Each agent's command (`editGuard.<its setting>`)
// comes from the agent (src/agents/catalog.ts `agentCommands`).
export const COMMANDS = {
  showReadMarks: 'editGuard.showReadMarks',
  clearReadMarks: 'editGuard.clearReadMarks',
  toggleGate: 'editGuard.toggleGate',
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
  /** shows an agent's one-time offer again (its id the argument), as on a fresh profile */
  offerAgain: 'editGuard.test.offerAgain',
  /** where the record of agent edits is stored, and a flush of it (the budget test measures the folder) */
  agentEditsStorage: 'editGuard.test.agentEditsStorage',
  /** `'start'` records each step of every write against the disk (with its time); `'take'` returns and clears them */
  writeTrace: 'editGuard.test.writeTrace',
} as const;
