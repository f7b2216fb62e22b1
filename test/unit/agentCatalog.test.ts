// "A new agent is a new folder and one line in the list of agents" (docs/design.md §Layers), proved on a
// scratch copy of the repository: a made-up agent's folder (its descriptor and its words, docs.ts), its
// line in src/agents/catalog.ts (with its import) and its section in docs/agents.md — what CONTRIBUTING.md
// asks of a new agent — then `npm run generate`, and nothing else. The generator first finds the copy
// stale, naming itself; once it ran, the copy passes the manifest's, the generated files' and the docs'
// unit tests, `tsc` (the extension's project and the plain-Node one), and the lint of src/agents (the
// layers' rule: an agent imports only the shared levels) and of the generated files' format. Built as the
// extension builds it (esbuild), the copy gives the agent a setting, a command and its global-state keys; its hook events are
// routed to its own reader and gated; the uninstall script takes its user-level entries out. The window
// side needs no file of the agent's: the same registration (src/agents/registration.ts) makes every
// agent's command, offer and quick-pick line.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '../../..');

/** The made-up agent: its hook events are `{event, chat, file}`, and its entries one JSON file in `~/.scratch`. */
const SCRATCH_AGENT = `import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { denyPreToolUse, type AgentHooks, type HookEvent, record, str } from '../../../hooks/event';

const userFile = (home = os.homedir()) => path.join(home, '.scratch', 'hooks.json');

const hooks: AgentHooks = {
  id: 'scratch',
  name: 'Scratch',
  writesDisk: true,
  ownChats: true,
  toolNames: ['edit'],
  parse(payload: unknown): HookEvent {
    const p = record(payload);
    const chat = str(p?.chat);
    const file = str(p?.file);
    if (!chat || !file) return { kind: 'ignore', why: 'not ours' };
    return p?.event === 'before-edit'
      ? { kind: 'before-edit', chat, tool: 'edit', files: [{ path: file, intent: 'change' }] }
      : { kind: 'ignore', why: 'other', chat };
  },
  verb: () => 'edit',
  deny: denyPreToolUse,
};

export const scratch: AgentDescriptor = {
  hooks,
  guarded: "Scratch's edits",
  setting: 'guardScratch',
  entries: {
    userFiles: () => [userFile()],
    folderFile: '.scratch/hooks.json',
    sync: async () => [],
    removeUserLevel: (log, home) => {
      fs.rmSync(userFile(home), { force: true });
      log.info('removed Scratch entries');
    },
  },
};
`;

/** Its words, for the manifest and the docs. */
const SCRATCH_DOCS = `import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { scratch } from './agent';

export const docs: AgentDocs = {
  agent: scratch,
  row: { name: 'Scratch', how: 'hooks in its file', guarded: 'yes · yes · yes · counted · —', proof: '\`test/unit/agentCatalog.test.ts\`' },
  setting: {
    description: "Put the same gate in front of **Scratch's** edits, through its hooks.",
    placements: {
      off: 'No entries of ours in its file.',
      user: 'Our entries in \`~/.scratch/hooks.json\`.',
      workspace: "Our entries in each workspace folder's \`.scratch/hooks.json\`.",
    },
    section: 'Guarding Scratch',
    turnOn: { name: '**Scratch**', offered: 'where Scratch is used', writes: 'It adds its hook entries to \`~/.scratch/hooks.json\`.' },
    summary: "Put the gate's hook entries into Scratch's file.",
  },
};
`;

/** Its section in docs/agents.md, which the README's bullet and row link to. */
const SCRATCH_SECTION = `
## Guarding Scratch

Scratch is made up: test/unit/agentCatalog.test.ts adds it to a copy of the repository.
`;

/** What the repository's copy holds: all of it but what is built, run or installed (node_modules is linked). */
const NOT_COPIED = new Set(['.git', 'node_modules', 'out', 'dist', '.runs', '.host', 'bench/tmp']);

/** The files `npm run generate` writes. */
const GENERATED = ['package.json', 'package.nls.json', 'README.md', 'docs/agents.md', 'docs/settings.md'];
/** The unit tests that check the manifest, the generated files and the docs, run on the copy. */
const CHECKS = ['manifest.test.ts', 'referenceTables.test.ts', 'docs.test.ts'];
/**
 * Left out of them: the .vsix's file list (vsce, slow, and nothing of an agent's), and the paths docs/design.md
 * names (its text is written by hand, and an agent's folder adds none; its rows for every folder of src/ are checked).
 */
const NOT_CHECKED = '^package |every path it names exists';

/** A process's exit code and output, without blocking this one (the checks run side by side). */
const run = (command: string, args: string[], cwd: string) =>
  new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });

/** What the test reads from the scratch build: the tables, a routed hook event, the script's path. */
const PROBE = `import { AGENTS, agentCommands, agentStateKeys, allSettings } from './src/agents/catalog';
import { ChatSessions } from './src/chat/session';
import { ExternalEdits } from './src/core/externalEdits';
import { Gate } from './src/core/gate';
import { MarkStore } from './src/core/marks';
import { HookRouter } from './src/hooks/hookRouter';
import { MemoryDocuments, MemoryLog } from './test/unit/memoryDocuments';
import { readyShellLevel } from './src/shell';

export async function probe() {
  const docs = new MemoryDocuments();
  docs.file('file:///ws/notes.txt', 'the user notes\\n');
  const log = new MemoryLog();
  const gate = new Gate(new MarkStore(), docs, () => ({ enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000 }), log);
  const router = new HookRouter({
    shell: () => readyShellLevel(),
    edits: new ExternalEdits(gate),
    sessions: new ChatSessions((p) => p.path),
    log,
    agents: new Map(AGENTS.map((a) => [a.hooks.id, a.hooks])),
    active: () => true,
    onActivity: () => undefined,
    resolveFile: (p) => ({ uri: 'file:///ws/' + p, path: p }),
  });
  const answer = await router.handle('scratch', JSON.stringify({ event: 'before-edit', chat: 'c1', file: 'notes.txt' }));
  return { settings: Object.keys(allSettings()), commands: agentCommands(), stateKeys: agentStateKeys(), answer };
}
`;

suite('a new agent: its folder, its line in the list of agents and its docs section; the rest is generated', function () {
  // a copy of the repository, the generator, three test files and two tsc projects on it
  this.timeout(240_000);

  test('the scratch agent gets a setting, a command, docs, state keys, a hook route through the gate, and its uninstall; the copy passes the checks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-agent-'));
    try {
      fs.cpSync(root, dir, {
        recursive: true,
        filter: (from) => !NOT_COPIED.has(path.relative(root, from).split(path.sep).join('/')),
      });
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      // the agent: one folder …
      const folder = path.join(dir, 'src', 'agents', 'scratch', 'node');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'agent.ts'), SCRATCH_AGENT);
      fs.writeFileSync(path.join(folder, 'docs.ts'), SCRATCH_DOCS);
      // … its line in the list (with the import that names it) …
      const catalogFile = path.join(dir, 'src', 'agents', 'catalog.ts');
      const catalog = fs.readFileSync(catalogFile, 'utf8');
      const listed = catalog
        .replace(/^(import \{ copilotHarness \} from .*)$/m, "$1\nimport { scratch } from './scratch/node/agent';")
        .replace(/^(export const AGENTS: readonly AgentDescriptor\[\] = \[\n)/m, '$1  scratch,\n');
      assert.notEqual(listed, catalog, 'the list of agents is where the test expects it');
      fs.writeFileSync(catalogFile, listed);
      // … and its section in docs/agents.md
      fs.appendFileSync(path.join(dir, 'docs', 'agents.md'), SCRATCH_SECTION);

      // the generated files are stale, and the check says what to run; then the generator writes them
      const generator = path.join(dir, 'scripts', 'generate.mjs');
      const stale = spawnSync(process.execPath, [generator, '--check'], { cwd: dir, encoding: 'utf8' });
      assert.equal(stale.status, 1, stale.stderr);
      for (const file of GENERATED) assert.ok(stale.stderr.includes(`${file} differs`), `${file} is stale: ${stale.stderr}`);
      assert.match(stale.stderr, /run `npm run generate`/);
      const generated = spawnSync(process.execPath, [generator], { cwd: dir, encoding: 'utf8' });
      assert.equal(generated.status, 0, generated.stderr);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const nls = JSON.parse(fs.readFileSync(path.join(dir, 'package.nls.json'), 'utf8'));
      assert.equal(manifest.contributes.configuration.properties['editGuard.guardScratch'].default, 'off');
      assert.equal(nls['command.guardScratch'], "Guard Scratch's Edits…");
      assert.match(
        fs.readFileSync(path.join(dir, 'README.md'), 'utf8'),
        /^- \*\*Scratch\*\* — .*\[More\]\(docs\/agents\.md#guarding-scratch\)$/m,
      );

      // the checks, on the copy: the unit tests of the manifest, the generated files and the docs, and tsc
      fs.writeFileSync(path.join(dir, 'probe.ts'), PROBE);
      const common = {
        bundle: true,
        platform: 'node' as const,
        format: 'cjs' as const,
        target: 'node20',
        logLevel: 'silent' as const,
        absWorkingDir: dir,
      };
      buildSync({
        ...common,
        entryPoints: CHECKS.map((f) => `test/unit/${f}`),
        outdir: path.join(dir, 'out', 'test', 'unit'),
        external: ['mocha', 'esbuild'],
      });
      const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
      const eslint = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
      const prettier = path.join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
      const checks = await Promise.all([
        run(
          process.execPath,
          [
            mocha,
            '--no-config',
            '--ui',
            'tdd',
            '--reporter',
            'dot',
            '--grep',
            NOT_CHECKED,
            '--invert',
            ...CHECKS.map((f) => `out/test/unit/${f.replace(/\.ts$/, '.js')}`),
          ],
          dir,
        ),
        run(process.execPath, [tsc, '-p', '.'], dir),
        run(process.execPath, [tsc, '-p', 'tsconfig.plain.json'], dir),
        // the lint of what the agent brought and what was generated: its imports by the layers' rule, and the format
        run(process.execPath, [eslint, 'src/agents'], dir),
        run(process.execPath, [prettier, '--check', 'src/agents', ...GENERATED], dir),
      ]);
      const names = ['the unit tests', 'tsc -p .', 'tsc -p tsconfig.plain.json', 'eslint src/agents', 'prettier --check'];
      for (const [i, check] of checks.entries()) assert.equal(check.status, 0, `${names[i]}:\n${check.output}`);
      assert.match(checks[0].output, /\d+ passing/);

      buildSync({ ...common, entryPoints: ['probe.ts'], outfile: path.join(dir, 'out', 'probe.js') });
      buildSync({ ...common, entryPoints: ['src/uninstall.ts'], outfile: path.join(dir, 'out', 'uninstall.js') });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { probe } = require(path.join(dir, 'out', 'probe.js')) as {
        probe(): Promise<{ settings: string[]; commands: string[]; stateKeys: string[]; answer: string }>;
      };
      const got = await probe();
      assert.ok(got.settings.includes('guardScratch'), `its setting: ${got.settings.join(', ')}`);
      assert.ok(got.commands.includes('editGuard.guardScratch'), `its command: ${got.commands.join(', ')}`);
      assert.ok(got.stateKeys.includes('editGuard.guardScratch.offer'), `its offer's state: ${got.stateKeys.join(', ')}`);
      // its hook events reach its reader and the gate: an edit of a file it never read is denied, with the file's text
      const reason = JSON.parse(got.answer).hookSpecificOutput.permissionDecisionReason as string;
      assert.match(reason, /BLOCKED: nothing was written\. You have not read notes\.txt/);
      assert.match(reason, /the user notes/);

      // the uninstall script takes its user-level entries out
      const home = path.join(dir, 'home');
      fs.mkdirSync(path.join(home, '.scratch'), { recursive: true });
      fs.writeFileSync(path.join(home, '.scratch', 'hooks.json'), '{}');
      const uninstall = spawnSync(process.execPath, [path.join(dir, 'out', 'uninstall.js')], {
        env: { ...process.env, HOME: home, USERPROFILE: home },
        encoding: 'utf8',
      });
      assert.equal(uninstall.status, 0, uninstall.stderr);
      assert.ok(!fs.existsSync(path.join(home, '.scratch', 'hooks.json')), uninstall.stdout);
      assert.match(uninstall.stdout, /removed Scratch entries/);

      // and the window needs nothing of its own: no file outside the agent's folder names an agent by hand
      const registration =
        fs.readFileSync(path.join(dir, 'src', 'activation', 'agents.ts'), 'utf8') +
        fs.readFileSync(path.join(dir, 'src', 'extension.ts'), 'utf8');
      for (const agent of ['copilot', 'claudeCode', 'codex', 'scratch'])
        assert.doesNotMatch(registration, new RegExp(`agents/${agent}/`), `${agent} named outside the list`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
