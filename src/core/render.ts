// Numbered rendering of a file for the model: `<line number>\t<text>`, like `cat -n`.
// The numbers let the model talk about lines; every tool description says they are not file text.
import { splitLines } from './text';

export interface RenderOptions {
  /** 1-based first line. */
  offset?: number;
  /** Number of lines wanted. */
  limit?: number;
  /** `editGuard.maxReadLines`: the most lines one read returns. */
  maxLines: number;
  /**
   * `editGuard.maxResultChars`: the most characters of rendered text. Copilot's agent loop swaps any
   * tool-result part over 8 KB for a pointer to a file, so results stay under it to reach the model.
   */
  maxChars?: number;
}

/** What stopped the output before the end of the file. */
export type CutReason = 'limit' | 'lines' | 'chars';

export interface RenderedRange {
  body: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** More lines exist after `endLine` than were shown. */
  truncated: boolean;
  /** Why the output stops before the end (undefined when it reaches the end). */
  cut: CutReason | undefined;
  /** A single line longer than the character budget was shown whole, over the budget. */
  longLine: boolean;
}

export function numberLines(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((line, i) => `${String(firstLine + i).padStart(width)}\t${line}`).join('\n');
}

/** Renders lines `offset … offset+limit-1`, within the line cap and the character budget. */
export function renderNumbered(text: string, options: RenderOptions): RenderedRange {
  const lines = splitLines(text);
  const totalLines = lines.length;
  const startLine = Math.max(1, options.offset ?? 1);
  const wanted = options.limit ?? Infinity;
  const byLines = Math.max(0, Math.min(wanted, options.maxLines, totalLines - startLine + 1));
  const maxChars = options.maxChars ?? Infinity;
  const width = String(startLine + byLines - 1).length;
  let count = 0;
  let chars = 0;
  let longLine = false;
  const shown: string[] = [];
  for (; count < byLines; count++) {
    const line = lines[startLine - 1 + count];
    const cost = width + 2 + line.length;
    if (chars + cost > maxChars) {
      if (count === 0) {
        // one line longer than the whole budget: show it whole, never cut text the model must match
        shown.push(line);
        longLine = true;
        count = 1;
      }
      break;
    }
    shown.push(line);
    chars += cost;
  }
  const endLine = startLine + count - 1;
  const truncated = endLine < totalLines;
  let cut: CutReason | undefined;
  if (truncated) cut = count < byLines ? 'chars' : byLines === options.maxLines && wanted > options.maxLines ? 'lines' : 'limit';
  return { body: numberLines(shown, startLine), startLine, endLine, totalLines, truncated, cut, longLine };
}

/** Matches a line as printed by `numberLines` (used to spot pasted prefixes in an `oldString`). */
export const NUMBERED_LINE = /^\s*\d+\t/;
