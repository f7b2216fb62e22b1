// Line helpers shared by rendering, matching and diffs.
import type { LineSpan } from './types';

/** Splits into lines without their terminators; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r\n|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export type Eol = '\n' | '\r\n';

/** The document's dominant line ending (CRLF only when most line breaks are CRLF). */
export function dominantEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** 1-based line number of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The number of the text's last line (a final newline does not start another line). */
export const lastLineOf = (text: string): number => lineOfOffset(text, text.endsWith('\n') ? text.length - 1 : text.length);

/** Lines `start`–`end` (1-based, inclusive) of a text whose last line is `lastLine`; `undefined` when they are all of it. */
export const partOfText = (start: number, end: number, lastLine: number): LineSpan | undefined =>
  start === 1 && end >= lastLine ? undefined : { start, end };

/** A line ending as people name it. */
export const eolName = (eol: Eol): 'CRLF' | 'LF' => (eol === '\r\n' ? 'CRLF' : 'LF');

/** Every line break (`\r\n`, a lone `\r`, `\n`) as `eol`: how VS Code holds any text it is given. */
export function withEol(text: string, eol: Eol): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

/**
 * The text VS Code holds for a file with these contents: one line ending for the whole document,
 * CRLF when carriage returns (lone `\r` or in `\r\n`) make up more than half of the line breaks,
 * else LF; `defaultEol` (`files.eol`) when there is no line break at all. Checked in the real host
 * by the "VS Code documents" suite; the editor model of the unit tests applies the same rule.
 */
export function asEditorHolds(contents: string, defaultEol: Eol): { text: string; eol: Eol } {
  let cr = 0;
  let lf = 0;
  let crlf = 0;
  for (let i = 0; i < contents.length; i++) {
    const c = contents.charCodeAt(i);
    if (c === 13) {
      if (contents.charCodeAt(i + 1) === 10) {
        crlf++;
        i++;
      } else cr++;
    } else if (c === 10) lf++;
  }
  const breaks = cr + lf + crlf;
  if (breaks === 0) return { text: contents, eol: defaultEol };
  const eol: Eol = cr + crlf > breaks / 2 ? '\r\n' : '\n';
  const uniform = eol === '\r\n' ? cr === 0 && lf === 0 : cr === 0 && crlf === 0;
  return { text: uniform ? contents : withEol(contents, eol), eol };
}

/** A blank at a line's end, or a CRLF's `\r` (one char before a `\n` or the end): a text without one folds to itself. */
const BLANK_AT_LINE_END = /[ \t\r](?:\n|$)/;

/**
 * The text with each line's trailing spaces, tabs and carriage returns dropped (so CRLF folds to
 * LF): what Copilot's exact and fuzzy matching let differ (rule 12). Linear: no regular expression
 * runs over the blanks (a long run of them would make a backtracking one quadratic).
 */
export function foldLineEnds(text: string): string {
  if (!BLANK_AT_LINE_END.test(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      for (let c = line.charCodeAt(end - 1); c === 32 || c === 9 || c === 13; c = line.charCodeAt(end - 1)) end--;
      return end === line.length ? line : line.slice(0, end);
    })
    .join('\n');
}

/** The length of the common start of two texts, up to `max`, compared in native chunks. */
export function commonPrefix(a: string, b: string, max: number): number {
  let i = 0;
  for (let step = 1 << 16; step >= 1; step >>= 1) {
    while (i + step <= max && a.startsWith(b.slice(i, i + step), i)) i += step;
  }
  return i;
}

/** The length of the common end of two texts, up to `max`. */
export function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  for (let step = 1 << 16; step >= 1; step >>= 1) {
    while (i + step <= max && a.endsWith(b.slice(b.length - i - step, b.length - i), a.length - i)) i += step;
  }
  return i;
}
