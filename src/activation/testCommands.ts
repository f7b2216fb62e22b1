// Commands registered only when the extension runs under tests (TEST_COMMANDS): they let the host
// suites prove rule 7 (fail open, visibly) on the real extension, measure the record's storage, and
// see an agent's one-time offer again (by its id).
import * as vscode from 'vscode';
import { TEST_COMMANDS } from '../commands';
import type { AgentRegistry } from './agents';
import type { Core } from './core';

/** A write's steps kept for the soak (writeTrace), at most this many between two takes. */
const MAX_TRACED_STEPS = 200_000;
const steps: Array<{ at: number; uri: string; step: string }> = [];

export function registerTestCommands(
  context: vscode.ExtensionContext,
  core: Pick<Core, 'gate' | 'editRecord' | 'editRecordStorage' | 'documents'>,
  agents: Pick<AgentRegistry, 'list'>,
): void {
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
      await core.editRecord.flush();
      return core.editRecordStorage?.folder.toString();
    }),
    vscode.commands.registerCommand(TEST_COMMANDS.offerAgain, (agentId: string) => offerAgain(agentId)),
    vscode.commands.registerCommand(TEST_COMMANDS.writeTrace, (what: 'start' | 'take') => {
      if (what === 'start') {
        steps.length = 0;
        core.documents.trace = (uri, step) => {
          if (steps.length < MAX_TRACED_STEPS) steps.push({ at: Date.now(), uri, step });
        };
        return [];
      }
      return steps.splice(0);
    }),
  );
}
