// Exact-text replacement, line-ending aware: an `oldString` written with `\n` matches a CRLF
// document, and the replacement is written with the document's own line ending, so a CRLF file
// stays CRLF and bytes outside the match never change.
import { REPLACE } from './messages';
import { NUMBERED_LINE, numberLines } from './render';
import { dominantEol, type Eol, foldLineEnds, lastLineOf, lineOfOffset, partOfText, splitLines, withEol } from './text';
import type { LineSpan } from './types';

/** A change to the original text: characters `[start, end)` become `text`. */
export interface TextSpanEdit {
  start: number;
  end: number;
  text: string;
}

export type ReplacePlan =
  | { kind: 'ok'; edits: TextSpanEdit[]; count: number; newText: string }
  | { kind: 'no-match'; detail: string }
  | { kind: 'ambiguous'; count: number; lines: number[] }
  | { kind: 'invalid'; detail: string };

/**
 * The text with CRLF folded to LF, and for every position of it the position in the original
 * (a folded CRLF maps to its `\r`, so a match that starts or ends at a line break covers it whole).
 */
function foldCrlf(text: string): { folded: string; toOriginal: (index: number) => number } {
  if (!text.includes('\r\n')) return { folded: text, toOriginal: (i) => i };
  const starts = new Int32Array(text.length + 1);
  let folded = '';
  let n = 0;
  let chunkStart = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) {
      folded += text.slice(chunkStart, i);
      // characters of the chunk map one to one
      for (let j = chunkStart; j < i; j++) starts[n++] = j;
      starts[n++] = i; // the folded "\n" begins at the "\r"
      folded += '\n';
      i++;
      chunkStart = i + 1;
    }
  }
  folded += text.slice(chunkStart);
  for (let j = chunkStart; j < text.length; j++) starts[n++] = j;
  starts[n] = text.length;
  return { folded, toOriginal: (i) => starts[i] };
}

const lf = (s: string) => s.replace(/\r\n/g, '\n');

/** `eol`: the document's line ending, which the replacement is written with (default: the text's dominant one). */
export function planReplace(
  text: string,
  oldString: string,
  newString: string,
  replaceAll = false,
  eol: Eol = dominantEol(text),
): ReplacePlan {
  if (oldString === newString) {
    return { kind: 'invalid', detail: REPLACE.identical };
  }
  if (oldString === '') {
    if (text.length === 0) {
      const inserted = withEol(newString, eol);
      return { kind: 'ok', edits: [{ start: 0, end: 0, text: inserted }], count: 1, newText: inserted };
    }
    return {
      kind: 'invalid',
      detail: REPLACE.emptyOld,
    };
  }
  const { folded, toOriginal } = foldCrlf(text);
  const needle = lf(oldString);
  const starts: number[] = [];
  for (let i = folded.indexOf(needle); i !== -1; i = folded.indexOf(needle, i + needle.length)) {
    starts.push(i);
    if (!replaceAll && starts.length > 1) break;
  }
  if (starts.length === 0) return { kind: 'no-match', detail: explainNoMatch(text, oldString) };
  if (starts.length > 1 && !replaceAll) {
    const all: number[] = [];
    for (let i = folded.indexOf(needle); i !== -1; i = folded.indexOf(needle, i + needle.length)) all.push(i);
    return { kind: 'ambiguous', count: all.length, lines: all.slice(0, 10).map((i) => lineOfOffset(folded, i)) };
  }
  const replacement = withEol(newString, eol);
  const edits = starts.map((s) => ({ start: toOriginal(s), end: toOriginal(s + needle.length), text: replacement }));
  return { kind: 'ok', edits, count: edits.length, newText: applySpanEdits(text, edits) };
}

/**
 * Rule 12: the first of `quotes` (a replace's oldStrings) that `text` does not hold as written — line
 * endings folded and blanks at line ends ignored, on both sides — or `undefined` when it holds each.
 * The text is folded once, then one native search per quote. An empty quote is not looked for: the
 * tool refuses it itself.
 */
export function firstMissingQuote(text: string, quotes: readonly string[]): string | undefined {
  let folded: string | undefined;
  for (const quote of quotes) {
    if (quote === '') continue;
    folded ??= foldLineEnds(text);
    if (!folded.includes(foldLineEnds(quote))) return quote;
  }
  return undefined;
}

/** Applies non-overlapping edits given in any order. */
export function applySpanEdits(text: string, edits: readonly TextSpanEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * The lines of `newText` (what `applySpanEdits` made of the text) that the edits cover, first edit to
 * last; `undefined` when that is every line (an overwrite). A deletion covers the line it joined.
 */
export function changedLinesOf(edits: readonly TextSpanEdit[], newText: string): LineSpan | undefined {
  if (edits.length === 0) return undefined;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let shift = 0;
  let first = -1;
  let last = 0;
  for (const e of sorted) {
    const at = e.start + shift;
    if (first < 0) first = at;
    last = at + e.text.length;
    shift += e.text.length - (e.end - e.start);
  }
  const start = lineOfOffset(newText, first);
  // the last character the edits wrote (a replacement ending in a line break covers that line, not the next)
  const end = Math.max(start, lineOfOffset(newText, Math.max(first, last - 1)));
  return partOfText(start, end, lastLineOf(newText));
}

const squash = (line: string) => line.trim().replace(/\s+/g, ' ');

/** Why `oldString` did not match, pointing at the closest region and showing its current lines. */
export function explainNoMatch(text: string, oldString: string): string {
  const oldLines = splitLines(lf(oldString));
  const docLines = splitLines(text);
  const show = (first: number, count: number) => numberLines(docLines.slice(first, first + count), first + 1);

  if (oldLines.length > 0 && oldLines.every((l) => l.trim() === '' || NUMBERED_LINE.test(l))) {
    const stripped = oldLines.map((l) => l.replace(NUMBERED_LINE, '')).join('\n');
    const found = stripped.length > 0 && foldCrlf(text).folded.includes(stripped);
    return REPLACE.hasLineNumbers(found);
  }

  const wanted = oldLines.map(squash);
  while (wanted.length && wanted[0] === '') wanted.shift();
  while (wanted.length && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length > 0) {
    const squashed = docLines.map(squash);
    for (let i = 0; i + wanted.length <= squashed.length; i++) {
      if (wanted.every((w, k) => squashed[i + k] === w)) {
        return REPLACE.whitespaceDiffers(i + 1, i + wanted.length, show(i, wanted.length));
      }
    }
    const first = squashed.indexOf(wanted[0]);
    if (first !== -1) {
      return REPLACE.firstLineOnly(first + 1, show(first, Math.min(wanted.length + 2, 40)));
    }
  }
  return REPLACE.nowhere;
}
