// The gate's decision (docs/design.md §Rules: rules 2, 3, 4 and 8) as a pure function of what is known at check time.
import type { ReadMark } from './marks';
import type { GateBlockReason, OwnWritePolicy, ReadPolicy } from './types';

export interface GateInput {
  /** `editGuard.enabled` (rule 8). */
  enabled: boolean;
  /** Does the file exist (rule 4: creating a new file is always allowed)? */
  exists: boolean;
  /** SHA-256 of the file's current full text (editor buffer, unsaved changes included). */
  currentHash: string;
  /** Newest mark of this chat for the file among those that existed when the call arrived. */
  mark: ReadMark | undefined;
  /** This call's turn; `undefined` means the call is a turn of its own. */
  turn: string | undefined;
  /** `editGuard.ownWriteKeepsMark` (rule 3). */
  ownWriteKeepsMark: OwnWritePolicy;
  /** `editGuard.readKeepsMark` (rule 2); `always` when unset. */
  readKeepsMark?: ReadPolicy;
}

export type GateDecision =
  { allow: true; basis: 'disabled' | 'new-file' | 'seen' | 'own-write' } | { allow: false; reason: GateBlockReason };

/** Rule 3: does the agent's own write still count as having seen the file? */
export function ownWriteCounts(mark: ReadMark, turn: string | undefined, policy: OwnWritePolicy): boolean {
  switch (policy) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'sameTurn':
      // no turn id: every call is its own turn, so the mark never carries over
      return sameTurn(mark, turn);
  }
}

/** Made in this call's turn (a call without a turn id is a turn of its own). */
const sameTurn = (mark: ReadMark, turn: string | undefined) => turn !== undefined && mark.turn === turn;

export function decide(input: GateInput): GateDecision {
  if (!input.enabled) return { allow: true, basis: 'disabled' };
  if (!input.exists) return { allow: true, basis: 'new-file' };
  const { mark } = input;
  if (!mark) return { allow: false, reason: 'not-read' };
  // a changed text is the more useful thing to tell, even when the mark is an expired own write
  if (mark.hash !== input.currentHash) return { allow: false, reason: 'changed' };
  if (mark.origin === 'write') {
    return ownWriteCounts(mark, input.turn, input.ownWriteKeepsMark)
      ? { allow: true, basis: 'own-write' }
      : { allow: false, reason: 'own-write-expired' };
  }
  // without a turn id there is no turn to end: the read keeps counting (else the retry would be refused too)
  if (input.readKeepsMark === 'sameTurn' && input.turn !== undefined && mark.turn !== input.turn)
    return { allow: false, reason: 'read-expired' };
  return { allow: true, basis: 'seen' };
}
