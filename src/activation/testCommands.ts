// Commands registered only when the extension runs under tests (TEST_COMMANDS): they let the host
// suites prove rule 7 (fail open, visibly) on the real extension, measure the record's storage, and
// see each agent's one-time offer again.
import * as vscode from 'vscode';
import { TEST_COMMANDS } from '../commands';
import { CLAUDE_CODE } from '../agents/claudeCode/node/events';
import { CODEX } from '../agents/codex/node/events';
import { COPILOT } from '../agents/copilot/node/events';
import type { Agents } from './agents';
import type { Core } from './core';

export function registerTestCommands(context: vscode.ExtensionContext, core: Core, agents: Agents): void {
  const offerAgain = (id: string) => agents.list.find((a) => a.hooks.id === id)?.offerAgain();
  context.subscriptions.push(
    vscode.commands.registerCommand(TEST_COMMANDS.injectGateFault, (on: boolean) => {
      core.gate.faultInjector = on
        ? () => {
            throw new Error(`fault injected by ${TEST_COMMANDS.injectGateFault}`);
          }
        : undefined;
    }),
    vscode.commands.registerCommand(TEST_COMMANDS.agentEditsStorage, async () => {
      await core.history.flush();
      return core.historyStorage?.folder.toString();
    }),
    vscode.commands.registerCommand(TEST_COMMANDS.offerCopilotGuard, () => offerAgain(COPILOT)),
    vscode.commands.registerCommand(TEST_COMMANDS.offerClaudeGuard, () => offerAgain(CLAUDE_CODE)),
    vscode.commands.registerCommand(TEST_COMMANDS.offerCodexGuard, () => offerAgain(CODEX)),
  );
}
