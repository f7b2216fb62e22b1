// The failure sequences the field's trackers document, and the false alarms users complain of, as
// scripts for one scripted agent (scriptedAgent.ts). Each scenario is the same script in every
// configuration (configurations.ts); only the tools the acts become differ. `intended` is what the
// files must hold byte for byte when nothing is lost: the agent's change and every change made by
// the user or another program.
import { appendSection, changeLine, changeLines, createFile, type Intent } from './edits';
import type { ScenarioKind } from './table';

/** Something outside the agent: the user, a formatter, the file system. */
export interface World {
  /** the scenario's file, opened in an editor tab (as the user has it) */
  open(rel: string): Promise<import('vscode').TextDocument>;
  /** the user's typing in the editor, unsaved: the first `search` becomes `replacement` */
  type(rel: string, search: string, replacement: string): Promise<void>;
  /** the user saves the file (Ctrl+S) */
  save(rel: string): Promise<void>;
  /** a formatter rewrites the document (one edit of the whole text, as Format Document does) and the file is saved */
  format(rel: string, text: string): Promise<void>;
  /** another program touches the file: its modification time moves, its bytes do not */
  touch(rel: string): Promise<void>;
  /** another program adds `text` at the end of the file on disk (a generator, a tool run by the user, another agent) */
  append(rel: string, text: string): Promise<void>;
  /** a script is in the workspace: `text` written straight to the disk (the user's, or a step's before the agent's) */
  script(rel: string, text: string): Promise<void>;
}

export type Act =
  /** the agent reads the file (its copy becomes what the read showed) */
  | { read: string }
  /** the agent edits the file from its copy */
  | { edit: string; intent: Intent }
  /** one model response with several edit calls, all made from the copies as they are (a parallel batch) */
  | { together: Array<{ edit: string; intent: Intent }> }
  /** one patch over several files (apply_patch; the guarded tools have no patch: one call per file, in one response) */
  | { patch: Array<{ edit: string; intent: Intent }> }
  /**
   * the agent rewrites the whole file through its shell tool (`cat > F <<'EOF'` … `EOF`): its copy with the intent's
   * change, every line of it in the command (Configuration.shell)
   */
  | { shell: string; intent: Intent }
  /**
   * the agent runs the workspace's script `script` through its shell, `sh '<script>'` (Configuration.run): a program
   * the gate cannot see through (docs/design.md rule 16), so it runs unchecked but watched. It changes `changes` on
   * disk, which holds the line `line` once it ran.
   */
  | { script: string; changes: string; line: string }
  /**
   * a call the agent's own tool refuses by itself, though the gate lets it through (the agent's copy is current):
   * `quote` → `replacement` where `quote` stands more than once, or, for an agent whose tool makes only new files,
   * that change as a create of the file that exists (Configuration.slip)
   */
  | { slip: string; quote: string; replacement: string }
  /** the agent believes the file holds `text` without having read it (a copy from memory, or a guess) */
  | { assume: string; text: string }
  /** the agent's context is summarised: its copy of the file goes back to what it read first */
  | { summarize: string }
  /** reads of a large file that overflow the small model's context, so Copilot compacts the conversation */
  | { overflow: true }
  /** something outside the agent happens; at the start of a turn, before the request is sent */
  | { world: (w: World) => Promise<void> };

/** The world's acts that open a turn happen before its request is sent: done here; the turn's other acts are returned. */
export async function beforeTheRequest(acts: Act[], world: World): Promise<Act[]> {
  let i = 0;
  for (; i < acts.length; i++) {
    const act = acts[i];
    if (!('world' in act)) break;
    await act.world(world);
  }
  return acts.slice(i);
}

export interface ScenarioFile {
  rel: string;
  initial: string | Buffer;
  intended: string | Buffer;
  /** open in an editor tab from the start */
  open?: boolean;
}

export interface Scenario {
  id: string;
  /** the row of the README's table */
  title: string;
  /** where the failure (or the false alarm) is documented */
  source: string;
  kind: ScenarioKind;
  /** the fake model (test/copilot/fake-model): Copilot offers replace_string_in_file to sonnet and small, apply_patch to gpt; small has a 30 000-token context */
  model: 'sonnet' | 'gpt' | 'small';
  files: ScenarioFile[];
  /** one chat, turn after turn */
  turns: Act[][];
  /** what Copilot as shipped does (the baseline must show it: a change in Copilot shows here first) */
  baseline: 'loses' | 'keeps';
  /** what goes wrong without the guard, or what a false alarm would be */
  what: string;
  /**
   * what the user does once the agent's last turn has ended and the editor and the disk have stopped changing
   * (run.ts: after the wall time is taken, before the files are compared)
   */
  afterwards?: (w: World) => Promise<void>;
  /** how the guard keeps the files without stopping any call (a failure scenario whose guarded run has no refusal) */
  keptWithoutAStop?: string;
}

const lines = (...ls: string[]) => ls.map((l) => `${l}\n`).join('');
const swap = (from: string, to: string) => (line: string) => line.replace(from, to);

const SETTINGS = lines(
  'export const settings = {',
  "  name: 'demo',",
  '  retries: 3,',
  '  timeoutMs: 30000,',
  '  verbose: false,',
  "  region: 'eu-west-1',",
  '  cacheSize: 256,',
  '};',
);

const GREETING = lines(
  'export function greet(name: string): string {',
  "  const greeting = 'Hello';",
  "  const separator = ', ';",
  "  const punctuation = '.';",
  '  return `${greeting}${separator}${name}${punctuation}`;',
  '}',
);

const LIMITS = lines(
  'export const limits = {',
  '  maxUsers: 100,',
  '  maxProjects: 10,',
  '  maxUploadsMb: 50,',
  '  maxSessions: 5,',
  '  maxTokens: 4096,',
  '};',
);

const REPORT = lines('# Quarterly report', '', '## Summary', 'Revenue grew 12% on the quarter.');
const FINDINGS = lines(
  '',
  '## Findings',
  '- Churn fell to 2.1% after the onboarding change.',
  '- Support tickets per customer halved since March.',
  '- The EU region now carries 41% of revenue.',
);

const indent = (text: string, from: number, to: number) =>
  text.replace(new RegExp(`^( {${from}})+`, 'gm'), (m) => ' '.repeat((m.length / from) * to));
const TOTAL_4 = lines(
  'export function total(items: number[]): number {',
  '    let sum = 0;',
  '    for (const item of items) {',
  '        sum += item;',
  '    }',
  '    return sum;',
  '}',
);
const TOTAL_2 = indent(TOTAL_4, 4, 2);

const PALETTE = lines(
  'export const palette = {',
  "  primary: '#1e88e5',",
  "  secondary: '#8e24aa',",
  "  success: '#43a047',",
  "  warning: '#fdd835',",
  "  danger: '#e53935',",
  '};',
);

const API = lines(
  'import { request } from "./http";',
  '',
  'export async function getUser(id: string) {',
  '  return request(`/users/${id}`);',
  '}',
);
const HELPERS = lines(
  '// shared helpers, written by the user',
  'export const isBlank = (s: string) => s.trim() === "";',
  'export const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));',
);
// no indentation: Copilot's apply_patch re-indents added lines to the editor's settings, which is not what this scenario measures
const NEW_HELPERS = lines(
  'export const isEmail = (s: string) => /^[^@\\s]+@[^@\\s]+$/.test(s);',
  'export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");',
);

const REPLICAS = lines('[primary]', 'host = "db1"', 'enabled = true', '', '[replica]', 'host = "db2"', 'enabled = true');

const FLAGS = lines('# feature flags', 'darkMode=false', 'betaSearch=false', 'newCheckout=false', 'auditLog=true');
const GENERATED_FLAG = 'exportCsv=false\n';

const SERVICE = lines('# service', 'name=orders', 'port=8080', 'workers=2', 'timeout=30', 'logLevel=info');
// the script the agent runs: a sed of another line than the user's, beside the file (as `sh fix.sh` finds it)
const FIX_SCRIPT = `#!/bin/sh\nsed -i 's/^timeout=30$/timeout=120/' "$(dirname "$0")/service.conf"\n`;

const NOTES = lines('# Notes', '', '- first item', '- second item', '- third item');
const BOM = '\uFEFF';
const crlf = (text: string) => text.replace(/\n/g, '\r\n');
const CRLF_FILE = BOM + crlf(lines('[server]', 'host = "localhost"', 'port = 8080', 'workers = 2', '', '[log]', 'level = "info"'));
const COUNTER = lines(
  'let count = 0;',
  'export function increment() {',
  '  count += 1;',
  '  return count;',
  '}',
  'export function reset() {',
  '  count = 0;',
  '}',
);

export const SCENARIOS: Scenario[] = [
  {
    id: 'summarized',
    title: 'An edit from a copy lost to summarization',
    source: 'microsoft/vscode#260188; anthropics/claude-code#85488',
    kind: 'failure',
    model: 'small',
    files: [
      {
        rel: 'settings.ts',
        initial: SETTINGS,
        intended: SETTINGS.replace('30000', '60000').replace('retries: 3', 'retries: 5').replace('verbose: false', 'verbose: true'),
      },
    ],
    turns: [
      [{ read: 'settings.ts' }, { edit: 'settings.ts', intent: changeLine('timeoutMs', swap('30000', '60000')) }],
      // a later request: big reads overflow the context, Copilot summarises it, and the summary kept the file as first read
      [
        { overflow: true },
        { summarize: 'settings.ts' },
        { edit: 'settings.ts', intent: changeLines(['retries', swap('3', '5')], ['verbose', swap('false', 'true')]) },
      ],
    ],
    baseline: 'loses',
    what: "the agent's edit from the summarised copy puts its own earlier change back",
  },
  {
    id: 'unsaved',
    title: "The user's unsaved edit, then an agent edit",
    source: 'anthropics/claude-code#70662, #53220',
    kind: 'failure',
    model: 'sonnet',
    files: [
      {
        rel: 'greeting.ts',
        initial: GREETING,
        intended: GREETING.replace("'Hello'", "'Welcome'").replace("', '", "' - '").replace("'.'", "'!'"),
        open: true,
      },
    ],
    turns: [
      [
        { read: 'greeting.ts' },
        { world: (w) => w.type('greeting.ts', "', '", "' - '") },
        { edit: 'greeting.ts', intent: changeLines(['greeting =', swap("'Hello'", "'Welcome'")], ['punctuation =', swap("'.'", "'!'")]) },
      ],
    ],
    baseline: 'loses',
    what: "the user's typing, not yet saved, is overwritten by the agent's block",
  },
  {
    id: 'between-requests',
    title: "A later request's edit over what the user changed in between",
    source: 'microsoft/vscode-copilot-release#8304, #8113',
    kind: 'failure',
    model: 'sonnet',
    files: [
      {
        rel: 'limits.ts',
        initial: LIMITS,
        intended: LIMITS.replace('maxProjects: 10', 'maxProjects: 20')
          .replace('maxUploadsMb: 50', 'maxUploadsMb: 500')
          .replace('maxUsers: 100', 'maxUsers: 200')
          .replace('maxSessions: 5', 'maxSessions: 8'),
        open: true,
      },
    ],
    turns: [
      [{ read: 'limits.ts' }, { edit: 'limits.ts', intent: changeLine('maxProjects', swap('10', '20')) }],
      [
        {
          world: async (w) => {
            await w.type('limits.ts', 'maxUploadsMb: 50', 'maxUploadsMb: 500');
            await w.save('limits.ts');
          },
        },
        { edit: 'limits.ts', intent: changeLines(['maxUsers', swap('100', '200')], ['maxSessions', swap('5', '8')]) },
      ],
    ],
    baseline: 'loses',
    what: "the user's saved change is put back to the agent's old copy",
  },
  {
    id: 'appended-again',
    title: 'The same section appended again',
    source: "bytedance/deer-flow's read-before-write design (one report section appended five times)",
    kind: 'failure',
    model: 'small',
    files: [{ rel: 'report.md', initial: REPORT, intended: REPORT + FINDINGS }],
    turns: [
      [
        { read: 'report.md' },
        { edit: 'report.md', intent: appendSection(FINDINGS) },
        { overflow: true },
        { summarize: 'report.md' },
        { edit: 'report.md', intent: appendSection(FINDINGS) },
      ],
    ],
    baseline: 'loses',
    what: 'the section stands twice',
  },
  {
    id: 'formatter',
    title: 'A formatter changes the file between the read and the edit',
    source: 'anthropics/claude-code#51361 (a formatter between Read and Edit)',
    kind: 'failure',
    model: 'sonnet',
    files: [{ rel: 'total.ts', initial: TOTAL_4, intended: TOTAL_2.replace('let sum = 0;', 'let sum = 0; // running total') }],
    turns: [
      [
        { read: 'total.ts' },
        { world: (w) => w.format('total.ts', TOTAL_2) },
        { edit: 'total.ts', intent: changeLine('let sum', (l) => (l.includes('//') ? l : `${l} // running total`)) },
      ],
    ],
    baseline: 'loses',
    what: "the formatter's change is undone on the lines the edit quoted",
  },
  {
    id: 'parallel',
    title: 'Two parallel edits carrying one read',
    source: 'google-gemini/gemini-cli#8372; earendil-works/pi#2327',
    kind: 'failure',
    model: 'sonnet',
    files: [
      {
        rel: 'palette.ts',
        initial: PALETTE,
        intended: PALETTE.replace('#43a047', '#2e7d32').replace('#8e24aa', '#6a1b9a').replace('#fdd835', '#f9a825'),
      },
    ],
    turns: [
      [
        { read: 'palette.ts' },
        {
          together: [
            { edit: 'palette.ts', intent: changeLine('success', swap('#43a047', '#2e7d32')) },
            { edit: 'palette.ts', intent: changeLines(['secondary', swap('#8e24aa', '#6a1b9a')], ['warning', swap('#fdd835', '#f9a825')]) },
          ],
        },
      ],
    ],
    baseline: 'loses',
    what: "the second edit, made from the same read, puts the first edit's line back",
  },
  {
    id: 'never-read',
    title: 'A patch over files never read',
    source: 'anomalyco/opencode#30765',
    kind: 'failure',
    model: 'gpt',
    files: [
      {
        rel: 'api.ts',
        initial: API,
        intended: API.replace(
          'export async function getUser(id: string) {',
          'export async function getUser(id: string, signal?: AbortSignal) {',
        ).replace('request(`/users/${id}`)', 'request(`/users/${id}`, { signal })'),
      },
      { rel: 'helpers.ts', initial: HELPERS, intended: HELPERS + NEW_HELPERS },
    ],
    turns: [
      [
        // the agent takes api.ts to be what it remembers and helpers.ts to be a file it must create
        { assume: 'api.ts', text: API },
        {
          patch: [
            { edit: 'api.ts', intent: changeLine('getUser', swap('(id: string)', '(id: string, signal?: AbortSignal)')) },
            { edit: 'helpers.ts', intent: createFile(NEW_HELPERS) },
          ],
        },
        {
          patch: [
            {
              edit: 'api.ts',
              intent: changeLine('request(`/users', swap('request(`/users/${id}`)', 'request(`/users/${id}`, { signal })')),
            },
          ],
        },
      ],
    ],
    baseline: 'loses',
    what: "the file the patch means to create exists: Copilot writes the new text into the top of the user's file",
  },
  {
    id: 'shell-rewrite',
    title: 'A stale rewrite through the shell',
    source: 'anthropics/claude-code#40517 (a Bash heredoc has no read-before-write check), #16461 (`cat >` over a file)',
    kind: 'failure',
    model: 'sonnet',
    files: [{ rel: 'flags.conf', initial: FLAGS, intended: FLAGS.replace('betaSearch=false', 'betaSearch=true') + GENERATED_FLAG }],
    turns: [
      [
        { read: 'flags.conf' },
        // another program adds a line after the agent's read
        { world: (w) => w.append('flags.conf', GENERATED_FLAG) },
        // the agent writes the whole file from its copy through its shell, as models do when an edit tool is in the way
        { shell: 'flags.conf', intent: changeLine('betaSearch', swap('false', 'true')) },
      ],
    ],
    baseline: 'loses',
    what: "the agent's shell rewrites the file from its old copy: the line the other program added is gone",
  },
  {
    id: 'shell-under-unsaved',
    title: 'A script rewrites a file while the user has unsaved changes in it',
    source:
      'microsoft/vscode-copilot-release#8330 ("The content of the file is newer"), microsoft/vscode#326041 (an agent\'s change on disk under a dirty editor), #49577',
    kind: 'failure',
    model: 'sonnet',
    files: [
      {
        rel: 'service.conf',
        initial: SERVICE,
        intended: SERVICE.replace('workers=2', 'workers=8').replace('timeout=30', 'timeout=120'),
        open: true,
      },
    ],
    turns: [
      [
        { world: (w) => w.script('fix.sh', FIX_SCRIPT) },
        { read: 'service.conf' },
        // while the agent works, the user types a change and does not save it (typed before the request, VS Code's
        // `chat.saveBeforeSend` would save it as the message is sent)
        { world: (w) => w.type('service.conf', 'workers=2', 'workers=8') },
        // the agent runs the script: it changes another line of the file on disk, under the unsaved buffer
        { script: 'fix.sh', changes: 'service.conf', line: 'timeout=120' },
      ],
    ],
    // once the agent is done, the user saves what they typed (Ctrl+S)
    afterwards: (w) => w.save('service.conf'),
    baseline: 'loses',
    what: "the script's change is on disk, the user's in the buffer: the save meets a newer file and fails (or overwrites the script's line)",
    keptWithoutAStop:
      "the script runs, watched: its change is merged into the buffer under the user's unsaved one, and the save writes both",
  },
  {
    id: 'own-tool-fails',
    title: "False alarm? The agent's own tool fails a call, then the agent's right edit",
    source: "this project's tracker (the Copilot harness refused the edit after its runtime failed a create)",
    kind: 'false-alarm',
    model: 'sonnet',
    files: [{ rel: 'replicas.toml', initial: REPLICAS, intended: REPLICAS.replace('db2', 'db3') }],
    turns: [
      [
        { read: 'replicas.toml' },
        // a quote that stands twice (or a create of a file that exists): the gate lets it through, the tool refuses it
        { slip: 'replicas.toml', quote: 'enabled = true', replacement: 'enabled = false' },
        // the next response: the agent's correct edit, at once
        { edit: 'replicas.toml', intent: changeLine('host = "db2"', swap('db2', 'db3')) },
      ],
    ],
    baseline: 'keeps',
    what: "refusing the agent's next edit, as if the call its own tool failed were still writing",
  },
  {
    id: 'save-no-change',
    title: 'False alarm? A save that changes nothing',
    source: 'anthropics/claude-code#25623 (autosave of identical content)',
    kind: 'false-alarm',
    model: 'sonnet',
    files: [{ rel: 'notes.md', initial: NOTES, intended: NOTES.replace('- second item', '- second item (done)'), open: true }],
    turns: [
      [
        { read: 'notes.md' },
        {
          world: async (w) => {
            // typed and typed back: the buffer is dirty with the same text, and the save rewrites the same bytes
            await w.type('notes.md', 'first', 'firsts');
            await w.type('notes.md', 'firsts', 'first');
            await w.save('notes.md');
          },
        },
        { edit: 'notes.md', intent: changeLine('second item', (l) => (l.endsWith('(done)') ? l : `${l} (done)`)) },
      ],
    ],
    baseline: 'keeps',
    what: 'blocking the edit: the text the agent read is the text there',
  },
  {
    id: 'touched',
    title: 'False alarm? Only the modification time changes',
    source: 'anthropics/claude-code#11878 (a timestamp change)',
    kind: 'false-alarm',
    model: 'sonnet',
    files: [
      {
        rel: 'counter.ts',
        initial: COUNTER,
        intended: COUNTER.replace('count += 1;', 'count += step;').replace(
          'export function increment() {',
          'export function increment(step = 1) {',
        ),
      },
    ],
    turns: [
      [
        { read: 'counter.ts' },
        { world: (w) => w.touch('counter.ts') },
        { edit: 'counter.ts', intent: changeLine('count += ', swap('count += 1;', 'count += step;')) },
        { edit: 'counter.ts', intent: changeLine('function increment', swap('increment()', 'increment(step = 1)')) },
      ],
    ],
    baseline: 'keeps',
    what: 'blocking the edit: a touch is not a change',
  },
  {
    id: 'crlf-bom',
    title: 'False alarm? A CRLF file with a BOM, edited twice',
    source: 'anthropics/claude-code#12330, #12805 (line endings, BOM)',
    kind: 'false-alarm',
    model: 'sonnet',
    files: [
      {
        rel: 'server.toml',
        initial: Buffer.from(CRLF_FILE, 'utf8'),
        intended: Buffer.from(CRLF_FILE.replace('port = 8080', 'port = 9090').replace('level = "info"', 'level = "debug"'), 'utf8'),
      },
    ],
    turns: [
      [
        { read: 'server.toml' },
        { edit: 'server.toml', intent: changeLine('port =', swap('8080', '9090')) },
        { edit: 'server.toml', intent: changeLine('level =', swap('"info"', '"debug"')) },
      ],
    ],
    baseline: 'keeps',
    what: 'blocking the edit, or writing LF or dropping the BOM',
  },
  {
    id: 'own-edits',
    title: "False alarm? The agent's own edits within a turn",
    source: 'RooCodeInc/Roo-Code#3499 (the re-read tax)',
    kind: 'false-alarm',
    model: 'sonnet',
    files: [
      {
        rel: 'counter.ts',
        initial: COUNTER,
        intended: COUNTER.replace('let count = 0;', 'let count = 10;')
          .replace('  count += 1;', '  count += 2;')
          .replace('  count = 0;', '  count = 10;'),
      },
    ],
    turns: [
      [
        { read: 'counter.ts' },
        { edit: 'counter.ts', intent: changeLine('let count', swap('= 0', '= 10')) },
        { edit: 'counter.ts', intent: changeLine('count += ', swap('+= 1', '+= 2')) },
        { edit: 'counter.ts', intent: changeLine('  count = 0', swap('= 0', '= 10')) },
      ],
    ],
    baseline: 'keeps',
    what: 'asking for a read after each of its own edits',
  },
];
