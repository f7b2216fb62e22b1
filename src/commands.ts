// The commands the extension contributes, by id (package.json `contributes.commands`;
// test/unit/manifest.test.ts keeps the two in step).
export const COMMANDS = {
  showReadMarks: 'editGuard.showReadMarks',
  clearReadMarks: 'editGuard.clearReadMarks',
  toggleGate: 'editGuard.toggleGate',
  guardCopilotTools: 'editGuard.guardCopilotTools',
  showLog: 'editGuard.showLog',
} as const;

/** Registered only when the extension runs under tests: lets them force the gate's fail-open path (rule 7). */
export const TEST_COMMANDS = {
  injectGateFault: 'editGuard.test.injectGateFault',
  /** shows the offer to guard Copilot's own edit tools again, as on a fresh profile */
  offerCopilotGuard: 'editGuard.test.offerCopilotGuard',
} as const;
