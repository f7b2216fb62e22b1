// What the scripted agent of the outcomes suite means to do to a file, as a function of the text it
// believes the file holds (its copy): the same intent gives the first call and, after a refusal, the
// retry from the text the refusal showed. Pure: no vscode, so the unit tests can pin the edits down.

/** An edit the agent makes, in terms of its copy of the file. */
export type Edit =
  /** `oldString` → `newString`, quoted from the copy with lines of context around the change */
  | { kind: 'replace'; oldString: string; newString: string }
  /** text added at the end of the file */
  | { kind: 'append'; text: string }
  /** a new file (the agent believes there is none) */
  | { kind: 'create'; text: string };

/** The edit the agent wants given its copy (`undefined`: it has never seen the file), or nothing once the copy shows it done. */
export type Intent = (copy: string | undefined) => Edit | undefined;

/**
 * Lines of context quoted on each side of a changed line. Copilot's replace tools ask the model for
 * 3–5 lines of unchanged text before and after the change, so the quote identifies its place.
 */
export const CONTEXT_LINES = 3;

/**
 * The lines holding each anchor changed by its function, in one replace that quotes them from the
 * first to the last with CONTEXT_LINES around them (a model rewrites a block this way: every line
 * between the first and last change is in its newString); done when no function changes its line.
 */
export function changeLines(...changes: Array<[anchor: string, change: (line: string) => string]>): Intent {
  return (copy) => {
    if (copy === undefined) return undefined;
    const lines = copy.split('\n');
    const at = changes.map(([anchor]) => lines.findIndex((l) => l.includes(anchor)));
    if (at.some((i) => i < 0)) return undefined;
    const changed = new Map(at.map((i, k) => [i, changes[k][1](lines[i])]));
    if ([...changed].every(([i, line]) => line === lines[i])) return undefined;
    // the last element is '' when the copy ends with a line break: not a line to quote
    const last = lines[lines.length - 1] === '' ? lines.length - 2 : lines.length - 1;
    const from = Math.max(0, Math.min(...at) - CONTEXT_LINES);
    const to = Math.min(last, Math.max(...at) + CONTEXT_LINES);
    const quoted = lines.slice(from, to + 1);
    const oldString = quoted.join('\n');
    const newString = quoted.map((l, k) => changed.get(from + k) ?? l).join('\n');
    return { kind: 'replace', oldString, newString };
  };
}

/** One line changed (changeLines with one anchor). */
export const changeLine = (anchor: string, change: (line: string) => string): Intent => changeLines([anchor, change]);

/** `section` added at the end, unless the copy already holds it. */
export function appendSection(section: string): Intent {
  return (copy) => (copy !== undefined && copy.includes(section.trim()) ? undefined : { kind: 'append', text: section });
}

/** A file the agent believes is new: created with `text`; if it turns out to exist, `text` added to it (unless it holds it). */
export function createFile(text: string): Intent {
  return (copy) => (copy === undefined ? { kind: 'create', text } : appendSection(text)(copy));
}

/** The text the agent believes the file holds after its edit landed. */
export function applyToCopy(copy: string | undefined, edit: Edit): string {
  switch (edit.kind) {
    case 'create':
      return edit.text;
    case 'append':
      return (copy ?? '') + edit.text;
    case 'replace':
      return copy === undefined ? edit.newString : copy.replace(edit.oldString, edit.newString);
  }
}

/**
 * How an append is made with a replace tool (Copilot's built-in tools have no append): the copy's
 * last two lines are quoted and given back with the text after them.
 */
export function appendAsReplace(copy: string, text: string): { oldString: string; newString: string } {
  const lines = copy.split('\n');
  const endsWithBreak = lines[lines.length - 1] === '';
  const tail = lines.slice(endsWithBreak ? -3 : -2).join('\n');
  return { oldString: tail, newString: endsWithBreak ? tail + text : `${tail}\n${text}` };
}

/** One file's part of a patch in apply_patch's format (`*** Begin Patch` … `*** End Patch`), from the agent's copy. */
export function patchPart(filePath: string, copy: string | undefined, edit: Edit): string {
  const plus = (text: string) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `+${l}`);
  if (edit.kind === 'create') return [`*** Add File: ${filePath}`, ...plus(edit.text)].join('\n');
  const { oldString, newString } = edit.kind === 'replace' ? edit : appendAsReplace(copy ?? '', edit.text);
  const before = oldString.replace(/\n$/, '').split('\n');
  const after = newString.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  const context = (ls: string[]) => ls.map((l) => ` ${l}`);
  return [
    `*** Update File: ${filePath}`,
    '@@',
    ...context(before.slice(0, head)),
    ...before.slice(head, before.length - tail).map((l) => `-${l}`),
    ...after.slice(head, after.length - tail).map((l) => `+${l}`),
    ...context(before.slice(before.length - tail)),
  ].join('\n');
}

export const wholePatch = (parts: string[]) => ['*** Begin Patch', ...parts, '*** End Patch'].join('\n');

/** A word for a POSIX shell: single-quoted (a quote inside closed, escaped and opened again). */
export const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The closing line of the heredocs below. */
const HEREDOC_END = 'EOF';

/**
 * A shell command that writes `text` over the whole of `file`, as a model writes one: a quoted heredoc,
 * `cat > F <<'EOF'`, the text's lines, `EOF` (nothing in it is expanded). `text` ends with a line break.
 */
export function heredoc(file: string, text: string): string {
  if (!text.endsWith('\n') || text.split('\n').includes(HEREDOC_END)) throw new Error(`a heredoc cannot hold ${JSON.stringify(text)}`);
  return `cat > ${shellWord(file)} <<'${HEREDOC_END}'\n${text}${HEREDOC_END}`;
}
