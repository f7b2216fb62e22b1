// The `editGuard.*` settings, read fresh on every call so a change applies at once.
import * as vscode from 'vscode';
import { DEFAULT_PROTECTED_FILES } from './core/paths';
import {
  DEFAULT_SETTINGS,
  type GuardSettings,
  HOOKS_PLACEMENTS,
  type HooksPlacement,
  MIN_RESULT_CHARS,
  OWN_WRITE_POLICIES,
  READ_POLICIES,
} from './core/settings';
import type { OwnWritePolicy, ReadPolicy } from './core/types';

export const SECTION = 'editGuard';

/** Every `editGuard.*` setting by its key (package.json `contributes.configuration`; test/unit/manifest.test.ts keeps them in step). */
export const SETTINGS = {
  enabled: 'enabled',
  ownWriteKeepsMark: 'ownWriteKeepsMark',
  readKeepsMark: 'readKeepsMark',
  maxReadLines: 'maxReadLines',
  maxResultChars: 'maxResultChars',
  guardCopilotTools: 'guardCopilotTools',
  guardClaudeCode: 'guardClaudeCode',
  /** deprecated: the boolean `guardCopilotTools` replaced (`true` = `workspace`); moved over by `migrateLegacySettings` */
  guardBuiltinTools: 'guardBuiltinTools',
  allowOutsideWorkspace: 'allowOutsideWorkspace',
  protectedFiles: 'protectedFiles',
  maxEditRecordMB: 'maxEditRecordMB',
} as const;

/**
 * The defaults of the window-scoped switches, which the core does not know; the gate's own
 * settings default to `DEFAULT_SETTINGS` (core/settings.ts) and the protected files to
 * `DEFAULT_PROTECTED_FILES`. test/unit/manifest.test.ts checks each against package.json.
 */
export const SETTING_DEFAULTS = {
  [SETTINGS.guardCopilotTools]: 'off' as HooksPlacement,
  [SETTINGS.guardClaudeCode]: 'off' as HooksPlacement,
  [SETTINGS.guardBuiltinTools]: false,
  [SETTINGS.allowOutsideWorkspace]: false,
  [SETTINGS.maxEditRecordMB]: 32,
} as const;

/** `editGuard.maxEditRecordMB` (window-scoped), in bytes: the budget of the record of agent edits. */
export function maxEditRecordBytes(): number {
  const mb = vscode.workspace.getConfiguration(SECTION, null).get<number>(SETTINGS.maxEditRecordMB, SETTING_DEFAULTS.maxEditRecordMB);
  return (Number.isFinite(mb) && mb >= 1 ? mb : SETTING_DEFAULTS.maxEditRecordMB) * 1024 * 1024;
}

/**
 * The gate's settings for a file (they are resource-scoped: a folder may override them); without a
 * file, the workspace's.
 */
export function readSettings(file?: string): GuardSettings {
  const config = vscode.workspace.getConfiguration(SECTION, file ? vscode.Uri.parse(file) : null);
  const policy = config.get<string>(SETTINGS.ownWriteKeepsMark, DEFAULT_SETTINGS.policy);
  const readPolicy = config.get<string>(SETTINGS.readKeepsMark, DEFAULT_SETTINGS.readPolicy);
  const maxReadLines = config.get<number>(SETTINGS.maxReadLines, DEFAULT_SETTINGS.maxReadLines);
  const maxResultChars = config.get<number>(SETTINGS.maxResultChars, DEFAULT_SETTINGS.maxResultChars);
  return {
    enabled: config.get<boolean>(SETTINGS.enabled, DEFAULT_SETTINGS.enabled) !== false,
    policy: (OWN_WRITE_POLICIES as readonly string[]).includes(policy) ? (policy as OwnWritePolicy) : DEFAULT_SETTINGS.policy,
    readPolicy: (READ_POLICIES as readonly string[]).includes(readPolicy) ? (readPolicy as ReadPolicy) : DEFAULT_SETTINGS.readPolicy,
    maxReadLines: Number.isInteger(maxReadLines) && maxReadLines > 0 ? maxReadLines : DEFAULT_SETTINGS.maxReadLines,
    maxResultChars:
      Number.isInteger(maxResultChars) && maxResultChars >= MIN_RESULT_CHARS ? maxResultChars : DEFAULT_SETTINGS.maxResultChars,
  };
}

/** `editGuard.guardCopilotTools` (window-scoped): where the hooks file that gates Copilot's own edit tools goes. */
export function copilotToolsPlacement(): HooksPlacement {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const value = config.get<string>(SETTINGS.guardCopilotTools, SETTING_DEFAULTS.guardCopilotTools);
  if (!isExplicit(config.inspect(SETTINGS.guardCopilotTools)) && config.get<boolean>(SETTINGS.guardBuiltinTools) === true)
    return 'workspace';
  return (HOOKS_PLACEMENTS as readonly string[]).includes(value) ? (value as HooksPlacement) : SETTING_DEFAULTS.guardCopilotTools;
}

/** Are Copilot's own edit tools gated in this window (the hooks are on)? */
export const guardCopilotTools = () => copilotToolsPlacement() !== 'off';

/** Did the user choose where the hooks file goes, in any settings scope (the deprecated boolean counts)? */
export function copilotToolsChosen(): boolean {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  return isExplicit(config.inspect(SETTINGS.guardCopilotTools)) || isExplicit(config.inspect(SETTINGS.guardBuiltinTools));
}

/** Did the user set this setting anywhere (not just the default)? */
function isExplicit(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return inspected?.globalValue !== undefined || inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
}

/**
 * Sets where the hooks file goes: `workspace` in the workspace settings, the others in the user
 * settings — and a workspace value that would hide the user's choice is cleared.
 */
export async function setCopilotToolsPlacement(placement: HooksPlacement): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  if (placement === 'workspace') return config.update(SETTINGS.guardCopilotTools, placement, vscode.ConfigurationTarget.Workspace);
  await config.update(SETTINGS.guardCopilotTools, placement, vscode.ConfigurationTarget.Global);
  if (config.inspect(SETTINGS.guardCopilotTools)?.workspaceValue !== undefined) {
    await config.update(SETTINGS.guardCopilotTools, undefined, vscode.ConfigurationTarget.Workspace);
  }
}

/** `editGuard.guardClaudeCode` (window-scoped): where our hook entries for Claude Code's file tools go. */
export function claudeCodePlacement(): HooksPlacement {
  const value = vscode.workspace.getConfiguration(SECTION, null).get<string>(SETTINGS.guardClaudeCode, SETTING_DEFAULTS.guardClaudeCode);
  return (HOOKS_PLACEMENTS as readonly string[]).includes(value) ? (value as HooksPlacement) : SETTING_DEFAULTS.guardClaudeCode;
}

/** Are Claude Code's file tools gated in this window (our hook entries are on)? */
export const guardClaudeCode = () => claudeCodePlacement() !== 'off';

/** Did the user choose where our Claude Code hook entries go, in any settings scope? */
export const claudeCodeChosen = (): boolean =>
  isExplicit(vscode.workspace.getConfiguration(SECTION, null).inspect(SETTINGS.guardClaudeCode));

/** Sets where our Claude Code hook entries go, as `setCopilotToolsPlacement` does for the Copilot hooks file. */
export async function setClaudeCodePlacement(placement: HooksPlacement): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  if (placement === 'workspace') return config.update(SETTINGS.guardClaudeCode, placement, vscode.ConfigurationTarget.Workspace);
  await config.update(SETTINGS.guardClaudeCode, placement, vscode.ConfigurationTarget.Global);
  if (config.inspect(SETTINGS.guardClaudeCode)?.workspaceValue !== undefined) {
    await config.update(SETTINGS.guardClaudeCode, undefined, vscode.ConfigurationTarget.Workspace);
  }
}

/**
 * `editGuard.guardBuiltinTools` (a boolean, deprecated) becomes `editGuard.guardCopilotTools`
 * where the user set it: `true` → `workspace` (where its file went), `false` → `off`. Returns the
 * settings scopes it moved.
 */
export async function migrateLegacySettings(): Promise<string[]> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const legacy = config.inspect<boolean>(SETTINGS.guardBuiltinTools);
  const current = config.inspect(SETTINGS.guardCopilotTools);
  const moved: string[] = [];
  const scopes = [
    { name: 'user', target: vscode.ConfigurationTarget.Global, old: legacy?.globalValue, now: current?.globalValue },
    { name: 'workspace', target: vscode.ConfigurationTarget.Workspace, old: legacy?.workspaceValue, now: current?.workspaceValue },
  ];
  for (const scope of scopes) {
    if (scope.old === undefined) continue;
    if (
      scope.target === vscode.ConfigurationTarget.Workspace &&
      !vscode.workspace.workspaceFile &&
      !vscode.workspace.workspaceFolders?.length
    )
      continue;
    if (scope.now === undefined) await config.update(SETTINGS.guardCopilotTools, scope.old === true ? 'workspace' : 'off', scope.target);
    await config.update(SETTINGS.guardBuiltinTools, undefined, scope.target);
    moved.push(scope.name);
  }
  return moved;
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
    allowOutsideWorkspace:
      vscode.workspace
        .getConfiguration(SECTION, null)
        .get<boolean>(SETTINGS.allowOutsideWorkspace, SETTING_DEFAULTS.allowOutsideWorkspace) === true,
    protectedFiles: (fsPath) => {
      const patterns = vscode.workspace
        .getConfiguration(SECTION, vscode.Uri.file(fsPath))
        .get<unknown>(SETTINGS.protectedFiles, DEFAULT_PROTECTED_FILES);
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
