// The gate's `editGuard.*` settings in one table: key, default and scope, and the values each takes.
// Each agent's placement setting comes from the agent (src/agents/catalog.ts `allSettings`). The code
// reads defaults and keys from here (src/config.ts), package.json declares the same
// (test/unit/manifest.test.ts compares the two), and the README's settings table names each key
// (test/unit/docs.test.ts). The core's view of the gate's settings is `GateSettings`.
import { DEFAULT_PROTECTED_FILES } from './paths';
import type { OwnWritePolicy, ReadPolicy } from './types';

/** Where an agent's hook entries go (its setting, e.g. `editGuard.guardClaudeCode`): user level, each workspace folder, or nowhere. */
export const HOOKS_PLACEMENTS = ['off', 'user', 'workspace'] as const;
export type HooksPlacement = (typeof HOOKS_PLACEMENTS)[number];

export const READ_POLICIES = ['always', 'sameTurn'] as const satisfies readonly ReadPolicy[];
export const OWN_WRITE_POLICIES = ['sameTurn', 'never', 'always'] as const satisfies readonly OwnWritePolicy[];

/** `resource`: a folder may set its own value (read per file); `window`: one value for the window. */
export type SettingScope = 'resource' | 'window';

interface SettingSpec<T> {
  default: T;
  scope: SettingScope;
  /** the values package.json's `enum` allows */
  values?: readonly T[];
  /** the bounds package.json's `minimum` and `maximum` set */
  minimum?: number;
  maximum?: number;
}
const spec = <T>(s: SettingSpec<T>) => s;

export const SETTINGS = {
  enabled: spec<boolean>({ default: true, scope: 'resource' }),
  ownWriteKeepsMark: spec<OwnWritePolicy>({ default: 'sameTurn', scope: 'resource', values: OWN_WRITE_POLICIES }),
  readKeepsMark: spec<ReadPolicy>({ default: 'always', scope: 'resource', values: READ_POLICIES }),
  maxReadLines: spec<number>({ default: 2000, scope: 'resource', minimum: 1, maximum: 100_000 }),
  /** keeps a result under Copilot's 8 KB per text part (docs/design.md §VS Code and Copilot facts) */
  maxResultChars: spec<number>({ default: 7000, scope: 'resource', minimum: 500, maximum: 1_000_000 }),
  allowOutsideWorkspace: spec<boolean>({ default: false, scope: 'window' }),
  protectedFiles: spec<readonly string[]>({ default: DEFAULT_PROTECTED_FILES, scope: 'resource' }),
  maxEditRecordMB: spec<number>({ default: 32, scope: 'window', minimum: 1, maximum: 1024 }),
};
export type SettingKey = keyof typeof SETTINGS;
/** The settings' section: `editGuard.<key>`. */
export const SECTION = 'editGuard';

/** The gate's settings for one file, as the core uses them: the resource-scoped settings of the table. */
export interface GateSettings {
  enabled: boolean;
  ownWriteKeepsMark: OwnWritePolicy;
  /** `always` when unset */
  readKeepsMark?: ReadPolicy;
  maxReadLines: number;
  /** The most characters of file text one result shows; no limit if unset. */
  maxResultChars?: number;
}

/** The gate's settings at their defaults. */
export const DEFAULT_GATE_SETTINGS: Required<GateSettings> = {
  enabled: SETTINGS.enabled.default,
  ownWriteKeepsMark: SETTINGS.ownWriteKeepsMark.default,
  readKeepsMark: SETTINGS.readKeepsMark.default,
  maxReadLines: SETTINGS.maxReadLines.default,
  maxResultChars: SETTINGS.maxResultChars.default,
};
