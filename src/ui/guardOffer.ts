// The shape every agent's guarding shares as the user meets it (src/agents/registration.ts, for each agent): a
// one-time offer (Turn on / Not now / Don't ask again, kept across windows) and a quick pick of the
// placements with the current one marked. Nothing is written until the user picks it.
import * as vscode from 'vscode';
import type { HooksPlacement } from '../core/settings';

interface OfferState {
  never?: boolean;
  /** "Not now": not asked again before this time */
  notBefore?: number;
}
/** "Not now" waits this long before asking again. */
const ASK_AGAIN_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface GuardChoiceEnvironment {
  state: vscode.Memento;
  placement(): HooksPlacement;
  /** the user chose a placement themselves (any settings scope) */
  chosen(): boolean;
  set(placement: HooksPlacement): Promise<void>;
}

/**
 * Shows the offer (`message`, under the global-state key `stateKey`) if it is due: not declined for
 * good, not put off, and no placement chosen in any settings scope. *Turn on* sets `user`. Resolves
 * once the user answered, or at once.
 */
export async function offerGuard(env: GuardChoiceEnvironment, stateKey: string, message: string, now = Date.now()): Promise<void> {
  const state = env.state.get<OfferState>(stateKey) ?? {};
  if (state.never || (state.notBefore ?? 0) > now || env.chosen()) return;
  const turnOn = vscode.l10n.t('Turn on');
  const notNow = vscode.l10n.t('Not now');
  const never = vscode.l10n.t("Don't ask again");
  const answer = await vscode.window.showInformationMessage(message, turnOn, notNow, never);
  if (answer === turnOn) await env.set('user');
  else if (answer === never) await env.state.update(stateKey, { never: true });
  // "Not now", or the message closed without an answer
  else await env.state.update(stateKey, { notBefore: now + ASK_AGAIN_AFTER_MS });
}

export interface PlacementItem extends vscode.QuickPickItem {
  placement: HooksPlacement;
}

/** The placements as a quick pick, the current one marked; the pick is set. */
export async function choosePlacement(
  env: GuardChoiceEnvironment,
  items: PlacementItem[],
  title: string,
  placeHolder: (current: HooksPlacement) => string,
): Promise<void> {
  const current = env.placement();
  for (const item of items) if (item.placement === current) item.description = `${item.description} · ${vscode.l10n.t('current')}`;
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: placeHolder(current) });
  if (picked && picked.placement !== current) await env.set(picked.placement);
}
