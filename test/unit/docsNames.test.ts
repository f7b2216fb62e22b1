// The docs cannot drift from the code: every repository path and every name that looks like code
// (`fooBar`, `FooBar.baz`, `src/…`, `gate.ts`) written between backticks in docs/*.md, README.md and
// CONTRIBUTING.md exists in the tree — a path as a file or folder, a name in the source (ours, or VS
// Code's API). Names that are neither ours nor VS Code's (other agents' settings and tools) are listed
// below, each with where it comes from. The two research notes (`RESEARCH`) quote the internals of
// Copilot Chat's and VS Code's bundles they were read from: their paths are checked, their code names not.
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
  ],
};
const notOurs = new Set(Object.values(NOT_OURS).flat());

/** The text the names may come from: our source, tests, scripts, the manifest, and VS Code's API types. */
function corpus(): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|sh|json)$/.test(e.name)) parts.push(fs.readFileSync(p, 'utf8'));
    }
  };
  for (const d of ['src', 'test', 'bench', 'scripts', 'agents']) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  parts.push(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  parts.push(fs.readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8'));
  return parts.join('\n');
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

suite('the docs name only what exists', () => {
  test('every path and every code name in backticks in the README, CONTRIBUTING.md and docs/ exists in the tree', () => {
    const files = tree();
    const code = corpus();
    const missing: string[] = [];
    for (const doc of DOCS()) {
      const text = fs.readFileSync(path.join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
        const name = span.replace(/\(\)$/, '');
        if (notOurs.has(name) || name.startsWith('editGuard.') || name.startsWith('editGuard_')) continue;
        if (span.includes(' ')) continue;
        if (looksLikePath(span)) {
          const p = span.replace(/#.*$/, '');
          const pattern = new RegExp(
            `(^|/)${p
              .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/<[^>]+>/g, '[^/]+')}/?$`,
          );
          if (!files.some((f) => pattern.test(f))) missing.push(`${doc}: path ${span}`);
        } else if (looksLikeCode(span) && !RESEARCH.has(doc)) {
          // a member is found by its last name (`Gate.exclusive`: `exclusive`), a plain name as itself
          const last = name.split('.').at(-1)!;
          if (!new RegExp(`\\b${last}\\b`).test(code)) missing.push(`${doc}: name ${span}`);
        }
      }
    }
    assert.deepEqual(missing, [], 'rename them in the doc, or name what they are in NOT_OURS');
  });

  test('the check sees a retired name and a path that is gone', () => {
    assert.ok(looksLikeCode('Gatekeeper.refuse') && looksLikeCode('markSeen') && looksLikeCode('decide()'));
    assert.ok(looksLikePath('src/core/gatekeeper.ts') && looksLikePath('guard.ts'));
    assert.ok(!looksLikeCode('off') && !looksLikePath('~/.claude/settings.json'));
  });
});
