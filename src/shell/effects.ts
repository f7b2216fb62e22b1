// What a shell command an agent is about to run writes, and what it shows (docs/design.md rule 16): the
// gate checks each file it names as an edit of that file before the command runs. Read from bash's syntax
// tree (parser.ts), never from the text: quotes, heredocs, `cd`, `&&`, pipes, subshells and substitutions
// are the grammar's to tell apart. What cannot be named before it runs — a script, a program that is not
// one of the writers below, a target held in a variable set elsewhere — makes the command `opaque`: it is
// never refused for that (fail-open, rule 7); its writes are seen after it ran.
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { parseShell } from './parser';

/**
 * How a command writes a file. `overwrite` (`>`, `tee`, `cp` onto it, `git checkout --`) replaces its text;
 * `append` (`>>`, `tee -a`) and `in-place` (`sed -i`, `truncate`, a formatter) change it; `delete` removes it.
 */
export type WriteHow = 'overwrite' | 'append' | 'in-place' | 'delete';

export interface ShellWrite {
  /**
   * The file as the command names it: `~` expanded, joined onto the directory of every `cd` before it
   * (posix, normalised); a relative path stays relative to the directory the command starts in.
   */
  path: string;
  how: WriteHow;
  /** it holds an unquoted glob: a pattern, matched against the disk later */
  glob?: true;
  /** `cp`/`mv`/`install` without `-t`: the sources' names, since `path` may turn out to be a folder */
  into?: string[];
}

export interface ShellEffects {
  writes: ShellWrite[];
  /** the one file a plain read shows whole to the model (`readOfWords`), when the command is one */
  read?: string;
  /** it may write files the parse cannot name */
  opaque: boolean;
}

/** What the command writes and shows; `opaque` with nothing else when the parser is not loaded. */
export function shellEffects(command: string, env: { home?: string } = {}): ShellEffects {
  const tree = parseShell(command);
  if (!tree) return { writes: [], opaque: true };
  try {
    const root = tree.rootNode;
    // bash would not run a command it cannot parse; whatever a half-parsed one does is seen after it ran
    if (root.hasError) return { writes: [], opaque: true };
    const walk = new Walk(env.home);
    walk.statements(root, { dir: '', vars: new Map() });
    const read = walk.writes.length === 0 ? readOf(root) : undefined;
    return { writes: walk.writes, ...(read === undefined ? {} : { read }), opaque: walk.opaque };
  } finally {
    tree.delete();
  }
}

// --- the walk: every statement in the order bash runs it, with the directory and variables it knows

/** Where the commands run (`null`: a `cd` nobody can follow) and the variables set so far (`null`: set to something unknown). */
interface Scope {
  dir: string | null;
  vars: Map<string, string | null>;
}

/** A word as bash would expand it: its text, and whether it holds an unquoted glob. */
interface Word {
  text: string;
  glob: boolean;
}

const copy = (s: Scope): Scope => ({ dir: s.dir, vars: new Map(s.vars) });

class Walk {
  readonly writes: ShellWrite[] = [];
  opaque = false;

  constructor(private readonly home: string | undefined) {}

  /** The children of a node that holds statements, in order, sharing one scope (a `cd` carries on). */
  statements(node: Node, scope: Scope): void {
    for (const child of node.namedChildren) if (child) this.statement(child, scope);
  }

  private statement(node: Node, scope: Scope): void {
    switch (node.type) {
      case 'comment':
      case 'heredoc_body':
        return;
      case 'variable_assignment':
        return this.assign(node, scope);
      case 'declaration_command':
        for (const c of node.namedChildren) if (c?.type === 'variable_assignment') this.assign(c, scope);
        return;
      case 'command':
        return this.command(node, scope);
      case 'redirected_statement':
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (isRedirect(c)) this.redirect(c, scope);
          else this.statement(c, scope);
        }
        return;
      case 'subshell':
      case 'command_substitution':
      case 'process_substitution':
        // their own process: a `cd` or an assignment inside does not outlive them
        return this.statements(node, copy(scope));
      case 'pipeline':
        // each part is a process of its own too
        for (const c of node.namedChildren) if (c) this.statement(c, copy(scope));
        return;
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        return this.redirect(node, scope);
      default:
        // lists, `{ }`, if/while/for/case and their bodies, functions, `!`: statements in order; their words may hold substitutions
        return this.statements(node, scope);
    }
  }

  private assign(node: Node, scope: Scope): void {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    if (value) this.substitutions(value, scope);
    if (name) scope.vars.set(name, value ? (this.word(value, scope)?.text ?? null) : '');
  }

  /** A write inside `$( … )` or `<( … )` in a word is a write all the same. */
  private substitutions(node: Node, scope: Scope): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') return this.statement(node, scope);
    for (const c of node.namedChildren) if (c) this.substitutions(c, scope);
  }

  private redirect(node: Node, scope: Scope): void {
    if (node.type === 'heredoc_redirect') {
      // `cat <<EOF > F`, `cat <<EOF | tee F`, `cat > F <<EOF && rm G`: the rest of the heredoc's line sits inside its node
      for (const c of node.namedChildren) {
        if (!c || c.type.startsWith('heredoc_')) continue;
        if (c.type === 'file_redirect') this.redirect(c, scope);
        else this.statement(c, scope);
      }
      return;
    }
    if (node.type !== 'file_redirect') return;
    const operator = node.children.find((c) => c && !c.isNamed)?.type;
    const destination = node.childForFieldName('destination');
    if (!operator || !destination) return;
    this.substitutions(destination, scope);
    const how: WriteHow | undefined =
      operator === '>' || operator === '>|' || operator === '&>'
        ? 'overwrite'
        : operator === '>>' || operator === '&>>'
          ? 'append'
          : undefined;
    // `>&2`, `2>&1`: a copy of a descriptor, no file
    if (operator === '>&' && destination.type !== 'number') return this.target(this.word(destination, scope), 'overwrite', scope);
    if (how) this.target(this.word(destination, scope), how, scope);
  }

  private command(node: Node, scope: Scope): void {
    const words: Array<Word | undefined> = [];
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (isRedirect(c)) continue;
      // `VAR=x cmd`: the variable is the command's alone
      if (c.type === 'variable_assignment') {
        const value = c.childForFieldName('value');
        if (value) this.substitutions(value, scope);
        continue;
      }
      this.substitutions(c, scope);
      words.push(this.word(c.type === 'command_name' ? (c.firstNamedChild ?? c) : c, scope));
    }
    for (const c of node.namedChildren) if (c && isRedirect(c)) this.redirect(c, scope);
    this.run(words, scope);
  }

  /** One program with its arguments as bash would pass them (`undefined`: a word nobody can know before it runs). */
  private run(argv: Array<Word | undefined>, scope: Scope): void {
    const [head, ...args] = argv;
    if (head === undefined) {
      if (argv.length) this.opaque = true;
      return;
    }
    const name = path.posix.basename(head.text);
    const known = (ws: Array<Word | undefined>) => ws.map((w) => w?.text);
    const wrapped = unwrap(name, known(args));
    if (wrapped !== undefined) return wrapped < 0 ? void (this.opaque = true) : this.run(args.slice(wrapped), scope);
    const writer = WRITERS[name];
    if (writer) {
      const out = writer(args);
      if (out === 'opaque') this.opaque = true;
      else if (out) for (const w of out) this.target(w.word, w.how, scope, w.into);
      return;
    }
    if (name === 'cd' || name === 'pushd') return this.cd(args, scope);
    if (name === 'popd') return void (scope.dir = null);
    if (SHELLS.has(name)) return this.shell(args, scope);
    if (name === 'find') {
      if (args.some((a) => a === undefined || FIND_WRITES.has(a.text))) this.opaque = true;
      return;
    }
    if (!WRITES_NOTHING.has(name)) this.opaque = true;
  }

  private cd(args: Array<Word | undefined>, scope: Scope): void {
    const operands = args.filter((a) => a === undefined || !a.text.startsWith('-'));
    const to = operands[0];
    if (operands.length !== 1 || to === undefined || to.glob) return void (scope.dir = null);
    scope.dir = to.text.startsWith('/') ? path.posix.normalize(to.text) : scope.dir === null ? null : join(scope.dir, to.text);
  }

  /** `bash -c '…'`, `sh -lc "…"`: the command in the string, run where this one runs; a script is opaque. */
  private shell(args: Array<Word | undefined>, scope: Scope): void {
    const flag = args.findIndex((a) => a !== undefined && /^-[a-z]*c[a-z]*$/.test(a.text));
    const inner = flag < 0 ? undefined : args[flag + 1];
    const tree = inner && !inner.glob ? parseShell(inner.text) : undefined;
    if (!tree) return void (this.opaque = true);
    try {
      if (tree.rootNode.hasError) return void (this.opaque = true);
      this.statements(tree.rootNode, copy(scope));
    } finally {
      tree.delete();
    }
  }

  private target(word: Word | undefined, how: WriteHow, scope: Scope, into?: Array<string | undefined>): void {
    if (word === undefined || word.text === '') return void (this.opaque = true);
    let file = word.text;
    if (!file.startsWith('/')) {
      if (scope.dir === null) return void (this.opaque = true);
      file = join(scope.dir, file);
    } else file = path.posix.normalize(file);
    // a device, not a file anybody edits
    if (file === '/dev' || file.startsWith('/dev/')) return;
    const names = into?.filter((n): n is string => n !== undefined);
    if (into && names && names.length < into.length) this.opaque = true;
    if (this.writes.some((w) => w.path === file && w.how === how)) return;
    this.writes.push({ path: file, how, ...(word.glob ? { glob: true as const } : {}), ...(names ? { into: names } : {}) });
  }

  /** A word as bash would expand it, or `undefined` where that needs what only the running shell knows. */
  word(node: Node, scope: Scope): Word | undefined {
    switch (node.type) {
      case 'word': {
        const raw = node.text;
        let text = raw.replace(/\\(.)/gs, '$1');
        if (raw.startsWith('~')) {
          if (this.home === undefined || !/^~(\/|$)/.test(raw)) return undefined;
          text = this.home + text.slice(1);
        }
        return { text, glob: /(^|[^\\])[*?[]/.test(raw) };
      }
      case 'number':
        return { text: node.text, glob: false };
      case 'raw_string':
        return { text: node.text.slice(1, -1), glob: false };
      case 'string': {
        let text = '';
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (c.type === 'string_content') text += c.text.replace(/\\([$`"\\\n])/g, '$1');
          else {
            const part = this.word(c, scope);
            if (part === undefined) return undefined;
            text += part.text;
          }
        }
        return { text, glob: false };
      }
      case 'simple_expansion':
      case 'expansion': {
        // `$NAME`, `${NAME}`: nothing more (no default, no pattern)
        const names = node.namedChildren.filter((c) => c !== null);
        if (names.length !== 1 || names[0].type !== 'variable_name') return undefined;
        if (node.type === 'expansion' && node.text !== `\${${names[0].text}}`) return undefined;
        const name = names[0].text;
        const value = scope.vars.has(name) ? scope.vars.get(name) : name === 'HOME' ? this.home : undefined;
        return value === null || value === undefined ? undefined : { text: value, glob: false };
      }
      case 'concatenation': {
        let text = '';
        let glob = false;
        for (const c of node.namedChildren) {
          if (!c) continue;
          const part = this.word(c, scope);
          if (part === undefined) return undefined;
          text += part.text;
          glob ||= part.glob;
        }
        return { text, glob };
      }
      default:
        return undefined;
    }
  }
}

const isRedirect = (n: Node) => n.type === 'file_redirect' || n.type === 'heredoc_redirect' || n.type === 'herestring_redirect';
const join = (dir: string, file: string) => path.posix.normalize(dir === '' ? file : path.posix.join(dir, file));

// --- the programs

/** A set of the words of a text. */
const wordSet = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/**
 * A program that runs another: how many of its arguments come before that one's name (`-1`: the other
 * cannot be told, as with `xargs`), or `undefined` when `name` is not one.
 */
function unwrap(name: string, args: Array<string | undefined>): number | undefined {
  /** the index of the first argument past the options (`withValue` take the next one); -1 at a word nobody can know */
  const pastOptions = (withValue: ReadonlySet<string> = new Set()) => {
    let i = 0;
    while (i < args.length) {
      const a = args[i];
      if (a === undefined) return -1;
      if (a === '--') return i + 1;
      if (!a.startsWith('-') || a === '-') return i;
      i += withValue.has(a) ? 2 : 1;
    }
    return args.length;
  };
  switch (name) {
    case 'sudo':
      return pastOptions(new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U']));
    case 'env': {
      let i = pastOptions(new Set(['-u', '-C', '-S']));
      while (i >= 0 && i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i] ?? '')) i++;
      return i;
    }
    case 'command':
    case 'builtin':
    case 'exec':
    case 'nohup':
    case 'time':
      return pastOptions();
    case 'nice':
      return pastOptions(new Set(['-n']));
    case 'timeout': {
      // its duration, then the command
      const i = pastOptions(new Set(['-s', '-k', '--signal', '--kill-after']));
      return i < 0 ? -1 : Math.min(i + 1, args.length);
    }
    case 'npx':
      return pastOptions(new Set(['-p', '--package', '-c', '--call']));
    case 'xargs':
    case 'eval':
    case 'parallel':
    case 'watch':
      return -1;
    default:
      return undefined;
  }
}

/** What a writer names: each file, how it writes it, and (cp/mv) the sources' names should it be a folder. */
type Named = Array<{ word: Word | undefined; how: WriteHow; into?: Array<string | undefined> }>;
type Writer = (args: Array<Word | undefined>) => Named | 'opaque' | undefined;

/**
 * The operands of a command line: the arguments that are not options, where `withValue` are the short and
 * long options that take the next argument, and a `--` ends the options. Options are returned too, by name.
 */
function operandsOf(
  args: Array<Word | undefined>,
  withValue: ReadonlySet<string> = new Set(),
): { operands: Array<Word | undefined>; options: Map<string, string | undefined>; unknown: boolean } {
  const operands: Array<Word | undefined> = [];
  const options = new Map<string, string | undefined>();
  let unknown = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) {
      operands.push(a);
      unknown = true;
      continue;
    }
    if (a.text === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.text.startsWith('-') || a.text === '-') {
      operands.push(a);
      continue;
    }
    const eq = a.text.indexOf('=');
    if (a.text.startsWith('--') && eq > 0) options.set(a.text.slice(0, eq), a.text.slice(eq + 1));
    else if (withValue.has(a.text)) {
      options.set(a.text, args[i + 1]?.text);
      i++;
    } else if (!a.text.startsWith('--') && a.text.length > 2 && withValue.has(a.text.slice(0, 2))) {
      options.set(a.text.slice(0, 2), a.text.slice(2));
    } else {
      options.set(a.text, undefined);
      // a cluster of short flags: each counts (`-rf`)
      if (!a.text.startsWith('--')) for (const c of a.text.slice(1)) options.set(`-${c}`, undefined);
    }
  }
  return { operands, options, unknown };
}

const basenameOf = (w: Word | undefined) => (w === undefined || w.glob ? undefined : path.posix.basename(w.text));

/** `cp`, `mv`, `install`: onto a file, into a folder (`-t`), or onto what may be either. */
function copyLike(args: Array<Word | undefined>, withValue: string[], moves: boolean): Named {
  const { operands, options } = operandsOf(args, new Set(['-t', '--target-directory', '-S', '--suffix', ...withValue]));
  const dir = options.get('-t') ?? options.get('--target-directory');
  const named: Named = [];
  if (dir !== undefined) {
    if (moves) for (const src of operands) named.push({ word: src, how: 'delete' });
    for (const src of operands) {
      const base = basenameOf(src);
      named.push({ word: base === undefined ? undefined : { text: `${dir}/${base}`, glob: false }, how: 'overwrite' });
    }
    return named;
  }
  if (operands.length < 2) return named;
  const sources = operands.slice(0, -1);
  if (moves) for (const src of sources) named.push({ word: src, how: 'delete' });
  const dest = operands[operands.length - 1];
  named.push(options.has('-T') ? { word: dest, how: 'overwrite' } : { word: dest, how: 'overwrite', into: sources.map(basenameOf) });
  return named;
}

/** `sed -i`, `perl -i`, `ruby -i`: each file after the script, when the option to edit in place is there. */
function inPlaceEditor(
  args: Array<Word | undefined>,
  spec: { script: string; scriptFile?: string; rest: string; next: string; longInPlace?: string; bsdSuffix?: boolean },
): Named | undefined {
  let inPlace = false;
  let hasScript = false;
  const operands: Array<Word | undefined> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined || a.text === '-' || !a.text.startsWith('-')) {
      operands.push(a);
      continue;
    }
    const t = a.text;
    if (t === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (t.startsWith('--')) {
      if (spec.longInPlace && (t === spec.longInPlace || t.startsWith(`${spec.longInPlace}=`))) inPlace = true;
      else if (t === '--expression' || t === '--file') {
        hasScript = true;
        i++;
      } else if (t.startsWith('--expression=') || t.startsWith('--file=')) hasScript = true;
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k];
      const attached = t.slice(k + 1);
      if (c === 'i') {
        inPlace = true;
        // BSD sed's suffix is its own argument, empty for none: `sed -i '' 's/a/b/' F`
        if (spec.bsdSuffix && attached === '' && args[i + 1]?.text === '') i++;
        break;
      }
      if (spec.script.includes(c) || spec.scriptFile?.includes(c)) {
        hasScript = true;
        if (attached === '') i++;
        break;
      }
      if (spec.next.includes(c)) {
        if (attached === '') i++;
        break;
      }
      if (spec.rest.includes(c)) break;
    }
  }
  if (!inPlace) return undefined;
  const files = hasScript ? operands : operands.slice(1);
  return files.map((word) => ({ word, how: 'in-place' as const }));
}

const WRITERS: Record<string, Writer> = {
  tee: (args) => {
    const { operands, options } = operandsOf(args);
    const how = options.has('-a') || options.has('--append') ? 'append' : 'overwrite';
    return operands.map((word) => ({ word, how }));
  },
  sed: (args) => inPlaceEditor(args, { script: 'e', scriptFile: 'f', next: 'l', rest: '', longInPlace: '--in-place', bsdSuffix: true }),
  perl: (args) => inPlaceEditor(args, { script: 'eE', next: '', rest: 'IMmFClx0d' }),
  ruby: (args) => inPlaceEditor(args, { script: 'e', next: 'rIC', rest: 'x0' }),
  prettier: (args) => {
    const { operands, options } = operandsOf(args, PRETTIER_WITH_VALUE);
    if (!options.has('--write') && !options.has('-w')) return undefined;
    return operands.map((word) => ({ word, how: 'in-place' as const }));
  },
  gofmt: (args) => {
    const { operands, options } = operandsOf(args, new Set(['-r']));
    return options.has('-w') ? operands.map((word) => ({ word, how: 'in-place' as const })) : undefined;
  },
  cp: (args) => copyLike(args, [], false),
  install: (args) => {
    const { options } = operandsOf(args, new Set(['-m', '-o', '-g', '-t', '-S']));
    // `install -d`: folders, no file's text
    return options.has('-d') || options.has('--directory')
      ? undefined
      : copyLike(args, ['-m', '-o', '-g', '--mode', '--owner', '--group'], false);
  },
  mv: (args) => copyLike(args, [], true),
  rm: (args) => operandsOf(args).operands.map((word) => ({ word, how: 'delete' as const })),
  unlink: (args) => operandsOf(args).operands.map((word) => ({ word, how: 'delete' as const })),
  truncate: (args) =>
    operandsOf(args, new Set(['-s', '--size', '-r', '--reference'])).operands.map((word) => ({ word, how: 'in-place' as const })),
  sort: (args) => {
    const { options } = operandsOf(args, new Set(['-o', '--output', '-k', '-t', '-S', '-T', '--key', '--field-separator']));
    const out = options.get('-o') ?? options.get('--output');
    return out === undefined ? undefined : [{ word: { text: out, glob: false }, how: 'overwrite' }];
  },
  dd: (args) => {
    const of = args.find((a) => a === undefined || a.text.startsWith('of='));
    if (of === undefined) return args.some((a) => a === undefined) ? 'opaque' : undefined;
    const notrunc = args.some((a) => a !== undefined && /^conv=.*\bnotrunc\b/.test(a.text));
    return [{ word: of === undefined ? of : { text: of.text.slice(3), glob: of.glob }, how: notrunc ? 'in-place' : 'overwrite' }];
  },
  git: (args) => gitWrites(args),
};

const PRETTIER_WITH_VALUE = new Set([
  '--config',
  '--parser',
  '--plugin',
  '--ignore-path',
  '--log-level',
  '--cache-location',
  '--cache-strategy',
  '--stdin-filepath',
  '--print-width',
  '--tab-width',
  '--trailing-comma',
  '--end-of-line',
  '--quote-props',
  '--arrow-parens',
  '--prose-wrap',
  '--config-precedence',
]);

/** Git's commands that put files of the work tree back (`checkout -- F`, `restore F`), delete (`rm`) or move (`mv`) them. */
function gitWrites(args: Array<Word | undefined>): Named | 'opaque' | undefined {
  let i = 0;
  let dir: Word | undefined = { text: '', glob: false };
  // git's own options before its command; `-C DIR` moves where the paths are read
  while (i < args.length && args[i]?.text.startsWith('-')) {
    const a = args[i]?.text;
    if (a === '-C') dir = args[++i];
    else if (a === '-c') i++;
    i++;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  const at = (named: Named): Named =>
    dir?.text === ''
      ? named
      : named.map((n) => ({ ...n, word: dir && n.word ? { ...n.word, text: path.posix.join(dir.text, n.word.text) } : undefined }));
  if (dir === undefined) return 'opaque';
  switch (sub) {
    case 'checkout': {
      const dashes = rest.findIndex((a) => a?.text === '--');
      if (dashes < 0) return 'opaque'; // a branch switch, or paths git may take for one
      return at(rest.slice(dashes + 1).map((word) => ({ word, how: 'overwrite' as const })));
    }
    case 'restore': {
      const { operands, options } = operandsOf(rest, new Set(['-s', '--source']));
      const staged = options.has('-S') || options.has('--staged');
      const worktree = options.has('-W') || options.has('--worktree');
      if (staged && !worktree) return undefined;
      return at(operands.map((word) => ({ word, how: 'overwrite' as const })));
    }
    case 'rm': {
      const { operands, options } = operandsOf(rest);
      if (options.has('--cached')) return undefined;
      return at(operands.map((word) => ({ word, how: 'delete' as const })));
    }
    case 'mv':
      return at(copyLike(rest, [], true));
    default:
      return sub !== undefined && GIT_WRITES_NOTHING.has(sub) ? undefined : 'opaque';
  }
}

const GIT_WRITES_NOTHING = wordSet(`
  status diff log show branch rev-parse ls-files grep blame remote describe shortlog
  tag config add commit fetch reflog cat-file ls-tree help version
`);

/** The shells whose `-c` string is read as a command of its own. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
/** `find` writes through these; without them it only lists. */
const FIND_WRITES = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);

/**
 * Programs that change no file's text, but for the redirections the walk reads anyway: a command of
 * these alone is not opaque. `touch` and `mkdir` make empty files and folders, which lose nothing.
 */
const WRITES_NOTHING = wordSet(`
  cat nl head tail less more grep egrep fgrep rg ag ls tree echo printf pwd wc sort uniq cut tr diff
  cmp comm test [ [[ true false : which type stat file du df date whoami id uname hostname basename
  dirname realpath readlink export set unset local declare read sleep jq awk sed column fold fmt od
  xxd hexdump md5sum sha1sum sha256sum shasum touch mkdir seq yes rev expand unexpand paste join split
  strings ps printenv history exit return source shopt trap wait kill jobs fg bg alias chmod
  apply_patch applypatch
`);

// --- the reads the gate counts

/**
 * The file a command shows whole, when the command is nothing but one of the plain reads of `readOfWords`
 * (one command, or one piped into a filter) with words that are plain or quoted: no redirection, no
 * variable, no glob, no `~`, no substitution.
 */
function readOf(root: Node): string | undefined {
  const statements = root.namedChildren.filter((c) => c !== null && c.type !== 'comment');
  if (statements.length !== 1) return undefined;
  const top = statements[0] as Node;
  const commands = top.type === 'pipeline' ? top.namedChildren : [top];
  if (commands.length > 2) return undefined;
  const words: string[][] = [];
  for (const c of commands) {
    if (!c || c.type !== 'command') return undefined;
    const ws: string[] = [];
    for (const part of c.namedChildren) {
      const w = part ? plainWord(part.type === 'command_name' ? (part.firstNamedChild ?? part) : part) : undefined;
      if (w === undefined) return undefined;
      ws.push(w);
    }
    words.push(ws);
  }
  // `|&` sends errors along too: not one of the filters
  if (top.type === 'pipeline' && top.children.some((c) => c?.type === '|&')) return undefined;
  return readOfWords(words[0], words[1]);
}

/** A word whose text is what bash passes, with nothing to expand: a bare word of plain characters, or a quoted one. */
function plainWord(node: Node): string | undefined {
  if (node.type === 'word') return /^[A-Za-z0-9_./@%+=:,-]+$/.test(node.text) ? node.text : undefined;
  if (node.type === 'raw_string') return node.text.length > 2 ? node.text.slice(1, -1) : undefined;
  if (node.type === 'string') {
    const parts = node.namedChildren;
    if (parts.length !== 1 || parts[0]?.type !== 'string_content' || /[\\$`]/.test(parts[0].text)) return undefined;
    return parts[0].text;
  }
  if (node.type === 'number') return node.text;
  return undefined;
}

/**
 * The file of one of these plain reads of ONE file, optionally piped into one of `head [-n N | -N]`,
 * `tail [-n [+]N | -N]` or `sed -n 'L,Mp'` (so `nl -ba F | sed -n '1,120p'`, Codex's usual read, counts):
 *
 *   cat [-n] F                    nl [-ba | -b a] F
 *   sed -n 'Lp' F                 sed -n 'L,Mp' F            (L a line number; M one or `$`)
 *   head [-n N | -N] F            tail [-n [+]N | -N] F
 *
 * A read marks the file's whole text, whatever lines it showed (rule 1). Why so strict: a command taken for
 * a read that showed something else would stamp a mark the model has not earned, and so let a stale write
 * through; a read missed costs at most a refusal that shows the file (rule 6).
 */
export function readOfWords(source: string[], filter?: string[]): string | undefined {
  if (filter !== undefined && !isFilter(filter)) return undefined;
  const [cmd, ...args] = source;
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
