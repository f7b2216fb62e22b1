// Guarding Copilot's own edit tools, as the user meets it: a one-time offer (Turn on / Not now /
// Don't ask again) when Copilot Chat is there in a trusted workspace, and a quick pick to change the
// choice later (Command Palette, the status bar's quick pick, the walkthrough). Nothing is written
// until the user picks it (or sets `editGuard.guardCopilotTools` themselves).
import * as vscode from 'vscode';
import type { HooksPlacement } from '../core/settings';

/** GitHub Copilot Chat: the offer is made only where it is installed and enabled. */
const COPILOT_CHAT_ID = 'GitHub.copilot-chat';

/** The offer's answer, kept across windows and restarts (global state). */
export const OFFER_STATE_KEY = 'editGuard.copilotGuardOffer';
interface OfferState {
  never?: boolean;
  /** "Not now": not asked again before this time */
  notBefore?: number;
}
/** "Not now" waits this long before asking again. */
const ASK_AGAIN_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface CopilotGuardEnvironment {
  state: vscode.Memento;
  placement(): HooksPlacement;
  /** the user chose a placement themselves (any settings scope) */
  chosen(): boolean;
  set(placement: HooksPlacement): Promise<void>;
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
export async function offerCopilotGuard(env: CopilotGuardEnvironment, now = Date.now()): Promise<void> {
  const state = env.state.get<OfferState>(OFFER_STATE_KEY) ?? {};
  if (state.never || (state.notBefore ?? 0) > now || env.chosen()) return;
  const turnOn = vscode.l10n.t('Turn on');
  const notNow = vscode.l10n.t('Not now');
  const never = vscode.l10n.t("Don't ask again");
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      "Agent Edit Guard can guard Copilot's own edit tools too: an edit made from a stale copy of a file is refused, and Copilot is shown what changed. It adds one file, {0}; nothing goes into your workspace.",
      where(env),
    ),
    turnOn,
    notNow,
    never,
  );
  if (answer === turnOn) await env.set('user');
  else if (answer === never) await env.state.update(OFFER_STATE_KEY, { never: true });
  // "Not now", or the message closed without an answer
  else await env.state.update(OFFER_STATE_KEY, { notBefore: now + ASK_AGAIN_AFTER_MS });
}

interface PlacementItem extends vscode.QuickPickItem {
  placement: HooksPlacement;
}

/** `editGuard.guardCopilotTools` as a choice: the current one is marked. */
export async function chooseCopilotGuard(env: CopilotGuardEnvironment): Promise<void> {
  const current = env.placement();
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
  for (const item of items) if (item.placement === current) item.description = `${item.description} · ${vscode.l10n.t('current')}`;
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Agent Edit Guard: Guard Copilot's Own Edit Tools"),
    placeHolder: current === 'off' ? vscode.l10n.t("Copilot's own edit tools are not gated now") : vscode.l10n.t("Copilot's own edit tools are gated now"),
  });
  if (picked && picked.placement !== current) await env.set(picked.placement);
}

/** How the status bar's quick pick names the current state. */
export const copilotGuardLabel = (placement: HooksPlacement) =>
  placement === 'off' ? vscode.l10n.t("$(shield) Guard Copilot's own edit tools…") : vscode.l10n.t("$(shield) Copilot's own edit tools are guarded ({0})…", placement === 'user' ? vscode.l10n.t('user level') : vscode.l10n.t('this workspace'));
