// Rule 11 (docs/design.md §Rules): a write the gate allows that would add, a second time, a block of
// lines the file already holds verbatim — the section a long turn appends again after its context
// was summarised. Pure, and near O(n): one native `indexOf` pass over the text per count, anchored on
// the block's longest line; the few hits are checked line by line.
import { commonPrefix, commonSuffix, lastLineOf, lineOfOffset } from './text';

/** A block counts only with at least this many non-trivial lines… */
export const DUPLICATE_MIN_LINES = 3;
/** …and at least this many characters that are not whitespace. */
export const DUPLICATE_MIN_CHARS = 60;
/** A line shorter than this (trimmed) is trivial, like one with no letter or digit (`}`, `---`, `);`). */
const MIN_LINE_CHARS = 4;

/** Where the block the write would repeat already stands. */
export interface Duplicate {
  /** Lines of the current text, 1-based, inclusive (the first place it stands). */
  start: number;
  end: number;
  /** How many times the current text holds the block. */
  count: number;
  /** The first line of the new text where the write puts the block again (1-based). */
  addedAt: number;
}

const trivial = (line: string): boolean => {
  const t = line.trim();
  return t.length < MIN_LINE_CHARS || !/[\p{L}\p{N}]/u.test(t);
};

/**
 * The lines of `text` as a block to look for: trailing whitespace (and so a CR) dropped from each
 * line, blank lines at both ends left out; `undefined` when it is too slight to be a duplicate
 * (rule 11's threshold), so ordinary appends — a log line, a brace, a CSV row, an import — never count.
 */
export function blockOf(text: string): string[] | undefined {
  const lines = text.split('\n').map((l) => l.trimEnd());
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && lines[first] === '') first++;
  while (last >= first && lines[last] === '') last--;
  if (last - first + 1 < DUPLICATE_MIN_LINES) return undefined;
  const block = lines.slice(first, last + 1);
  let solid = 0;
  let chars = 0;
  for (const line of block) {
    if (solid < DUPLICATE_MIN_LINES && !trivial(line)) solid++;
    for (let i = 0; i < line.length && chars < DUPLICATE_MIN_CHARS; i++) if (!/\s/.test(line[i])) chars++;
    if (solid >= DUPLICATE_MIN_LINES && chars >= DUPLICATE_MIN_CHARS) return block;
  }
  return undefined;
}

/**
 * A quick test before the lines of `added` are split (an overwrite's may be the whole new file): the
 * block can stand in `current` only if its first line does.
 */
function firstLineStandsIn(current: string, added: string): boolean {
  for (let from = 0; from < added.length;) {
    let to = added.indexOf('\n', from);
    if (to === -1) to = added.length;
    const line = added.slice(from, to).trimEnd();
    if (line !== '') return occurrences(current, [line], 1).length > 0;
    from = to + 1;
  }
  return false;
}

/**
 * The char offsets at which `block` starts in `text`, as whole lines (line endings folded, trailing
 * whitespace ignored), in order, at most `max` of them.
 */
export function occurrences(text: string, block: readonly string[], max = Infinity): number[] {
  const found: number[] = [];
  // the longest line is the rarest anchor: few hits to check
  let a = 0;
  for (let i = 1; i < block.length; i++) if (block[i].length > block[a].length) a = i;
  const anchor = block[a];
  for (let hit = text.indexOf(anchor); hit !== -1 && found.length < max; hit = text.indexOf(anchor, hit + 1)) {
    if (hit > 0 && text.charCodeAt(hit - 1) !== 10) continue;
    let end = text.indexOf('\n', hit);
    if (end === -1) end = text.length;
    if (text.slice(hit + anchor.length, end).trim() !== '') continue;
    let start = hit;
    let ok = true;
    for (let i = a - 1; i >= 0 && ok; i--) {
      if (start === 0) ok = false;
      else {
        const prevEnd = start - 1; // its '\n'
        const prevStart = prevEnd === 0 ? 0 : text.lastIndexOf('\n', prevEnd - 1) + 1;
        ok = text.slice(prevStart, prevEnd).trimEnd() === block[i];
        start = prevStart;
      }
    }
    let pos = end;
    for (let i = a + 1; i < block.length && ok; i++) {
      const from = pos + 1;
      if (from >= text.length) ok = false;
      else {
        let to = text.indexOf('\n', from);
        if (to === -1) to = text.length;
        ok = text.slice(from, to).trimEnd() === block[i];
        pos = to;
      }
    }
    if (ok) found.push(start);
  }
  return found;
}

/** An append of `appended` (as it will be written) to `current`: does the file already hold that block? */
export function findAppendDuplicate(current: string, appended: string): Duplicate | undefined {
  // a first line that continues the file's last line (no final newline) is not a line of its own
  const joined = current.length > 0 && !current.endsWith('\n');
  const added = joined ? appended.slice(appended.indexOf('\n') + 1 || appended.length) : appended;
  if (added.length > 4096 && !firstLineStandsIn(current, added)) return undefined;
  const block = blockOf(added);
  if (!block) return undefined;
  const at = occurrences(current, block, 1);
  if (at.length === 0) return undefined;
  const start = lineOfOffset(current, at[0]);
  // the appended lines start on the line after the file's last one
  const addedAt = lastLineOf(current) + 1 + leadingBlankLines(added);
  return { start, end: start + block.length - 1, count: occurrences(current, block).length, addedAt };
}

/**
 * An overwrite of `current` with `next`: the lines it changes (between the common start and end, on
 * line boundaries), as a block the file already holds that `next` would hold more often.
 */
export function findWriteDuplicate(current: string, next: string): Duplicate | undefined {
  const max = Math.min(current.length, next.length);
  let p = commonPrefix(current, next, max);
  // on a line boundary of both texts: after the last line break of the common start
  p = p === 0 ? 0 : current.lastIndexOf('\n', p - 1) + 1;
  let s = commonSuffix(current, next, max - p);
  // the common end starts a line in both: after its first line break (unless it already starts one)
  if (
    s > 0 &&
    s < current.length &&
    s < next.length &&
    !(current.charCodeAt(current.length - s - 1) === 10 && next.charCodeAt(next.length - s - 1) === 10)
  ) {
    const tail = next.slice(next.length - s);
    const nl = tail.indexOf('\n');
    s = nl === -1 ? 0 : s - nl - 1;
  }
  const added = next.slice(p, next.length - s);
  if (!firstLineStandsIn(current, added)) return undefined;
  const block = blockOf(added);
  if (!block) return undefined;
  const had = occurrences(current, block);
  if (had.length === 0) return undefined;
  const will = occurrences(next, block, had.length + 1);
  if (will.length <= had.length) return undefined;
  const start = lineOfOffset(current, had[0]);
  return { start, end: start + block.length - 1, count: had.length, addedAt: lineOfOffset(next, p) + leadingBlankLines(added) };
}

function leadingBlankLines(text: string): number {
  let n = 0;
  for (const line of text.split('\n', 1000)) {
    if (line.trim() !== '') break;
    n++;
  }
  return n;
}
