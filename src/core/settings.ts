// The gate's settings as the core uses them, and their defaults: the one source of the defaults that
// package.json declares for `editGuard.*` (test/unit/manifest.test.ts keeps the two equal).
import type { OwnWritePolicy, ReadPolicy } from './types';

export interface GuardSettings {
  enabled: boolean;
  policy: OwnWritePolicy;
  /** `editGuard.readKeepsMark`; `always` when unset */
  readPolicy?: ReadPolicy;
  maxReadLines: number;
  /** The most characters of file text one result shows (keeps results under Copilot's 8 KB); no limit if unset. */
  maxResultChars?: number;
}

/** `editGuard.guardCopilotTools` and `editGuard.guardClaudeCode`: where the hooks that gate Copilot's own edit tools (its hooks file) and Claude Code's file tools (our entries in its settings) go; `off` = nowhere. */
export const HOOKS_PLACEMENTS = ['off', 'user', 'workspace'] as const;
export type HooksPlacement = (typeof HOOKS_PLACEMENTS)[number];

export const READ_POLICIES: readonly ReadPolicy[] = ['always', 'sameTurn'];

export const OWN_WRITE_POLICIES: readonly OwnWritePolicy[] = ['sameTurn', 'never', 'always'];

/** The defaults of `editGuard.enabled`, `.ownWriteKeepsMark`, `.readKeepsMark`, `.maxReadLines` and `.maxResultChars`. */
export const DEFAULT_SETTINGS = {
  enabled: true,
  policy: 'sameTurn',
  readPolicy: 'always',
  maxReadLines: 2000,
  maxResultChars: 7000,
} as const satisfies Required<GuardSettings>;

/** The smallest `editGuard.maxResultChars` accepted (package.json's `minimum`). */
export const MIN_RESULT_CHARS = 500;
