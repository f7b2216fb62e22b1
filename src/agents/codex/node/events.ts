// OpenAI's Codex CLI as the hooks bridge sees it (test/codex/FACTS.md): it has no file-read tool — the
// model reads with its shell tool, which hooks see as `Bash` with `tool_input.command`, the command as
// the model wrote it — and edits with `apply_patch`, whose `tool_input.command` is the raw patch,
// applied by Codex on disk, in place, past the editor. Its payloads carry a `turn_id` per prompt, and a
// shell `workdir` becomes the payload's `cwd`, so every path here is relative to that `cwd`.
import { denyPreToolUse, type HookAgent, type HookEvent, payloadHead, str, type TouchedFile } from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';

/** The id its hook commands name. */
export const CODEX = 'codex';

/** Its shell tool, as hooks name it, and its patch tool. */
export const SHELL_TOOL = 'Bash';
export const PATCH_TOOL = 'apply_patch';
/** The tools whose hook events the gate needs: the tool events' matcher and the bash client's filter. */
export const CODEX_TOOLS = [SHELL_TOOL, PATCH_TOOL] as const;

const TOOL_VERB: Record<string, string> = { [SHELL_TOOL]: 'read', [PATCH_TOOL]: 'patch' };

/**
 * Reads one hook payload of Codex: `apply_patch` changes every file its patch updates or deletes and
 * creates every file it adds or moves to; a `Bash` command is a read of one file when it is one of
 * the plain reads of `readOfCommand`, an edit when it runs `apply_patch` itself (Codex applies that
 * patch without an `apply_patch` hook and without a PostToolUse), and nothing for the gate otherwise.
 */
export function parseCodexEvent(payload: unknown): HookEvent {
  const head = payloadHead(payload);
  if (!head.ok) return head.ignore;
  const { event, chat, tool, input, p } = head;
  const turn = str(p.turn_id);
  const withTurn = <T extends HookEvent>(e: T): T => (turn === undefined ? e : { ...e, turn });
  switch (event) {
    case 'UserPromptSubmit': {
      const prompt = str(p.prompt);
      return withTurn(prompt === undefined ? { kind: 'turn', chat } : { kind: 'turn', chat, prompt });
    }
    case 'PreCompact':
      return { kind: 'compact', chat };
    case 'PreToolUse':
    case 'PostToolUse': {
      const when = event === 'PreToolUse' ? 'before' : 'after';
      const command = str(input.command);
      if (tool !== SHELL_TOOL && tool !== PATCH_TOOL)
        return { kind: 'ignore', why: `${tool || 'a tool'} is not Codex's shell or apply_patch`, chat };
      if (command === undefined) return { kind: 'ignore', why: `${tool} without a command`, chat };
      const files = tool === PATCH_TOOL ? filesOfPatch(command) : patchThroughShell(command);
      if (files !== undefined) {
        if (files.length === 0) return { kind: 'ignore', why: `${tool}: a patch that names no file`, chat };
        return withTurn({ kind: `${when}-edit`, chat, tool: PATCH_TOOL, files });
      }
      const file = readOfCommand(command);
      if (file === undefined) return { kind: 'ignore', why: 'a shell command that is not a plain read of one file', chat };
      return withTurn({ kind: `${when}-read`, chat, tool: SHELL_TOOL, files: [file] });
    }
    default:
      return { kind: 'ignore', why: `${event} is not an event the gate uses`, chat };
  }
}

// --- the shell commands the gate reads

/**
 * A shell command that runs `apply_patch` (or its alias `applypatch`) itself — as a heredoc,
 * `apply_patch <<'EOF'\n*** Begin Patch…\nEOF`, or with the patch as its argument — optionally after
 * `cd DIR &&`: the files its patch names (relative to DIR, when there is one). Codex intercepts such a
 * command and applies the patch itself (test/codex/FACTS.md). Undefined: the command is not one.
 */
export function patchThroughShell(command: string): TouchedFile[] | undefined {
  const m = /^\s*(?:cd\s+('[^']*'|"[^"$`\\]*"|[A-Za-z0-9_./@%+=:,-]+)\s*&&\s*)?(?:apply_patch|applypatch)(?=[\s<'"]|$)/.exec(command);
  if (!m || !command.includes('*** Begin Patch')) return undefined;
  const dir = m[1] === undefined ? undefined : m[1].replace(/^(['"])(.*)\1$/s, '$2');
  const files = filesOfPatch(command);
  return dir === undefined ? files : files.map((f) => ({ ...f, path: f.path.startsWith('/') ? f.path : joinPath(dir, f.path) }));
}

const joinPath = (dir: string, file: string) => `${dir.replace(/\/+$/, '')}/${file}`;

/**
 * The file a shell command shows, when it is one of these plain reads of ONE file, and nothing else:
 *
 *   cat [-n] F                    nl [-ba | -b a] F
 *   sed -n 'Lp' F                 sed -n 'L,Mp' F            (L a line number; M one or `$`)
 *   head [-n N | -N] F            tail [-n [+]N | -N] F
 *
 * optionally piped into one of `head [-n N | -N]`, `tail [-n [+]N | -N]` or `sed -n 'L,Mp'` (so
 * `nl -ba F | sed -n '1,120p'`, Codex's usual read, counts). A read marks the file's whole text, whatever
 * lines it showed (rule 1). Words are plain (letters, digits, `_ . / @ % + = : , -`) or quoted ('…', or
 * "…" without `$`, `` ` ``, `\`, `!`); anything else — another command, `;`, `&&`, a redirection, a glob, a
 * variable, a command substitution, `~`, several files, an option not listed — is not a read: the gate
 * then ignores the command. Why so strict: a command taken for a read that showed something else would
 * stamp a mark the model has not earned, and so let a stale patch through; a read missed costs at most a
 * refusal that shows the file (rule 6).
 */
export function readOfCommand(command: string): string | undefined {
  const words = shellWords(command);
  if (!words) return undefined;
  const bar = words.indexOf('|');
  const [source, filter] = bar < 0 ? [words, undefined] : [words.slice(0, bar), words.slice(bar + 1)];
  if (filter !== undefined && (filter.includes('|') || !isFilter(filter))) return undefined;
  return fileOfSource(source);
}

/** The one file a reading command names, if it is one of the reads above. */
function fileOfSource(words: string[]): string | undefined {
  const [cmd, ...args] = words;
  const file = args.at(-1);
  if (file === undefined || file.startsWith('-')) return undefined;
  const opts = args.slice(0, -1);
  switch (cmd) {
    case 'cat':
      return opts.length === 0 || (opts.length === 1 && opts[0] === '-n') ? file : undefined;
    case 'nl':
      return opts.length === 0 || same(opts, ['-ba']) || same(opts, ['-b', 'a']) ? file : undefined;
    case 'sed':
      return opts.length === 2 && opts[0] === '-n' && SED_RANGE.test(opts[1]) ? file : undefined;
    case 'head':
    case 'tail':
      return lineCount(cmd, opts) ? file : undefined;
    default:
      return undefined;
  }
}

/** A filter after `|`: it only narrows what the read shows. */
function isFilter(words: string[]): boolean {
  const [cmd, ...opts] = words;
  if (cmd === 'head' || cmd === 'tail') return lineCount(cmd, opts);
  return cmd === 'sed' && opts.length === 2 && opts[0] === '-n' && SED_RANGE.test(opts[1]);
}

const SED_RANGE = /^\d+(,(\d+|\$))?p$/;

/** No options, or a count of lines: `-n N`, `-nN`, `-N` (tail also `+N`). */
function lineCount(cmd: 'head' | 'tail', opts: string[]): boolean {
  const count = cmd === 'tail' ? /^\+?\d+$/ : /^\d+$/;
  if (opts.length === 0) return true;
  if (opts.length === 1) return /^-\d+$/.test(opts[0]) || (opts[0].startsWith('-n') && count.test(opts[0].slice(2)));
  return opts.length === 2 && opts[0] === '-n' && count.test(opts[1]);
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => w === b[i]);

/**
 * The command's words as the shell would take them, with `|` as a word of its own; undefined when the
 * command holds anything but plain or quoted words and pipes (see readOfCommand).
 */
function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  const s = command.trim();
  while (i < s.length) {
    const c = s[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '|') {
      if (s[i + 1] === '|') return undefined;
      words.push('|');
      i++;
      continue;
    }
    let word = '';
    let quoted = false;
    while (i < s.length && s[i] !== ' ' && s[i] !== '\t' && s[i] !== '|') {
      const ch = s[i];
      if (ch === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) return undefined;
        word += s.slice(i + 1, end);
        i = end + 1;
        quoted = true;
      } else if (ch === '"') {
        const end = s.indexOf('"', i + 1);
        if (end < 0) return undefined;
        const inner = s.slice(i + 1, end);
        if (/[$`\\!]/.test(inner)) return undefined;
        word += inner;
        i = end + 1;
        quoted = true;
      } else if (/[A-Za-z0-9_./@%+=:,-]/.test(ch)) {
        word += ch;
        i++;
      } else return undefined;
    }
    // an empty quoted word names no file; `|` only as the operator
    if (quoted && (word === '' || word === '|')) return undefined;
    words.push(word);
  }
  return words;
}

/** Codex: it reads (through its shell) and writes (apply_patch) the disk itself, and its sessions are its own chats. */
export const codexAgent: HookAgent = {
  id: CODEX,
  name: 'Codex',
  writesDisk: true,
  ownChats: true,
  toolNames: CODEX_TOOLS,
  parse: parseCodexEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyPreToolUse,
};
