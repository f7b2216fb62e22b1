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
}

export interface RenderedRange {
  body: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** More lines exist after `endLine` than were shown. */
  truncated: boolean;
  /** The cap (not the caller's limit) cut the output. */
  cutByCap: boolean;
}

export function numberLines(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((line, i) => `${String(firstLine + i).padStart(width)}\t${line}`).join('\n');
}

/** Renders lines `offset … offset+limit-1` (capped); callers validate `offset`/`limit` first. */
export function renderNumbered(text: string, options: RenderOptions): RenderedRange {
  const lines = splitLines(text);
  const totalLines = lines.length;
  const startLine = Math.max(1, options.offset ?? 1);
  const wanted = options.limit ?? Infinity;
  const count = Math.max(0, Math.min(wanted, options.maxLines, totalLines - startLine + 1));
  const endLine = startLine + count - 1;
  return {
    body: numberLines(lines.slice(startLine - 1, endLine), startLine),
    startLine,
    endLine,
    totalLines,
    truncated: endLine < totalLines,
    cutByCap: count === options.maxLines && wanted > options.maxLines && endLine < totalLines,
  };
}

/** Matches a line as printed by `numberLines` (used to spot pasted prefixes in an `oldString`). */
export const NUMBERED_LINE = /^\s*\d+\t/;
