// Guarding Copilot's own edit tools, as the user meets it: a one-time offer (Turn on / Not now /
// Don't ask again) when Copilot Chat is there in a trusted workspace, and a quick pick to change the
// choice later (Command Palette, the status bar's quick pick, the walkthrough). Nothing is written
// until the user picks it (or sets `editGuard.guardCopilotTools` themselves).
import * as vscode from 'vscode';
import type { HooksPlacement } from '../../core/settings';
import { STATE_KEYS } from '../../stateKeys';
import { choosePlacement, type GuardChoiceEnvironment, offerGuard, type PlacementItem } from '../../ui/guardOffer';

/** GitHub Copilot Chat: the offer is made only where it is installed and enabled. */
const COPILOT_CHAT_ID = 'GitHub.copilot-chat';

export interface CopilotGuardEnvironment extends GuardChoiceEnvironment {
  /** where the user-level hooks file goes, to name it */
  userFile: string;
}

const where = (env: CopilotGuardEnvironment) => env.userFile.replace(/\\/g, '/');

/** Where the offer may be made: a trusted workspace with Copilot Chat installed and enabled. */
export const copilotChatHere = (): boolean => vscode.workspace.isTrusted && vscode.extensions.getExtension(COPILOT_CHAT_ID) !== undefined;

/**
 * Shows the offer (the caller checks `copilotChatHere`) if it is due: not declined for good, not put
 * off, and no placement chosen in any settings scope. Resolves once the user answered, or at once.
 */
export function offerCopilotGuard(env: CopilotGuardEnvironment, now = Date.now()): Promise<void> {
  return offerGuard(
    env,
    STATE_KEYS.copilotOffer,
    vscode.l10n.t(
      "Agent Edit Guard can guard Copilot's own edit tools too: an edit made from a stale copy of a file is refused, and Copilot is shown what changed. It adds one file, {0}; nothing goes into your workspace.",
      where(env),
    ),
    now,
  );
}

/** `editGuard.guardCopilotTools` as a choice: the current one is marked. */
export async function chooseCopilotGuard(env: CopilotGuardEnvironment): Promise<void> {
  const items: PlacementItem[] = [
    {
      placement: 'user',
      label: vscode.l10n.t('$(shield) Turn on'),
      description: vscode.l10n.t('one file at user level, {0}', where(env)),
      detail: vscode.l10n.t("Copilot's own edit tools are gated in every trusted window; nothing is written into any workspace."),
    },
    {
      placement: 'workspace',
      label: vscode.l10n.t('$(folder) Turn on in this workspace only'),
      description: vscode.l10n.t('one file in each folder, .github/hooks/agent-edit-guard.json'),
    },
    {
      placement: 'off',
      label: vscode.l10n.t('$(circle-slash) Turn off'),
      description: vscode.l10n.t('deletes the hooks file'),
      detail: vscode.l10n.t('The guarded tools and the Guarded agent stay guarded.'),
    },
  ];
  await choosePlacement(env, items, vscode.l10n.t("Agent Edit Guard: Guard Copilot's Own Edit Tools"), (now) =>
    now === 'off' ? vscode.l10n.t("Copilot's own edit tools are not gated now") : vscode.l10n.t("Copilot's own edit tools are gated now"),
  );
}

/** How the status bar's quick pick names the current state. */
export const copilotGuardLabel = (placement: HooksPlacement) =>
  placement === 'off'
    ? vscode.l10n.t("$(shield) Guard Copilot's own edit tools…")
    : vscode.l10n.t(
        "$(shield) Copilot's own edit tools are guarded ({0})…",
        placement === 'user' ? vscode.l10n.t('user level') : vscode.l10n.t('this workspace'),
      );
