// The `editGuard.*` settings as VS Code holds them; a change applies at once. Keys, defaults, scopes and
// allowed values come from the one table, src/core/settings.ts.
import * as vscode from 'vscode';
import {
  DEFAULT_GATE_SETTINGS,
  type GateSettings,
  HOOKS_PLACEMENTS,
  type HooksPlacement,
  SECTION,
  type SettingKey,
  SETTINGS,
} from './core/settings';
import { BoundedMap } from './core/boundedMap';
import type { AgentDescriptor } from './hooks/agentDescriptor';

/** `editGuard.<key>`, as `affectsConfiguration` and messages name it. */
export const settingId = (key: string) => `${SECTION}.${key}`;
/** All of the extension's settings, for `affectsConfiguration`. */
export const SECTION_ID = SECTION;

/** Resources whose settings are remembered at most (a window's chats touch far fewer files). */
const MAX_REMEMBERED = 1000;
/**
 * What the settings read to since they last changed, while `watchSettings` runs. Every hook event and
 * every check reads a few of them, and `getConfiguration` costs about half a millisecond each in the
 * extension host (docs/performance.md); the change event that clears this is the one that updates
 * what `getConfiguration` returns, so a remembered value is never older than a fresh read.
 */
let remembered: BoundedMap<string, unknown> | undefined;

/** Remembers the settings between their changes (registered once, at activation). */
export function watchSettings(): vscode.Disposable {
  const memory = (remembered = new BoundedMap<string, unknown>(MAX_REMEMBERED));
  const forget = () => memory.clear();
  const listeners = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) forget();
    }),
    // a folder's settings come and go with the folder; trust decides whether the workspace's count
    vscode.workspace.onDidChangeWorkspaceFolders(forget),
    vscode.workspace.onDidGrantWorkspaceTrust(forget),
  ];
  return {
    dispose: () => {
      for (const l of listeners) l.dispose();
      if (remembered === memory) remembered = undefined;
    },
  };
}

function rememberedAs<T>(key: string, read: () => T): T {
  if (!remembered) return read();
  if (remembered.has(key)) return remembered.get(key) as T;
  const value = read();
  remembered.set(key, value);
  return value;
}

/** A setting's value where `resource` says (a file, else the workspace), or its default when the value is not one it takes. */
function read<K extends SettingKey>(key: K, resource?: vscode.Uri): (typeof SETTINGS)[K]['default'] {
  return rememberedAs(`${key}\n${resource?.toString() ?? ''}`, () => readNow(key, resource));
}

function readNow<K extends SettingKey>(key: K, resource?: vscode.Uri): (typeof SETTINGS)[K]['default'] {
  const spec: { default: unknown; values?: readonly unknown[]; minimum?: number; maximum?: number } = SETTINGS[key];
  const value = vscode.workspace.getConfiguration(SECTION, resource ?? null).get<unknown>(key, spec.default);
  const fits =
    typeof value === typeof spec.default &&
    (spec.values === undefined || spec.values.includes(value)) &&
    (typeof value !== 'number' || (Number.isFinite(value) && value >= (spec.minimum ?? -Infinity) && value <= (spec.maximum ?? Infinity)));
  return (fits ? value : spec.default) as (typeof SETTINGS)[K]['default'];
}

/** `editGuard.maxEditRecordMB` (window-scoped), in bytes: the budget of the record of agent edits. */
export const maxEditRecordBytes = (): number => read('maxEditRecordMB') * 1024 * 1024;

/**
 * The gate's settings for a file (they are resource-scoped: a folder may override them); without a
 * file, the workspace's.
 */
export function readSettings(file?: string): GateSettings {
  const resource = file ? vscode.Uri.parse(file) : undefined;
  return {
    enabled: read('enabled', resource) !== false,
    ownWriteKeepsMark: read('ownWriteKeepsMark', resource),
    readKeepsMark: read('readKeepsMark', resource),
    maxReadLines: Number.isInteger(read('maxReadLines', resource)) ? read('maxReadLines', resource) : DEFAULT_GATE_SETTINGS.maxReadLines,
    maxResultChars: Number.isInteger(read('maxResultChars', resource))
      ? read('maxResultChars', resource)
      : DEFAULT_GATE_SETTINGS.maxResultChars,
  };
}

/**
 * Where an agent's hook entries go (its setting, window-scoped). A boolean setting it replaced still
 * counts where the user set that and not the new one.
 */
export function placement(agent: AgentDescriptor): HooksPlacement {
  return rememberedAs(`placement\n${agent.setting}`, () => placementNow(agent));
}

function placementNow(agent: AgentDescriptor): HooksPlacement {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const legacy = agent.legacySetting;
  if (legacy && !isExplicit(config.inspect(agent.setting)) && config.get<boolean>(legacy.key) === true) return legacy.on;
  const value = config.get<unknown>(agent.setting);
  return HOOKS_PLACEMENTS.includes(value as HooksPlacement) ? (value as HooksPlacement) : 'off';
}

/** Did the user choose where the agent's hook entries go, in any settings scope (the boolean it replaced counts)? */
export function placementChosen(agent: AgentDescriptor): boolean {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  return (
    isExplicit(config.inspect(agent.setting)) || (agent.legacySetting !== undefined && isExplicit(config.inspect(agent.legacySetting.key)))
  );
}

/** Did the user set this setting anywhere (not just the default)? */
function isExplicit(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return inspected?.globalValue !== undefined || inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
}

/**
 * Sets where an agent's hook entries go: `workspace` in the workspace settings, the others in the user
 * settings — and a workspace value that would hide the user's choice is cleared.
 */
export async function setPlacement(agent: AgentDescriptor, value: HooksPlacement): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, null);
  if (value === 'workspace') return config.update(agent.setting, value, vscode.ConfigurationTarget.Workspace);
  await config.update(agent.setting, value, vscode.ConfigurationTarget.Global);
  if (config.inspect(agent.setting)?.workspaceValue !== undefined)
    await config.update(agent.setting, undefined, vscode.ConfigurationTarget.Workspace);
}

/**
 * The boolean an agent's setting replaced becomes that setting where the user set it: `true` → its
 * `on` placement, `false` → `off`. Returns the settings scopes it moved.
 */
export async function migrateLegacySetting(agent: AgentDescriptor): Promise<string[]> {
  const legacyKey = agent.legacySetting?.key;
  if (legacyKey === undefined) return [];
  const config = vscode.workspace.getConfiguration(SECTION, null);
  const legacy = config.inspect<boolean>(legacyKey);
  const current = config.inspect(agent.setting);
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
    if (scope.now === undefined) await config.update(agent.setting, scope.old === true ? agent.legacySetting!.on : 'off', scope.target);
    await config.update(legacyKey, undefined, scope.target);
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
    allowOutsideWorkspace: read('allowOutsideWorkspace') === true,
    protectedFiles: (fsPath) => {
      const patterns = vscode.workspace
        .getConfiguration(SECTION, vscode.Uri.file(fsPath))
        .get<unknown>('protectedFiles', SETTINGS.protectedFiles.default);
      return Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string') : [...SETTINGS.protectedFiles.default];
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
