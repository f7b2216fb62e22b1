// Codex as the shared suites drive it (test/shared/testAgent.ts), against the scripted Responses API
// (fakeResponses.ts); what its hooks receive is in test/codex/FACTS.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestAgentFacts, ToolCall } from '../shared/testAgent';
import { codexConfig, type CodexRun, describeRun, runCodex } from './codexCli';
import { type RecordedRequest, type StepAnswer, startFakeResponses } from './fakeResponses';

/** A patch of Codex's `apply_patch`: the file's lines `old` made `replacement` (each quote is whole lines), or a new file. */
function codexPatch(file: string, old: string | undefined, replacement: string): string {
  const lines = (text: string, sign: string) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `${sign}${l}`);
  const body =
    old === undefined
      ? [`*** Add File: ${file}`, ...lines(replacement, '+')]
      : [`*** Update File: ${file}`, '@@', ...lines(old, '-'), ...lines(replacement, '+')];
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

/** Several of those patches as one: their file sections between one Begin and End. */
const joinCodexPatches = (patches: string[]) =>
  [
    '*** Begin Patch',
    ...patches.flatMap((p) => p.split('\n').filter((l) => l !== '' && !/^\*\*\* (Begin|End) Patch$/.test(l))),
    '*** End Patch',
    '',
  ].join('\n');

/** Codex's home as the outcomes run it: ~/.codex of the run folder, where the extension writes its user-level hooks. */
const codexHome = () => path.join(os.homedir(), '.codex');

/**
 * Codex: it reads through its shell (`cat`) and changes files with `apply_patch`; its hooks are the ones the
 * extension merges into `~/.codex/hooks.json` (`guardCodex: user`), trusted in `config.toml`, next to the
 * provider settings written here as a user would. Its scripted model answers one call per response.
 */
export const testAgent: TestAgentFacts = {
  cliPackage: '@openai/codex',
  guardedBy: 'its hooks',
  failed: /^Error|failed|verification|invalid patch/i,
  hostSuite: 'test/integration/codex.test.ts',
  guardAt: 'user',
  readsBytes: true,
  read: (file) => ({ tool: 'shell', args: { cmd: `cat '${file}'` } }),
  replace: (file, old, replacement) => ({ tool: 'apply_patch', args: { patch: codexPatch(file, old, replacement) } }),
  create: (file, content) => ({ tool: 'apply_patch', args: { patch: codexPatch(file, undefined, content) } }),
  shell: (command) => ({ tool: 'shell', args: { cmd: command } }),
  // its patch applies a quote that stands twice at the first match: a line the file does not hold fails it ("Failed to find")
  slip: (file, _copy, quote, replacement) => ({
    tool: 'apply_patch',
    args: { patch: codexPatch(file, `${quote} # as remembered`, replacement) },
  }),
  // the shell's output follows its own header lines, after `Output:`
  readText: (result) => {
    const at = result.indexOf('Output:\n');
    return at < 0 ? result : result.slice(at + 'Output:\n'.length);
  },
  together: (calls) => ({
    tool: 'apply_patch',
    args: { patch: joinCodexPatches(calls.map((c) => String(c.args.patch))) },
  }),
  readsBeforeOverwrite: false,
  makeHome: codexHome,
  async startFake(answer) {
    const fake = await startFakeResponses();
    fs.mkdirSync(codexHome(), { recursive: true });
    fs.writeFileSync(path.join(codexHome(), 'config.toml'), codexConfig({ baseUrl: fake.baseUrl }));
    /** the calls answered so far, by the id given to each */
    const asked = new Map<string, ToolCall>();
    const step = async (request: RecordedRequest): Promise<StepAnswer> => {
      const seen = request.outputs.flatMap(({ callId, output }) => {
        const call = asked.get(callId);
        return call ? [{ ...call, result: output }] : [];
      });
      const a = await answer(seen);
      if ('text' in a) return { text: a.text };
      if ('calls' in a) throw new Error('the scripted Responses server answers one call per response');
      const id = `outcome_${asked.size + 1}`;
      asked.set(id, a);
      return a.tool === 'shell' ? { shell: String(a.args.cmd), id } : { patch: String(a.args.patch), id };
    };
    fake.script(Array.from({ length: 100 }, () => step));
    return {
      url: fake.baseUrl,
      async close() {
        await fake.close();
        fs.rmSync(codexHome(), { recursive: true, force: true });
      },
    };
  },
  run: ({ cwd, prompt, home, env }) => runCodex({ cwd, prompt, home, osHome: os.homedir(), env }),
  describe: (run) => describeRun(run as CodexRun),
  shellWrites: {
    hookTool: 'Bash',
    // printf's format: the text's line breaks as `\n` (none of the suite's texts holds `%`, `\` or `'`)
    overwrite: (rel, text) => `printf '${text.replace(/\n/g, '\\n')}' > ${rel}`,
    // Codex runs the hooks of ~/.codex/hooks.json only once they are trusted in its config.toml
    ready: () => fs.readFileSync(path.join(codexHome(), 'config.toml'), 'utf8').includes('# Agent Edit Guard'),
  },
  outcomes: {
    cannot: { parallel: 'the scripted Responses server here answers one call per response' },
    keeps: { 'between-requests': 'its patch must find the lines it removes, and the old copy has them no more; the model reads again' },
  },
};
