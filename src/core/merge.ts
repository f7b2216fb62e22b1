// Taking an agent's change back out of a file that may have changed since: a three-way merge
// (node-diff3) whose base is the text the agent left, "ours" the text the file holds now and
// "theirs" the text before the agent's edit. What changed since the edit (the user typing, a
// formatter, another chat) is kept; only the agent's own change is undone. Where the two overlap
// the merge does not guess: it reports the conflict and changes nothing (docs/design.md §Revert).
import { diff3Merge } from 'node-diff3';
import { lastLineOf } from './text';
import type { LineSpan } from './types';

export type RevertMerge =
  /** `text`: the file with the agent's change taken out; equal to the current text when there was nothing left to undo */
  | { kind: 'clean'; text: string }
  /** `lines`: where the later changes overlap the agent's, in the current text (1-based); `marked`: the current text with conflict markers */
  | { kind: 'conflict'; lines: LineSpan[]; marked: string };

/** The labels of the conflict markers a user may choose to put into the editor. */
export interface ConflictLabels {
  current: string;
  reverted: string;
}

/** Lines with their line breaks, so joining them gives back the text byte for byte (CRLF stays whole). */
export const linesOf = (text: string): string[] => (text === '' ? [] : text.split(/(?<=\n)/));

/**
 * The text `current` becomes when the change `before` → `after` is taken out of it. When the file
 * still holds exactly `after`, that is `before`, byte for byte.
 */
export function revertChange(current: string, after: string, before: string, labels: ConflictLabels): RevertMerge {
  if (current === after) return { kind: 'clean', text: before };
  const regions = diff3Merge(linesOf(current), linesOf(after), linesOf(before), { excludeFalseConflicts: true });
  const out: string[] = [];
  const marked: string[] = [];
  const lines: LineSpan[] = [];
  for (const region of regions) {
    if (region.ok) {
      out.push(...region.ok);
      marked.push(...region.ok);
      continue;
    }
    const c = region.conflict;
    if (!c) continue;
    // `a` is the current text: its index says where the user meets the conflict
    lines.push({ start: c.aIndex + 1, end: Math.max(c.aIndex + 1, c.aIndex + c.a.length) });
    marked.push(`<<<<<<< ${labels.current}\n`, ...withFinalBreak(c.a), '=======\n', ...withFinalBreak(c.b), `>>>>>>> ${labels.reverted}\n`);
  }
  if (lines.length) return { kind: 'conflict', lines: clampSpans(lines, current), marked: marked.join('') };
  return { kind: 'clean', text: out.join('') };
}

/** Conflict markers go on lines of their own, even after a last line without a break. */
function withFinalBreak(lines: readonly string[]): string[] {
  if (lines.length === 0 || lines[lines.length - 1].endsWith('\n')) return [...lines];
  return [...lines.slice(0, -1), `${lines[lines.length - 1]}\n`];
}

/** A conflict of lines deleted since sits between lines: it is shown on the nearest line that exists. */
function clampSpans(spans: LineSpan[], text: string): LineSpan[] {
  const last = lastLineOf(text);
  return spans.map((s) => ({ start: Math.min(s.start, last), end: Math.min(Math.max(s.end, s.start), last) }));
}
