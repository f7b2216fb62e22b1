// What a tool result showed the scripted agent of a file: the text a read returned, and what a refusal
// showed (the current content, or a diff from the version the chat saw). The agent's one rule after a
// refusal is to retry from this text, so it must read exactly what the refusal says, nothing more.
// Every file of the scenarios ends with a line break, which numbered lines cannot show: it is assumed.
import { applyPatch } from 'diff';

/** A numbered line as the guard shows it: the number (right-aligned), a tab, the line's text. */
const NUMBERED = /^ *(\d+)\t(.*)$/;

/** The blocks fenced with ``` in a text, with their info string (`diff`, a language, or ''). */
function fences(text: string): Array<{ info: string; body: string }> {
  const out: Array<{ info: string; body: string }> = [];
  const re = /^(`{3,})([^\n`]*)\n([\s\S]*?)\n\1\s*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ info: m[2].trim(), body: m[3] });
  return out;
}

/** Numbered lines (`12<tab>text`), their numbers dropped; undefined if the block is not numbered. */
function unnumbered(body: string): string | undefined {
  const lines = body.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0 || !lines.every((l) => NUMBERED.test(l))) return undefined;
  return body
    .split('\n')
    .filter((l) => NUMBERED.test(l))
    .map((l) => NUMBERED.exec(l)![2])
    .join('\n');
}

/** The text a read result showed: numbered lines (the guarded read) or a fenced block (Copilot's read_file), else the whole result. */
export function textOfRead(result: string): string {
  for (const { body } of fences(result)) {
    const plain = unnumbered(body);
    if (plain !== undefined) return `${plain}\n`;
  }
  const [first] = fences(result).filter((f) => f.info !== 'diff');
  if (first) return first.body.endsWith('\n') ? first.body : `${first.body}\n`;
  const numbered = unnumbered(result);
  return numbered !== undefined ? `${numbered}\n` : result;
}

/**
 * The numbered lines a failed call showed (the guarded replace's no-match shows the current lines
 * where it looked for the quote), put into the copy at their numbers; undefined if it showed none.
 */
export function splicedInto(result: string, copy: string | undefined): string | undefined {
  if (copy === undefined) return undefined;
  const shown = result.split('\n').flatMap((l) => {
    const m = NUMBERED.exec(l);
    return m ? [{ at: Number(m[1]) - 1, text: m[2] }] : [];
  });
  const lines = copy.split('\n');
  if (shown.length === 0 || shown.some((s) => s.at >= lines.length)) return undefined;
  for (const s of shown) lines[s.at] = s.text;
  return lines.join('\n');
}

/**
 * A refusal that waits on the user (rule 13: an agent that writes the disk, and unsaved changes in the
 * editor): it asks the user to save or discard their changes before the agent writes again.
 */
export const asksTheUserToSave = (refusal: string) => /ask them to save or discard their changes/.test(refusal);

/** What a refusal showed of one file, given the agent's copy: the whole current text, or only some of its lines. */
export type Shown = { text: string } | { lines: string } | undefined;

/**
 * The part of a refusal about `path` (a denial of a built-in call may hold one refusal per file, each
 * starting `BLOCKED: nothing was written.`), read against the agent's `copy`: the numbered current
 * content; a diff, applied to the copy (undefined if it does not apply: the copy is older than the
 * version the diff starts from); or numbered lines alone (a `duplicate` refusal's lines).
 */
export function shownOf(refusal: string, path: string, copy: string | undefined): Shown {
  const parts = refusal.split('BLOCKED: nothing was written.').slice(1);
  const part = parts.find((p) => p.split('\n')[0].includes(path)) ?? (parts.length === 1 ? parts[0] : undefined);
  if (part === undefined) return undefined;
  for (const { info, body } of fences(part)) {
    if (info === 'diff') {
      if (copy === undefined) return undefined;
      const patched = applyPatch(copy, `${body}\n`);
      return patched === false ? undefined : { text: patched };
    }
    const plain = unnumbered(body);
    if (plain !== undefined) return /Current content of/.test(part) ? { text: `${plain}\n` } : { lines: plain };
  }
  return undefined;
}
