// Guarding Codex's file changes, as the user meets it — the same shape as the other agents' guards: a
// one-time offer (Turn on / Not now / Don't ask again) where Codex is likely used, in a trusted
// workspace, and a quick pick to change the choice later (Command Palette, the status bar's quick
// pick). Nothing is written until the user picks it (or sets `editGuard.guardCodex` themselves).
import * as vscode from 'vscode';
import type { HooksPlacement } from '../../core/settings';
import { STATE_KEYS } from '../../stateKeys';
import { choosePlacement, type GuardChoiceEnvironment, offerGuard, type PlacementItem } from '../../ui/guardOffer';

/** OpenAI's extension for Codex in VS Code: one sign that Codex is used here. */
const OPENAI_EXTENSION_ID = 'openai.chatgpt';

export interface CodexGuardEnvironment extends GuardChoiceEnvironment {
  /** Codex's user hooks file, where `user` puts our entries, to name it */
  userFile: string;
  /** Codex's config.toml, where the trust of our entries goes */
  configFile: string;
  /** Codex's home (`~/.codex`, or CODEX_HOME) is there: the other sign that it is used on this machine */
  codexFolderExists(): boolean;
}

const shown = (file: string) => file.replace(/\\/g, '/');

/** Where the offer may be made: a trusted workspace where Codex is likely used (OpenAI's extension installed, or Codex's home there). */
export const codexHere = (env: CodexGuardEnvironment): boolean =>
  vscode.workspace.isTrusted && (vscode.extensions.getExtension(OPENAI_EXTENSION_ID) !== undefined || env.codexFolderExists());

/**
 * Shows the offer (the caller checks `codexHere`) if it is due: not declined for good, not put off, and
 * no placement chosen in any settings scope. Resolves once the user answered, or at once.
 */
export function offerCodexGuard(env: CodexGuardEnvironment, now = Date.now()): Promise<void> {
  return offerGuard(
    env,
    STATE_KEYS.codexOffer,
    vscode.l10n.t(
      "Agent Edit Guard can guard Codex's file changes too: a patch made from a stale copy of a file, or over your unsaved changes, is refused, and Codex is shown what changed. It adds its hook entries to {0} and trusts them in {1}, next to your own; nothing goes into your workspace.",
      shown(env.userFile),
      shown(env.configFile),
    ),
    now,
  );
}

/** `editGuard.guardCodex` as a choice: the current one is marked. */
export async function chooseCodexGuard(env: CodexGuardEnvironment): Promise<void> {
  const current = env.placement();
  const items: PlacementItem[] = [
    {
      placement: 'user',
      label: vscode.l10n.t('$(shield) Turn on'),
      description: vscode.l10n.t("hook entries in Codex's user hooks, {0}", shown(env.userFile)),
      detail: vscode.l10n.t(
        'Codex sessions on the folders of a trusted VS Code window are gated; your own hooks are kept, and only our entries are trusted in {0}. Nothing goes into any workspace.',
        shown(env.configFile),
      ),
    },
    {
      placement: 'workspace',
      label: vscode.l10n.t('$(folder) Turn on in this workspace only'),
      description: vscode.l10n.t("hook entries in each folder's .codex/hooks.json"),
      detail: vscode.l10n.t('Codex runs them only in a project you trust in Codex; Agent Edit Guard does not trust it for you.'),
    },
    {
      placement: 'off',
      label: vscode.l10n.t('$(circle-slash) Turn off'),
      description: vscode.l10n.t('removes our hook entries and their trust, keeps yours'),
    },
  ];
  // `workspace` is kept in the workspace settings: there are none without a folder
  const offered = vscode.workspace.workspaceFolders?.length
    ? items
    : items.filter((i) => i.placement !== 'workspace' || i.placement === current);
  await choosePlacement(env, offered, vscode.l10n.t("Agent Edit Guard: Guard Codex's File Changes"), (now) =>
    now === 'off' ? vscode.l10n.t("Codex's file changes are not gated now") : vscode.l10n.t("Codex's file changes are gated now"),
  );
}

/** How the status bar's quick pick names the current state; `untrusted`: folders whose hooks Codex skips, as it does not trust them. */
export const codexGuardLabel = (placement: HooksPlacement, untrusted: readonly string[]) =>
  placement === 'off'
    ? vscode.l10n.t("$(shield) Guard Codex's file changes…")
    : placement === 'user'
      ? vscode.l10n.t("$(shield) Codex's file changes are guarded (user level)…")
      : untrusted.length === 0
        ? vscode.l10n.t("$(shield) Codex's file changes are guarded (this workspace)…")
        : vscode.l10n.t(
            "$(warning) Codex's file changes are not guarded in {0}: Codex does not trust that project, so it skips its hooks…",
            untrusted.map((f) => vscode.workspace.asRelativePath(f, true) || f).join(', '),
          );
