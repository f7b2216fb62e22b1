// The Copilot harness (VS Code's Agent Host) as an agent of the outcomes suite: its real chats, run by the Copilot
// runtime outside the extension host, with the harness suite's scripted model (test/harness/harness.ts), unguarded
// and behind Copilot's hooks file at user level. It runs in the harness suite's host (scripts/host/run-harness.sh:
// the proxy, the test CA and the scripted model's servers are that host's), so `npm run outcomes` runs the suite
// there too, for this agent alone (outcomes.test.ts: `host`).
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { harnessTurn, type ModelRequest, newHarnessChat, say, type ToolResultSeen } from '../harness/harness';
import type { Answer } from '../harness/node/protocol';
import { waitFor } from '../integration/helpers';
import type { OutcomeAgent } from './agents';
import type { Call, CallOutcome, Configuration, PlannedEdit } from './configurations';
import { appendAsReplace, heredoc } from './edits';
import { beforeTheRequest } from './scenarios';
import { folded } from './scriptedAgent';

/** The runtime's words for a call our hook denied; the reason follows. */
const DENIED = /^Denied by preToolUse hook:/;
/** Its own tools' refusals: a create of a file that exists, an edit whose old_str it does not find once. */
const FAILED = /already exists|No match found|not found|multiple|^Error|failed/i;

/** Its file tools, as the standard model is offered them: `view`, `edit`, `create` (absolute paths). */
function harnessEdit({ file, copy, edit }: PlannedEdit): Call {
  switch (edit.kind) {
    case 'create':
      return { tool: 'create', input: { path: file.abs, file_text: edit.text } };
    case 'append':
      return { tool: 'edit', input: { path: file.abs, ...asEdit(appendAsReplace(copy ?? '', edit.text)) } };
    case 'replace':
      return { tool: 'edit', input: { path: file.abs, old_str: edit.oldString, new_str: edit.newString } };
  }
}
const asEdit = ({ oldString, newString }: { oldString: string; newString: string }) => ({ old_str: oldString, new_str: newString });

const tools: Omit<Configuration, 'id' | 'label' | 'guarded'> = {
  overflows: false,
  read: (file) => ({ tool: 'view', input: { path: file.abs } }),
  // no patch tool offered to this model: a patch's edits are one call per file, in one response
  edits: (batch) => batch.map(harnessEdit),
  // its runtime's shell tool (the hooks see it as `Bash`)
  shell: (file, text) => ({ tool: 'bash', input: { command: heredoc(file.abs, text), description: 'Write the file.' } }),
  run: (command) => ({ tool: 'bash', input: { command, description: 'Run the command.' } }),
  // its create makes only new files ("Path already exists"): the call the issue saw the runtime fail after the gate let it through
  slip: (file, copy, quote, replacement) => ({ tool: 'create', input: { path: file.abs, file_text: copy.replace(quote, replacement) } }),
  outcomeOf: (result: string): CallOutcome => (DENIED.test(result) ? 'refused' : FAILED.test(result) ? 'failed' : 'done'),
  // a view shows the file's text as it is on disk, with no line numbers (test/harness/FACTS.md)
  textOfRead: (result: string) => folded(result),
};

const settings = () => vscode.workspace.getConfiguration('editGuard', null);
const userHooksFile = () => path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json');

/** The result of `call` among the turn's tool results: the last one of that tool with that input. */
function resultOf(results: ToolResultSeen[], call: Call): string {
  const found = [...results].reverse().find((r) => r.name === call.tool && isDeepStrictEqual(r.input, call.input));
  assert.ok(found, `the model received the result of ${call.tool} ${JSON.stringify(call.input).slice(0, 200)}`);
  return found.text;
}

const asAnswer = (calls: Call[]): Answer =>
  calls.length === 1 ? { tool: calls[0].tool, input: calls[0].input } : { calls: calls.map((c) => ({ tool: c.tool, input: c.input })) };

export const copilotHarness: OutcomeAgent = {
  id: 'copilot-harness',
  name: 'Copilot harness',
  host: 'harness',
  // the Copilot runtime that runs the harness's chats, as code-server's VS Code ships it
  version: () => {
    try {
      const pkg = path.join(
        vscode.env.appRoot,
        'node_modules',
        '@github',
        `copilot-sdk-${process.platform}-${process.arch}`,
        'package.json',
      );
      return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
    } catch {
      return '?';
    }
  },
  configurations: [
    { id: 'unguarded', label: 'Copilot harness, unguarded', guarded: false, ...tools },
    { id: 'guarded', label: 'its hooks', guarded: true, ...tools },
  ],
  // (filled in by agents.ts: what a scripted run cannot express, and what it keeps unguarded)
  cannot: {},
  keeps: {},
  async start() {
    await vscode.extensions.getExtension('editguard.agent-edit-guard')!.activate();
  },
  async configure(config) {
    // the user-level hooks file; the harness reads it when a chat starts, and every scenario starts a new chat
    await settings().update('guardCopilotTools', config.guarded ? 'user' : undefined, vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()) === config.guarded, `the hooks file ${config.guarded ? 'in' : 'out'}`, 10_000, 50);
  },
  stop: () => Promise.resolve(settings().update('guardCopilotTools', undefined, vscode.ConfigurationTarget.Global)),
  async play(scenario, _config, scripted, name) {
    await newHarnessChat();
    for (const [i, acts] of scenario.turns.entries()) {
      const rest = await beforeTheRequest(acts, scripted.world);
      const next = scripted.calls(rest);
      let asked: Call[] = [];
      const step = async (request: ModelRequest): Promise<Answer> => {
        const calls = await next(asked.map((call) => resultOf(request.toolResults, call)));
        if (!calls) return say('Done.');
        asked = calls;
        return asAnswer(calls);
      };
      // one answer per model request; a turn of this suite makes far fewer
      await harnessTurn(
        `${name}-${i + 1}`,
        Array.from({ length: 60 }, () => step),
        { prompt: `${scenario.title} (turn ${i + 1}).` },
      );
    }
  },
};
