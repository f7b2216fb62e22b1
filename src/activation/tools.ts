// Our three language-model tools: guarded read, write and replace (src/tools/).
import * as vscode from 'vscode';
import { readPathSettings } from '../config';
import { ReadFileTool } from '../tools/readFileTool';
import { ReplaceStringTool } from '../tools/replaceStringTool';
import { WriteFileTool } from '../tools/writeFileTool';
import type { AgentRegistry } from './agents';
import type { Core } from './core';

export function registerGuardedTools(
  context: vscode.ExtensionContext,
  core: Pick<Core, 'tools' | 'sessions' | 'expected' | 'log' | 'names' | 'activity' | 'afterAnswer'>,
  agents: Pick<AgentRegistry, 'noteGuardedCall'>,
): void {
  const env = {
    tools: core.tools,
    sessions: core.sessions,
    expected: core.expected,
    log: core.log,
    pathSettings: readPathSettings,
    onActivity: (session: string, turn?: string) => {
      // a guarded call names Copilot's turn: built-in calls of that turn are the same turn
      agents.noteGuardedCall(session, turn);
      // after the retag above, so a counted turn carries its number and words over to Copilot's id
      core.names.noteCall(session, turn);
      core.activity.fire(session);
    },
  };
  // the agent waits for the result; what only shows it waits for the result (src/core/afterAnswer.ts)
  const answeredFirst = <T>(tool: vscode.LanguageModelTool<T>): vscode.LanguageModelTool<T> => ({
    prepareInvocation: tool.prepareInvocation?.bind(tool),
    invoke: (options, token) => core.afterAnswer.answer(async () => tool.invoke(options, token)),
  });
  context.subscriptions.push(
    vscode.lm.registerTool(ReadFileTool.id, answeredFirst(new ReadFileTool(env))),
    vscode.lm.registerTool(WriteFileTool.id, answeredFirst(new WriteFileTool(env))),
    vscode.lm.registerTool(ReplaceStringTool.id, answeredFirst(new ReplaceStringTool(env))),
  );
}
