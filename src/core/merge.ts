// Taking an agent's change back out of a file that may have changed since (docs/design.md §Revert).
// Both changes are read as hunks over the text the agent left (`after`): the agent's (after →
// before: what the revert puts back) and the user's — whoever changed the file since: the user, a
// formatter, another chat — (after → current: what must stay). Changes of different lines merge,
// adjacent or not; where hunks of both sides meet, that stretch is diffed again by words, then by
// characters within one word, and only what still meets there is a conflict, which changes nothing
// and is reported over the stretch's lines.
import { diffArrays } from 'diff';
import { lineOfOffset, lastLineOf } from './text';
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

/**
 * A stretch of `after` (offsets `start`–`end`) that changed on either side: what the file holds
 * there now (`user`), what it held before the agent's edit (`agent`), and what the revert leaves
 * there (`merged`; `undefined` when the two changes overlap: a conflict, always over whole lines).
 */
export interface Piece {
  start: number;
  end: number;
  user: string;
  agent: string;
  merged: string | undefined;
}

/** One side's change of `after`: the characters `start`–`end` become `text`. */
export interface Hunk {
  start: number;
  end: number;
  text: string;
}

/** Hunks of both sides that meet, directly or through each other, and the stretch of `after` they span. */
interface Group {
  start: number;
  end: number;
  user: Hunk[];
  agent: Hunk[];
}

/** Lines with their line breaks, so joining them gives back the text byte for byte (CRLF stays whole). */
export const linesOf = (text: string): string[] => (text === '' ? [] : text.split(/(?<=\n)/));

/** Words, runs of spaces, and every other character on its own; a CRLF is one token, never split. */
const wordsOf = (text: string): string[] => text.match(/\r\n|[\p{L}\p{N}_]+|[^\S\r\n]+|[\s\S]/gu) ?? [];

/** Characters (whole code points, a CRLF as one). */
const charsOf = (text: string): string[] => text.match(/\r\n|[\s\S]/gu) ?? [];

/** The granularities of the merge, coarsest first: each finer one only looks inside what the coarser one could not merge. */
const LEVELS = [linesOf, wordsOf, charsOf];

/**
 * The text `current` becomes when the change `before` → `after` is taken out of it. When the file
 * still holds exactly `after`, that is `before`, byte for byte.
 */
export function revertChange(current: string, after: string, before: string, labels: ConflictLabels): RevertMerge {
  if (current === after) return { kind: 'clean', text: before };
  const out: string[] = [];
  const marked: string[] = [];
  const lines: LineSpan[] = [];
  let at = 0; // in `after`
  let shift = 0; // where `after`'s offset `at` is in `current`, less `at`
  for (const piece of revertPieces(current, after, before)) {
    const same = after.slice(at, piece.start);
    out.push(same);
    marked.push(same);
    if (piece.merged !== undefined) {
      out.push(piece.merged);
      marked.push(piece.merged);
    } else {
      const from = piece.start + shift;
      const to = from + Math.max(piece.user.length - 1, 0);
      lines.push({ start: lineOfOffset(current, from), end: lineOfOffset(current, to) });
      marked.push(
        `<<<<<<< ${labels.current}\n`,
        withFinalBreak(piece.user),
        '=======\n',
        withFinalBreak(piece.agent),
        `>>>>>>> ${labels.reverted}\n`,
      );
    }
    shift += piece.user.length - (piece.end - piece.start);
    at = piece.end;
  }
  out.push(after.slice(at));
  marked.push(after.slice(at));
  if (lines.length) return { kind: 'conflict', lines: clampSpans(lines, current), marked: marked.join('') };
  return { kind: 'clean', text: out.join('') };
}

/**
 * Every stretch of `after` that either side changed, in order, each at the finest granularity the
 * merge needed; a conflict is a piece of whole lines. `after` with each piece replaced by its
 * `merged` text is the revert.
 */
export function revertPieces(current: string, after: string, before: string): Piece[] {
  return piecesAt(0, after, current, before);
}

function piecesAt(level: number, base: string, user: string, agent: string): Piece[] {
  const tokensOf = LEVELS[level];
  const baseTokens = tokensOf(base);
  const pieces: Piece[] = [];
  for (const group of groupsOf(readChange(baseTokens, tokensOf(user)), readChange(baseTokens, tokensOf(agent)), level > 0)) {
    const { start, end } = group;
    const piece = { start, end, user: applyHunks(base, group.user, start, end), agent: applyHunks(base, group.agent, start, end) };
    const resolved = resolve(level, group, base.slice(start, end), piece.user, piece.agent);
    if (Array.isArray(resolved)) pieces.push(...resolved.map((p) => ({ ...p, start: p.start + start, end: p.end + start })));
    else pieces.push({ ...piece, merged: resolved });
  }
  return pieces;
}

/** What the revert leaves where a group's hunks meet: a text, finer pieces that all merged, or `undefined` (a conflict). */
function resolve(level: number, group: Group, base: string, user: string, agent: string): string | Piece[] | undefined {
  if (group.agent.length === 0) return user; // only the user changed it
  if (group.user.length === 0) return agent; // only the agent changed it: taken out
  if (user === agent) return user; // the user already undid the agent's change here by hand
  // the user only deleted some of what the agent wrote: the revert takes all of it out anyway
  if (group.user.every((u) => u.text === '' && group.agent.some((a) => a.start <= u.start && u.end <= a.end))) return agent;
  if (level + 1 === LEVELS.length) return undefined;
  // a long stretch both changed is a conflict without a second look: diffing the words of hundreds
  // of lines costs seconds, and merging them rarely gives what anyone meant
  if (base.length + user.length + agent.length > MAX_REFINED) return undefined;
  // characters only inside one word both sides changed: across words a character diff matches
  // stray letters, and a merge on them would splice the user's text into fragments of the agent's
  if (LEVELS[level + 1] === charsOf && ![base, user, agent].every((t) => wordsOf(t).length <= 1)) return undefined;
  const finer = piecesAt(level + 1, base, user, agent);
  return finer.every((p) => p.merged !== undefined) ? finer : undefined;
}

/** The characters (of `after`, the user's and the agent's text together) past which a stretch both changed is not diffed again. */
const MAX_REFINED = 20_000;

/** The differences, among the tokens both sides hold, past which a change is read as one hunk: jsdiff's work grows with their square. */
const MAX_EDITS = 1000;

/**
 * How the merge reads a change: the hunks that turn the tokens `base` into `other`, in offsets of
 * the text `base` joins to. A minimal diff (jsdiff's) of the tokens both hold: one that only one
 * side holds can match nothing, and leaving those out makes a rewrite of many lines cheap. Past
 * `MAX_EDITS` differences among the rest, it is read as one hunk from the first difference to the
 * last — coarse, never wrong: where the other side changed anything inside it, that is a conflict.
 */
export function readChange(base: readonly string[], other: readonly string[]): Hunk[] {
  const inBase = new Set(base);
  const inOther = new Set(other);
  const a = base.flatMap((t, i) => (inOther.has(t) ? [i] : []));
  const b = other.flatMap((t, j) => (inBase.has(t) ? [j] : []));
  const parts = diffArrays(
    a.map((i) => base[i]),
    b.map((j) => other[j]),
    { maxEditLength: MAX_EDITS },
  );
  // the pairs of tokens the reading keeps, in order: every other token is changed
  const kept: [number, number][] = [];
  if (parts) {
    let i = 0;
    let j = 0;
    for (const part of parts) {
      if (!part.added && !part.removed) for (let k = 0; k < part.count; k++) kept.push([a[i + k], b[j + k]]);
      if (!part.added) i += part.count;
      if (!part.removed) j += part.count;
    }
  } else {
    // too many differences to read finely: the common start and end are kept, one hunk between
    let start = 0;
    while (start < base.length && start < other.length && base[start] === other[start]) start++;
    let end = 0;
    while (end < base.length - start && end < other.length - start && base[base.length - 1 - end] === other[other.length - 1 - end]) end++;
    for (let k = 0; k < start; k++) kept.push([k, k]);
    for (let k = end; k > 0; k--) kept.push([base.length - k, other.length - k]);
  }
  const hunks: Hunk[] = [];
  let i = 0; // the next token of `base`, at `offset`
  let j = 0; // the next token of `other`
  let offset = 0;
  for (const [keptI, keptJ] of [...kept, [base.length, other.length]]) {
    const start = offset;
    while (i < keptI) offset += base[i++].length;
    if (start < offset || j < keptJ) hunks.push({ start, end: offset, text: other.slice(j, keptJ).join('') });
    if (i < base.length) offset += base[i++].length;
    j = keptJ + 1;
  }
  return hunks;
}

/**
 * Whether two hunks of different sides change the same place of `after`: they share a character,
 * or one inserts strictly inside the other, or both insert at the same point (their order would be
 * a guess). Hunks that only touch stay apart between lines — an insertion at the edge of the other's
 * lines keeps to its side of them — but meet inside a line (`inLine`), where the one would run on
 * into the other; so do lines that touch after a last line the other side left without a break.
 */
function meet(a: Hunk, b: Hunk, inLine: boolean): boolean {
  if (a.start < b.end && b.start < a.end) return true;
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  const first = a.end === b.start ? a : b.end === a.start ? b : undefined;
  if (!first) return false;
  return inLine || (first.text !== '' && !first.text.endsWith('\n'));
}

/**
 * The hunks of both sides in order, those that meet gathered into one group. One sweep suffices:
 * sorted by start (an insertion before a stretch starting at the same point), a hunk that meets
 * none of the open group's can meet no earlier one either.
 */
function groupsOf(user: Hunk[], agent: Hunk[], inLine: boolean): Group[] {
  const sides = [...user.map((h) => ({ h, side: 'user' as const })), ...agent.map((h) => ({ h, side: 'agent' as const }))];
  sides.sort((x, y) => x.h.start - y.h.start || x.h.end - x.h.start - (y.h.end - y.h.start));
  const groups: Group[] = [];
  let open: Group | undefined;
  for (const { h, side } of sides) {
    // hunks of one side never meet: a diff separates them by at least one common token
    const others = open?.[side === 'user' ? 'agent' : 'user'] ?? [];
    if (open && others.some((o) => meet(o, h, inLine))) {
      open[side].push(h);
      open.end = Math.max(open.end, h.end);
    } else {
      groups.push((open = { start: h.start, end: h.end, user: [], agent: [] }));
      open[side].push(h);
    }
  }
  return groups;
}

/** `base`'s stretch `start`–`end` with the hunks (all inside it) applied. */
function applyHunks(base: string, hunks: readonly Hunk[], start: number, end: number): string {
  let text = '';
  let at = start;
  for (const h of hunks) {
    text += base.slice(at, h.start) + h.text;
    at = h.end;
  }
  return text + base.slice(at, end);
}

/** Conflict markers go on lines of their own, even after a last line without a break. */
const withFinalBreak = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/** A conflict of lines deleted since sits between lines: it is shown on the nearest line that exists. */
function clampSpans(spans: LineSpan[], text: string): LineSpan[] {
  const last = lastLineOf(text);
  return spans.map((s) => ({ start: Math.min(s.start, last), end: Math.min(Math.max(s.end, s.start), last) }));
}
