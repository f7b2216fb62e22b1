// Unified diffs and changed-line ranges, from the `diff` library (Myers' algorithm, well kept):
// we do not write our own diff algorithm.
import { diffLines, structuredPatch } from 'diff';

export interface UnifiedDiff {
  text: string;
  /** Lines of diff left out to stay within `maxLines`. */
  omittedLines: number;
}

/** What the two sides of a diff are, as its header names them ("--- path (before)"). */
export interface DiffLabels {
  before: string;
  after: string;
}

/**
 * A unified diff of `before` → `after`, labelled with `path` and `labels`, at most `maxLines` lines
 * and `maxChars` characters long (whole lines only).
 */
export function unifiedDiff(
  before: string,
  after: string,
  path: string,
  labels: DiffLabels,
  maxLines = 200,
  maxChars = Infinity,
  context = 3,
): UnifiedDiff {
  const patch = structuredPatch(path, path, normalize(before), normalize(after), labels.before, labels.after, { context });
  const out: string[] = [`--- ${path} (${labels.before})`, `+++ ${path} (${labels.after})`];
  for (const hunk of patch.hunks) {
    // unified-diff convention: an empty side names the line *after which* the change goes (0 = top)
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    out.push(...hunk.lines);
  }
  let kept = 0;
  let chars = 0;
  while (kept < out.length && kept < maxLines && chars + out[kept].length + 1 <= maxChars) chars += out[kept++].length + 1;
  return { text: out.slice(0, kept).join('\n'), omittedLines: out.length - kept };
}

export interface LineRange {
  /** 0-based first line, in `after`. */
  start: number;
  /** 0-based last line (inclusive), in `after`. */
  end: number;
}

/** The line ranges of `after` that differ from `before` (a deletion marks the line where it happened). */
export function changedLineRanges(before: string, after: string): LineRange[] {
  const ranges: LineRange[] = [];
  let line = 0;
  for (const part of diffLines(normalize(before), normalize(after))) {
    const count = part.count ?? 0;
    if (part.added) {
      ranges.push({ start: line, end: line + Math.max(count, 1) - 1 });
      line += count;
    } else if (part.removed) {
      const last = ranges[ranges.length - 1];
      if (!last || last.end < line - 1 || last.start > line) ranges.push({ start: line, end: line });
    } else {
      line += count;
    }
  }
  return mergeRanges(ranges);
}

function mergeRanges(ranges: LineRange[]): LineRange[] {
  const merged: LineRange[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/** Diff on LF text: a CRLF file must not show every line as changed against an LF snapshot. */
function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
