// The `editGuard.*` settings, read fresh on every call so a change applies at once.
import * as vscode from 'vscode';
import type { GuardSettings } from './core/guard';
import type { OwnWritePolicy } from './core/types';

export const SECTION = 'editGuard';
const POLICIES: readonly OwnWritePolicy[] = ['sameTurn', 'never', 'always'];

export function readSettings(): GuardSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const policy = config.get<string>('ownWriteKeepsMark', 'sameTurn');
  const maxReadLines = config.get<number>('maxReadLines', 2000);
  return {
    enabled: config.get<boolean>('enabled', true) !== false,
    policy: (POLICIES as readonly string[]).includes(policy) ? (policy as OwnWritePolicy) : 'sameTurn',
    maxReadLines: Number.isInteger(maxReadLines) && maxReadLines > 0 ? maxReadLines : 2000,
  };
}

/** `editGuard.toggleGate`: flips the gate in the workspace settings (user settings when no folder is open). */
export async function toggleGate(): Promise<boolean> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const next = !readSettings().enabled;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('enabled', next, target);
  return next;
}
