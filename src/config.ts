// The `editGuard.*` settings, read fresh on every call so a change applies at once.
import * as vscode from 'vscode';
import { DEFAULT_PROTECTED_FILES } from './core/paths';
import { DEFAULT_SETTINGS, type GuardSettings, MIN_RESULT_CHARS, OWN_WRITE_POLICIES } from './core/settings';
import type { OwnWritePolicy } from './core/types';

export const SECTION = 'editGuard';

/** Every `editGuard.*` setting by its key (package.json `contributes.configuration`; test/unit/manifest.test.ts keeps them in step). */
export const SETTINGS = {
  enabled: 'enabled',
  ownWriteKeepsMark: 'ownWriteKeepsMark',
  maxReadLines: 'maxReadLines',
  maxResultChars: 'maxResultChars',
  guardBuiltinTools: 'guardBuiltinTools',
  allowOutsideWorkspace: 'allowOutsideWorkspace',
  protectedFiles: 'protectedFiles',
} as const;

/**
 * The defaults of the two window-scoped switches, which the core does not know; the gate's own
 * settings default to `DEFAULT_SETTINGS` (core/settings.ts) and the protected files to
 * `DEFAULT_PROTECTED_FILES`. test/unit/manifest.test.ts checks each against package.json.
 */
export const SETTING_DEFAULTS = {
  [SETTINGS.guardBuiltinTools]: false,
  [SETTINGS.allowOutsideWorkspace]: false,
} as const;

/**
 * The gate's settings for a file (they are resource-scoped: a folder may override them); without a
 * file, the workspace's.
 */
export function readSettings(file?: string): GuardSettings {
  const config = vscode.workspace.getConfiguration(SECTION, file ? vscode.Uri.parse(file) : null);
  const policy = config.get<string>(SETTINGS.ownWriteKeepsMark, DEFAULT_SETTINGS.policy);
  const maxReadLines = config.get<number>(SETTINGS.maxReadLines, DEFAULT_SETTINGS.maxReadLines);
  const maxResultChars = config.get<number>(SETTINGS.maxResultChars, DEFAULT_SETTINGS.maxResultChars);
  return {
    enabled: config.get<boolean>(SETTINGS.enabled, DEFAULT_SETTINGS.enabled) !== false,
    policy: (OWN_WRITE_POLICIES as readonly string[]).includes(policy) ? (policy as OwnWritePolicy) : DEFAULT_SETTINGS.policy,
    maxReadLines: Number.isInteger(maxReadLines) && maxReadLines > 0 ? maxReadLines : DEFAULT_SETTINGS.maxReadLines,
    maxResultChars: Number.isInteger(maxResultChars) && maxResultChars >= MIN_RESULT_CHARS ? maxResultChars : DEFAULT_SETTINGS.maxResultChars,
  };
}

/** `editGuard.guardBuiltinTools`: gate Copilot's built-in file tools through its hooks (window-scoped). */
export function guardBuiltinTools(): boolean {
  return vscode.workspace.getConfiguration(SECTION, null).get<boolean>(SETTINGS.guardBuiltinTools, SETTING_DEFAULTS.guardBuiltinTools) === true;
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
    allowOutsideWorkspace: vscode.workspace.getConfiguration(SECTION, null).get<boolean>(SETTINGS.allowOutsideWorkspace, SETTING_DEFAULTS.allowOutsideWorkspace) === true,
    protectedFiles: (fsPath) => {
      const patterns = vscode.workspace.getConfiguration(SECTION, vscode.Uri.file(fsPath)).get<unknown>(SETTINGS.protectedFiles, DEFAULT_PROTECTED_FILES);
      return Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string') : DEFAULT_PROTECTED_FILES;
    },
  };
}

/** `editGuard.toggleGate`: flips the gate in the workspace settings (user settings when no folder is open). */
export async function toggleGate(): Promise<boolean> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const next = !readSettings().enabled;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update(SETTINGS.enabled, next, target);
  return next;
}
