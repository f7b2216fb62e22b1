// The `editGuard.*` settings, read fresh on every call so a change applies at once.
import * as vscode from 'vscode';
import type { GuardSettings } from './core/guard';
import { DEFAULT_PROTECTED_FILES } from './core/paths';
import type { OwnWritePolicy } from './core/types';

export const SECTION = 'editGuard';
const POLICIES: readonly OwnWritePolicy[] = ['sameTurn', 'never', 'always'];

/**
 * The gate's settings for a file (they are resource-scoped: a folder may override them); without a
 * file, the workspace's.
 */
export function readSettings(file?: string): GuardSettings {
  const config = vscode.workspace.getConfiguration(SECTION, file ? vscode.Uri.parse(file) : null);
  const policy = config.get<string>('ownWriteKeepsMark', 'sameTurn');
  const maxReadLines = config.get<number>('maxReadLines', 2000);
  const maxResultChars = config.get<number>('maxResultChars', 7000);
  return {
    enabled: config.get<boolean>('enabled', true) !== false,
    policy: (POLICIES as readonly string[]).includes(policy) ? (policy as OwnWritePolicy) : 'sameTurn',
    maxReadLines: Number.isInteger(maxReadLines) && maxReadLines > 0 ? maxReadLines : 2000,
    maxResultChars: Number.isInteger(maxResultChars) && maxResultChars >= 500 ? maxResultChars : 7000,
  };
}

/** `editGuard.guardBuiltinTools`: gate Copilot's built-in file tools through its hooks (window-scoped). */
export function guardBuiltinTools(): boolean {
  return vscode.workspace.getConfiguration(SECTION, null).get<boolean>('guardBuiltinTools', false) === true;
}

/** Which paths the tools may touch, and which need the user's confirmation. */
export interface PathSettings {
  /** Window-scoped: the same for every file. */
  allowOutsideWorkspace: boolean;
  /** Resource-scoped: the patterns that apply to a given file. */
  protectedFiles(fsPath: string): string[];
}

export function readPathSettings(): PathSettings {
  return {
    allowOutsideWorkspace: vscode.workspace.getConfiguration(SECTION, null).get<boolean>('allowOutsideWorkspace', false) === true,
    protectedFiles: (fsPath) => {
      const patterns = vscode.workspace.getConfiguration(SECTION, vscode.Uri.file(fsPath)).get<unknown>('protectedFiles', DEFAULT_PROTECTED_FILES);
      return Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string') : DEFAULT_PROTECTED_FILES;
    },
  };
}

/** `editGuard.toggleGate`: flips the gate in the workspace settings (user settings when no folder is open). */
export async function toggleGate(): Promise<boolean> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const next = !readSettings().enabled;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('enabled', next, target);
  return next;
}
