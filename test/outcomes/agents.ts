// The agents whose own loops run the scenarios (docs/design.md §Outcomes), each unguarded and guarded:
// Copilot's Local agent in its real chat (its built-in tools, behind the hooks or not, and the Guarded
// agent), and every agent that runs in a terminal (its test/<agent>/testAgent.ts) as its real CLI
// headless against a scripted fake model served here. Each agent says which scenarios it cannot express,
// and which failures it keeps unguarded by a check of its own: facts about the agent, shown in the tables.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import {
  agentTurn,
  allowUntil,
  COPILOT_ID,
  fakeModel,
  type ModelRequest,
  newChat,
  type Step,
  waitsForTheUser,
  workspaceRoot,
} from '../copilot/agent';
import { setGuardBuiltinTools, waitUntilHooksAreLive } from '../copilot/turns';
import { windowEnvironment, waitFor } from '../integration/helpers';
import { type Answer, type Call as SeenCall, REFUSED, type TestAgent, type ToolCall } from '../shared/testAgent';
import { TEST_AGENTS, testAgentNamed } from '../shared/testAgents';
import { packageFile } from '../shared/cliProcess';
import {
  type Call,
  type CallOutcome,
  type Configuration,
  COPILOT_CONFIGURATIONS,
  type CopilotConfiguration,
  type PlannedEdit,
} from './configurations';
import { appendAsReplace, heredoc } from './edits';
import { beforeTheRequest, type Scenario, SCENARIOS } from './scenarios';
import { folded, type ScriptedAgent } from './scriptedAgent';
import type { AgentInfo } from './table';
import { copilotHarness } from './harnessAgent';

export interface OutcomeAgent extends Omit<AgentInfo, 'version' | 'configurations'> {
  configurations: Configuration[];
  /**
   * The host whose runner it needs: the Copilot suite's (default: Copilot Chat, the terminal agents), or the harness
   * suite's (the Agent Host, behind that runner's proxy and scripted model: harnessAgent.ts).
   */
  host?: 'copilot' | 'harness';
  version(): string;
  /** the order its configurations run in, where it matters (default: `configurations`) */
  runOrder?: Configuration[];
  /** the host made ready for the agent (once, before its configurations) */
  start(): Promise<void>;
  /** the configuration in force (its scenarios run next) */
  configure(config: Configuration): Promise<void>;
  /** the agent's settings as they were */
  stop(): Promise<void>;
  /** a scenario's turns played through the agent's own loop, its model's answers from `scripted` */
  play(scenario: Scenario, config: Configuration, scripted: ScriptedAgent, name: string): Promise<void>;
}

const copilot: OutcomeAgent = {
  id: 'copilot-local',
  name: 'Copilot (Local agent)',
  version: () => vscode.extensions.getExtension(COPILOT_ID)?.packageJSON.version ?? '?',
  configurations: COPILOT_CONFIGURATIONS,
  // the bridge-on configuration first: with agent turns before the hooks file exists, Copilot has been
  // seen not to run it (test/copilot/guardedAgent.test.ts)
  runOrder: [...COPILOT_CONFIGURATIONS].sort((a, b) => Number(b.bridge) - Number(a.bridge)),
  cannot: {},
  keeps: {
    formatter:
      'its replace finds no match for the indentation the formatter changed ("String replacement failed: Could not find matching text") and fails; the model reads again',
  },
  start: async () => {},
  async configure(config) {
    const { bridge } = config as CopilotConfiguration;
    await setGuardBuiltinTools(bridge);
    // off: the bridge is stopped, so a hooks file Copilot still holds exits at once, unchecked
    if (bridge) await waitUntilHooksAreLive();
  },
  stop: () => setGuardBuiltinTools(false),
  async play(scenario, config, scripted, name) {
    await newChat();
    for (const [i, acts] of scenario.turns.entries()) {
      const rest = await beforeTheRequest(acts, scripted.world);
      let ended = false;
      const steps = scripted.turn(rest).map((step): Step => async (request: ModelRequest) => {
        const answer = await (step as (r: ModelRequest) => Promise<Step>)(request);
        if ('text' in answer) ended = true;
        return answer;
      });
      const turn = await agentTurn(`${name}-${i + 1}`, steps, `${scenario.title} (turn ${i + 1}).`, {
        model: fakeModel().MODELS[scenario.model],
        mode: (config as CopilotConfiguration).mode,
      });
      if (waitsForTheUser(turn.response)) await allowUntil(() => ended, turn.tag);
      // a turn that stopped short (a call left waiting) would count a change never made as one lost
      assert.ok(ended, `Copilot ran the script of [[${turn.tag}]] to its end; chat.open answered ${JSON.stringify(turn.response)}`);
    }
  },
};

const asCall = ({ tool, args }: ToolCall): Call => ({ tool, input: args });
const asToolCall = ({ tool, input }: Call): ToolCall => ({ tool, args: input });

/**
 * The calls of a terminal agent's tools. An append is a replace anchored on the copy's last lines (as
 * Copilot makes it: a model with a whole-file write would rewrite the file from its copy instead, which
 * hides a second append); a patch is one call per file in one response (the patch tools of these agents
 * are offered to other models).
 */
function terminalCall(agent: TestAgent, { file, copy, edit }: PlannedEdit): Call {
  switch (edit.kind) {
    case 'create':
      return asCall(agent.write ? agent.write(file.abs, edit.text) : agent.create!(file.abs, edit.text));
    case 'append': {
      const { oldString, newString } = appendAsReplace(copy ?? '', edit.text);
      return asCall(agent.replace(file.abs, oldString, newString));
    }
    default:
      return asCall(agent.replace(file.abs, edit.oldString, edit.newString));
  }
}

/** EDITGUARD_OUTCOMES_TRACE=1: the host's log shows each call and its result (what a figure alone would not say). */
const TRACE = process.env.EDITGUARD_OUTCOMES_TRACE === '1';

/**
 * The scenarios whose agent forgets what it read because its context was compacted. A scripted run of a
 * terminal agent does not fill its context, so it never compacts: a script that forgot would be a model
 * that forgets without a cause, which no gate can see.
 */
const NEEDS_COMPACTION: Record<string, string> = Object.fromEntries(
  SCENARIOS.filter((s) => s.turns.some((t) => t.some((a) => 'summarize' in a))).map((s) => [
    s.id,
    'it needs the agent to compact its context, which a scripted run here does not fill',
  ]),
);

function terminalOutcomeAgent(agent: TestAgent): OutcomeAgent {
  const tools = {
    overflows: false,
    read: (file: { abs: string }) => asCall(agent.read(file.abs)),
    edits: (batch: PlannedEdit[], shape: 'calls' | 'patch') => {
      const calls = batch.map((p) => terminalCall(agent, p));
      return shape === 'patch' && agent.together && calls.length > 1 ? [asCall(agent.together(calls.map(asToolCall)))] : calls;
    },
    // a rewrite through its shell, in the folder it runs in
    shell: (file: { abs: string }, text: string) => asCall(agent.shell(heredoc(file.abs, text))),
    run: (command: string) => asCall(agent.shell(command)),
    slip: (file: { abs: string }, copy: string, quote: string, replacement: string) =>
      asCall(agent.slip ? agent.slip(file.abs, copy, quote, replacement) : agent.replace(file.abs, quote, replacement)),
    outcomeOf: (result: string): CallOutcome => (REFUSED.test(result) ? 'refused' : agent.failed.test(result) ? 'failed' : 'done'),
    // a model reads and writes text: line breaks as LF (the agent's tools keep the file's own), and a byte order
    // mark only where its read shows the bytes as they are
    textOfRead: (result: string) => {
      const text = agent.readText ? agent.readText(result) : result;
      return agent.readsBytes ? text.replace(/\r\n/g, '\n') : folded(text);
    },
  };
  const settings = () => vscode.workspace.getConfiguration('editGuard', null);
  const target = agent.guardAt ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  let fake: { url: string; close(): Promise<void> } | undefined;
  /** answers the fake's requests for the scenario that runs */
  let answer: (calls: SeenCall[]) => Promise<Answer> = async () => ({ text: 'Done.' });
  return {
    id: agent.name.toLowerCase().replace(/\W+/g, '-'),
    name: agent.name,
    version: () => JSON.parse(fs.readFileSync(packageFile(agent.cliPackage, 'package.json'), 'utf8')).version,
    configurations: [
      { id: 'unguarded', label: `${agent.name}, unguarded`, guarded: false, ...tools },
      { id: 'guarded', label: agent.guardedBy, guarded: true, ...tools },
    ],
    cannot: { ...NEEDS_COMPACTION, ...agent.outcomes?.cannot },
    keeps: agent.outcomes?.keeps ?? {},
    async start() {
      fake = await agent.startFake((calls) => answer(calls));
    },
    async configure(config) {
      await settings().update(agent.setting, config.guarded ? (agent.guardAt ?? 'workspace') : undefined, target);
      const entries = path.join(agent.guardAt ? os.homedir() : workspaceRoot(), agent.folderEntries);
      await waitFor(
        () => fs.existsSync(entries) === config.guarded,
        `our entries ${config.guarded ? 'in' : 'out of'} the folder`,
        10000,
        50,
      );
    },
    async stop() {
      await settings().update(agent.setting, undefined, target);
      await fake?.close();
      if (agent.leavesInFolder) fs.rmSync(`${workspaceRoot()}/${agent.leavesInFolder}`, { recursive: true, force: true });
    },
    async play(scenario, config, scripted) {
      // one run of the CLI for all the turns: between two of its calls is where the user and other programs act
      const next = scripted.calls(scenario.turns.flat());
      let asked: Call[] = [];
      let done = false;
      let failed: unknown;
      answer = async (seen) => {
        try {
          // each call's own result: an agent may report a response's calls in the order they finished
          const results = asked.map((call) => {
            // (an agent may add its defaults to a call's input, as Claude Code's replace_all)
            const same = (args: Record<string, unknown>) => Object.entries(call.input).every(([k, v]) => isDeepStrictEqual(args[k], v));
            const result = [...seen].reverse().find((c) => c.tool === call.tool && same(c.args))?.result;
            assert.ok(result !== undefined, `${agent.name} answered ${call.tool} ${JSON.stringify(call.input).slice(0, 200)}`);
            return result;
          });
          if (TRACE) for (const r of results) console.log(`[outcomes] ${agent.name} ← ${r.slice(0, 4000)}`);
          const calls = await next(results);
          if (TRACE)
            for (const c of calls ?? []) console.log(`[outcomes] ${agent.name} → ${c.tool} ${JSON.stringify(c.input).slice(0, 300)}`);
          if (!calls) {
            done = true;
            return { text: 'Done.' };
          }
          asked = calls;
          return calls.length === 1 ? asToolCall(calls[0]) : { calls: calls.map(asToolCall) };
        } catch (e) {
          failed ??= e;
          throw e;
        }
      };
      const run = await agent.run({
        cwd: workspaceRoot(),
        prompt: scenario.title,
        baseUrl: fake!.url,
        home: agent.makeHome(),
        env: windowEnvironment(),
      });
      if (failed) throw failed;
      assert.ok(done, `${agent.name} ran the scenario to its end (${config.id}):\n${agent.describe(run)}`);
    },
  };
}

/** The Copilot harness runs on the Copilot CLI's runtime: what it cannot express and keeps unguarded are the CLI's. */
const harness: OutcomeAgent = {
  ...copilotHarness,
  cannot: { ...NEEDS_COMPACTION },
  keeps: testAgentNamed('Copilot CLI').outcomes?.keeps ?? {},
};

/** In the order of the tables: Copilot's two, then the terminal agents in the catalog's order (test/shared/testAgents.ts). */
export const OUTCOME_AGENTS: OutcomeAgent[] = [copilot, harness, ...TEST_AGENTS.map(terminalOutcomeAgent)];
