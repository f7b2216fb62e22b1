// Line helpers shared by rendering, matching and diffs.

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
