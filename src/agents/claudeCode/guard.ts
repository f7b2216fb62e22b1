// Guarding Claude Code's file tools, as the user meets it — the same shape as the Copilot guard
// (copilotGuard.ts): a one-time offer (Turn on / Not now / Don't ask again) where Claude Code is likely
// used, in a trusted workspace, and a quick pick to change the choice later (Command Palette, the
// status bar's quick pick). Nothing is written until the user picks it (or sets
// `editGuard.guardClaudeCode` themselves).
import * as vscode from 'vscode';
import type { HooksPlacement } from '../../core/settings';
import { STATE_KEYS } from '../../stateKeys';
import { choosePlacement, type GuardChoiceEnvironment, offerGuard, type PlacementItem } from '../../ui/guardOffer';

/** Anthropic's Claude Code extension: one sign that Claude Code is used here. */
const CLAUDE_CODE_ID = 'anthropic.claude-code';

export interface ClaudeGuardEnvironment extends GuardChoiceEnvironment {
  /** Claude Code's user settings file, where `user` puts our entries, to name it */
  userFile: string;
  /** Claude Code's folder in the home (`~/.claude`) is there: the other sign that it is used on this machine */
  claudeFolderExists(): boolean;
}

const where = (env: ClaudeGuardEnvironment) => env.userFile.replace(/\\/g, '/');

/** Where the offer may be made: a trusted workspace where Claude Code is likely used (its extension installed, or `~/.claude` there). */
export const claudeCodeHere = (env: ClaudeGuardEnvironment): boolean =>
  vscode.workspace.isTrusted && (vscode.extensions.getExtension(CLAUDE_CODE_ID) !== undefined || env.claudeFolderExists());

/**
 * Shows the offer (the caller checks `claudeCodeHere`) if it is due: not declined for good, not put
 * off, and no placement chosen in any settings scope. Resolves once the user answered, or at once.
 */
export function offerClaudeGuard(env: ClaudeGuardEnvironment, now = Date.now()): Promise<void> {
  return offerGuard(
    env,
    STATE_KEYS.claudeCodeOffer,
    vscode.l10n.t(
      "Agent Edit Guard can guard Claude Code's file tools too: an edit made from a stale copy of a file is refused, and Claude is shown what changed. It adds its hook entries to {0}, next to your own settings; nothing goes into your workspace.",
      where(env),
    ),
    now,
  );
}

/** `editGuard.guardClaudeCode` as a choice: the current one is marked. */
export async function chooseClaudeGuard(env: ClaudeGuardEnvironment): Promise<void> {
  const current = env.placement();
  const items: PlacementItem[] = [
    {
      placement: 'user',
      label: vscode.l10n.t('$(shield) Turn on'),
      description: vscode.l10n.t('hook entries in your Claude Code user settings, {0}', where(env)),
      detail: vscode.l10n.t(
        'Claude Code sessions run from a trusted VS Code window are gated; your own settings in the file are kept, and nothing goes into any workspace.',
      ),
    },
    {
      placement: 'workspace',
      label: vscode.l10n.t('$(folder) Turn on in this workspace only'),
      description: vscode.l10n.t("hook entries in each folder's .claude/settings.local.json"),
    },
    {
      placement: 'off',
      label: vscode.l10n.t('$(circle-slash) Turn off'),
      description: vscode.l10n.t('removes our hook entries, keeps yours'),
    },
  ];
  // `workspace` is kept in the workspace settings: there are none without a folder
  const offered = vscode.workspace.workspaceFolders?.length
    ? items
    : items.filter((i) => i.placement !== 'workspace' || i.placement === current);
  await choosePlacement(env, offered, vscode.l10n.t("Agent Edit Guard: Guard Claude Code's File Tools"), (now) =>
    now === 'off' ? vscode.l10n.t("Claude Code's file tools are not gated now") : vscode.l10n.t("Claude Code's file tools are gated now"),
  );
}

/** How the status bar's quick pick names the current state. */
export const claudeGuardLabel = (placement: HooksPlacement) =>
  placement === 'off'
    ? vscode.l10n.t("$(shield) Guard Claude Code's file tools…")
    : vscode.l10n.t(
        "$(shield) Claude Code's file tools are guarded ({0})…",
        placement === 'user' ? vscode.l10n.t('user level') : vscode.l10n.t('this workspace'),
      );
