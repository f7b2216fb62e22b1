// Our three language-model tools: guarded read, write and replace (src/tools/).
import * as vscode from 'vscode';
import { readPathSettings } from '../config';
import { ReadFileTool } from '../tools/readFileTool';
import { ReplaceStringTool } from '../tools/replaceStringTool';
import { WriteFileTool } from '../tools/writeFileTool';
import type { Agents } from './agents';
import type { Core } from './core';

export function registerGuardedTools(
  context: vscode.ExtensionContext,
  core: Pick<Core, 'tools' | 'sessions' | 'expected' | 'log' | 'names' | 'activity'>,
  agents: Pick<Agents, 'noteGuardedCall'>,
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
  context.subscriptions.push(
    vscode.lm.registerTool(ReadFileTool.id, new ReadFileTool(env)),
    vscode.lm.registerTool(WriteFileTool.id, new WriteFileTool(env)),
    vscode.lm.registerTool(ReplaceStringTool.id, new ReplaceStringTool(env)),
  );
}
