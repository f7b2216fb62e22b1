// The docs cannot drift from the code: every repository path and every name that looks like code
// (`fooBar`, `FooBar.baz`, `editGuard.readKeepsMark`, `src/…`, `gate.ts`) written between backticks in docs/*.md,
// README.md and CONTRIBUTING.md exists in the tree — a path as a file or folder, a name in the source (ours, or VS
// Code's API). A dotted name is read whole, never by its last segment alone: an `editGuard.…` id must be one the
// manifest or the source declares (a setting, command, view, the status bar item), a `Class.member` a member of
// that class, any other `a.b` written so in the source. Names that are neither ours nor VS Code's (other agents'
// settings and tools) are listed below, each with where it comes from. The two research notes (`RESEARCH`) quote
// the internals of Copilot Chat's and VS Code's bundles they were read from: their paths are checked, their code
// names not. The same holds for the code's own comments: every `.ts` or `.mjs` file a comment names exists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** Names the docs quote that belong to other programs, by where they come from. */
const NOT_OURS: Record<string, readonly string[]> = {
  'Copilot Chat (its tools, settings, internals)': [
    'read_file',
    'replace_string_in_file',
    'multi_replace_string_in_file',
    'insert_edit_into_file',
    'create_file',
    'apply_patch',
    'run_in_terminal',
    'chatRequestId',
    'toolInvocationToken',
    'sessionResource',
    'sessionId',
    'executeHook',
    'BudgetExceededError',
    'chat.hookFilesLocations',
    'chat.useHooks',
    'chat.useClaudeHooks',
    'chat.saveBeforeSend',
    'chat.defaultToCopilotHarness',
    'chat.hooks.allowManagedOnly',
    'chat.agentHost.unsafeTestToken',
    'github.copilot.chat.summarizeAgentConversationHistory.enabled',
    'github.copilot.chat.backgroundCompaction',
    'request.prompt',
    '_prepareEdits',
  ],
  "other agents' files and fields": [
    'session_id',
    'tool_use_id',
    'transcript_path',
    'prompt_id',
    'turn_id',
    'hook_event_name',
    'tool_name',
    'tool_input',
    'trusted_hash',
    'trust_level',
    'permissionDecision',
    'permissionDecisionReason',
    'hookSpecificOutput',
    'CLAUDE_CONFIG_DIR',
    'CODEX_HOME',
    'hooksConfig.enabled',
  ],
  "VS Code's manifest fields": ['engines.vscode'],
};
const notOurs = new Set(Object.values(NOT_OURS).flat());

/** What the names may come from: our source, tests, scripts and the manifest, file by file, and VS Code's API types. */
interface Sources {
  /** each file's text, by its path (VS Code's API types among them) */
  readonly files: ReadonlyMap<string, string>;
  /** all of them, one text */
  readonly code: string;
  /** every `editGuard.…` id the manifest or the source declares: settings, commands, views, the status bar item */
  readonly ids: ReadonlySet<string>;
  /**
   * The files that declare something, without their comments: a member named only in a comment is not there,
   * and a comment's `;` ends nothing.
   */
  readonly declarations: readonly string[];
}

function sources(): Sources {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      // this file's own samples of stale names are not the code
      else if (/\.(ts|js|mjs|sh|json)$/.test(e.name) && e.name !== 'docsNames.test.ts')
        files.set(path.relative(root, p), fs.readFileSync(p, 'utf8'));
    }
  };
  for (const d of ['src', 'test', 'bench', 'scripts', 'agents']) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  const manifest = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
  files.set('package.json', manifest);
  files.set('@types/vscode', fs.readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8'));
  // an id is declared where it is written whole: a key or value of the manifest, or a string literal in src/
  const ids = new Set<string>();
  for (const [, id] of manifest.matchAll(/"(editGuard\.[\w.]+)"/g)) ids.add(id);
  for (const [file, text] of files) {
    if (file.startsWith(`src${path.sep}`)) for (const [, id] of text.matchAll(/['"`](editGuard\.[\w.]+)['"`]/g)) ids.add(id);
  }
  const declarations = [...files.values()]
    .filter((text) => /\b(class|interface|enum|namespace|type)\s/.test(text))
    .map((text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1'));
  return { files, code: [...files.values()].join('\n'), ids, declarations };
}

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text of each declaration of `name`: a class, interface, enum or namespace to its closing brace, a type or
 * object to its closing semicolon (a union type with all its members).
 */
function bodiesOf(name: string, src: Sources): string[] {
  const bodies: string[] = [];
  const declaration = new RegExp(`\\b(class|interface|enum|namespace|type|const|let)\\s+${name}\\b`, 'g');
  for (const text of src.declarations) {
    for (const m of text.matchAll(declaration)) {
      const toSemicolon = ['type', 'const', 'let'].includes(m[1]);
      let depth = 0;
      let end = m.index;
      for (; end < text.length; end++) {
        if (text[end] === '{') depth++;
        else if (text[end] === '}' && --depth === 0 && !toSemicolon) break;
        else if (text[end] === ';' && depth === 0 && toSemicolon) break;
      }
      bodies.push(text.slice(m.index, end + 1));
    }
  }
  return bodies;
}

/**
 * Whether a dotted name is what the code holds, read whole: `editGuard.…` a declared id (a `<placeholder>` or
 * `*` stands for any segment), `Class.member` a member of that class (or interface, type, namespace), and any
 * other `a.b.c` as written in the source.
 */
function dottedNameExists(name: string, src: Sources): boolean {
  const pattern = escape(name)
    .replace(/\*/g, '[\\w.]*')
    .replace(/<[^>]+>/g, '\\w+');
  if (name.startsWith('editGuard.')) return [...src.ids].some((id) => new RegExp(`^${pattern}$`).test(id));
  const [first, member] = name.split('.');
  if (/^[A-Z]/.test(first)) {
    const bodies = bodiesOf(first, src);
    if (bodies.length > 0) return bodies.some((b) => new RegExp(`\\b${member}\\b`).test(b));
  }
  return new RegExp(`(?<![\\w])${pattern}(?![\\w])`).test(src.code);
}

/** Every file and folder of the repository (but the generated and installed ones), relative. */
function tree(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', '.git', 'out', 'dist', '.runs', '.host'].includes(e.name)) continue;
      const rel = path.relative(root, path.join(dir, e.name)).split(path.sep).join('/');
      out.push(e.isDirectory() ? `${rel}/` : rel);
      if (e.isDirectory()) walk(path.join(dir, e.name));
    }
  };
  walk(root);
  return out;
}

/** Notes that quote other programs' internals by their own names. */
const RESEARCH = new Set(['docs/compaction.md', 'docs/research-guard-by-default.md']);

const DOCS = () => [
  'README.md',
  'CONTRIBUTING.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** A backticked span that names a path of ours: a top folder of the repo, or a file with one of our extensions. */
const looksLikePath = (s: string) =>
  /^(src|test|docs|scripts|bench|media|agents|l10n|demo)\//.test(s) || /^[\w./<>*-]+\.(ts|mjs|md)$/.test(s);
/** A backticked span that names code: camelCase, PascalCase with a member, or a call. */
const looksLikeCode = (s: string) =>
  /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*(\(\))?$/.test(s) && (/[a-z][A-Z]/.test(s) || /^[A-Z]\w*\.\w/.test(s) || s.endsWith('()'));
/** A dotted name, whole: `editGuard.readKeepsMark`, `Gate.exclusive`, `tool.execute.before`; `<…>` and `*` as placeholders. */
const looksDotted = (s: string) => /^[A-Za-z_][\w<>*]*(\.[A-Za-z_<*][\w<>*]*)+$/.test(s);

/**
 * The names and paths of one doc that are not in the tree: each span between backticks (outside code blocks),
 * a `name: value` span by its name.
 */
function missingIn(doc: string, text: string, src: Sources, files: readonly string[]): string[] {
  const missing: string[] = [];
  for (const [, span] of text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)) {
    const name = span.replace(/\(\)$/, '').replace(/^([\w.<>*]+): .*$/, '$1');
    if (notOurs.has(name) || name.includes(' ')) continue;
    if (looksLikePath(name)) {
      const p = name.replace(/#.*$/, '');
      const pattern = new RegExp(
        `(^|/)${escape(p)
          .replace(/\*/g, '[^/]*')
          .replace(/<[^>]+>/g, '[^/]+')}/?$`,
      );
      if (!files.some((f) => pattern.test(f))) missing.push(`${doc}: path ${span}`);
    } else if (RESEARCH.has(doc)) {
      continue;
    } else if (looksDotted(name)) {
      if (!dottedNameExists(name, src)) missing.push(`${doc}: name ${span}`);
    } else if (looksLikeCode(name) || name.startsWith('editGuard_')) {
      if (!new RegExp(`\\b${name}\\b`).test(src.code)) missing.push(`${doc}: name ${span}`);
    }
  }
  return missing;
}

suite('the docs name only what exists', () => {
  test('every path and every code name in backticks in the README, CONTRIBUTING.md and docs/ exists in the tree, a dotted name whole', () => {
    const files = tree();
    const src = sources();
    const missing = DOCS().flatMap((doc) => missingIn(doc, fs.readFileSync(path.join(root, doc), 'utf8'), src, files));
    assert.deepEqual(missing, [], 'rename them in the doc, or name what they are in NOT_OURS');
  });

  test('the check sees a retired name and a path that is gone', () => {
    assert.ok(looksLikeCode('Gatekeeper.refuse') && looksLikeCode('markSeen') && looksLikeCode('decide()'));
    assert.ok(looksLikePath('src/core/gatekeeper.ts') && looksLikePath('guard.ts'));
    assert.ok(!looksLikeCode('off') && !looksLikePath('~/.claude/settings.json'));
  });

  test('a dotted name is checked whole: a stale setting, command or member fails where its last segment alone would pass', () => {
    const src = sources();
    const sample = [
      'Set `editGuard.readKeepsMark: sameTurn`, run `editGuard.showReadMarks`, open `editGuard.agentEdits`;',
      'each agent has `editGuard.guard<Agent>`; `Gate.exclusive` and `MarkStore.stamp` hold the lock and the marks.',
      'Stale: `editGuardedTools.readKeepsMark: sameTurn`, `editGuard.readMarksKeep`, `editGuard.guard<Agent>Now`,',
      '`Guard.checkCancelled`, `MarkStore.exclusive`, `HookRouter.checkCancelled`, `tool.execute.sideways`.',
    ].join('\n');
    assert.deepEqual(missingIn('sample.md', sample, src, tree()), [
      'sample.md: name editGuardedTools.readKeepsMark: sameTurn',
      'sample.md: name editGuard.readMarksKeep',
      'sample.md: name editGuard.guard<Agent>Now',
      'sample.md: name Guard.checkCancelled',
      'sample.md: name MarkStore.exclusive',
      'sample.md: name HookRouter.checkCancelled',
      'sample.md: name tool.execute.sideways',
    ]);
  });
});

/** Files a comment names that are not ours: the files the tests make in their workspace, and a sample. */
const NOT_IN_TREE = new Set(['src/big.ts', 'src/x/*.ts']);

/** The `.ts` and `.mjs` files the comments of one source file name that are not in the tree (`<x>` and `*` stand for any name). */
function missingInComments(text: string, files: readonly string[]): string[] {
  const missing: string[] = [];
  for (const comment of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"\w])\/\/.*/g)) {
    for (const [, name] of comment[0].matchAll(
      /(?<![\w./<-])((?:(?:[\w.*-]|<[\w-]+>)+\/)*(?:[\w*-]|<[\w-]+>)+(?:\.[\w-]+)*\.(?:ts|mjs))\b/g,
    )) {
      if (NOT_IN_TREE.has(name)) continue;
      const pattern = new RegExp(
        `(^|/)${escape(name.replace(/^\.\//, ''))
          .replace(/\*/g, '[^/]*')
          .replace(/<[^>]+>/g, '[^/]+')}$`,
      );
      if (!files.some((f) => pattern.test(f))) missing.push(name);
    }
  }
  return missing;
}

suite('the comments name only files that exist', () => {
  test('every .ts and .mjs file a comment in src/, test/, bench/ or scripts/ names is in the tree', () => {
    const files = tree();
    const missing = files
      // this file's samples of gone files are not comments of the code
      .filter((f) => /^(src|test|bench|scripts)\/.*\.(ts|mjs|js|sh)$/.test(f) && !f.endsWith('docsNames.test.ts'))
      .flatMap((f) => missingInComments(fs.readFileSync(path.join(root, f), 'utf8'), files).map((name) => `${f}: ${name}`));
    assert.deepEqual(missing, [], 'name the file as it is now, or the thing it holds');
  });

  test('the check sees a file that is gone, in a line comment and in a block comment, and not outside comments', () => {
    const sample = [
      "// our tools' writes (guard.ts) and the hooks (src/hooks/hookRouter.ts)",
      "/** the offer (copilotGuard.ts), each agent's folder (src/agents/<agent>/node/agent.ts) */",
      "const file = 'gone.ts';",
    ].join('\n');
    assert.deepEqual(missingInComments(sample, tree()), ['guard.ts', 'copilotGuard.ts']);
  });
});
