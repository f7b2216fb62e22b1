// The README's "What it prevents" table, made from test/outcomes/results.json (written by
// scripts/outcomes.mjs from one run of the outcomes suite, which loads this file as built into
// out/test/outcomes/table.js). Pure: the unit tests check that the README holds exactly the table of
// results.json.

export type ScenarioKind = 'failure' | 'false-alarm';

/** What one run of a scenario measured. */
export interface Outcome {
  /** the agent whose loop ran it (AgentInfo.id) */
  agent: string;
  scenario: string;
  /** one of the agent's configurations (AgentInfo.configurations) */
  configuration: string;
  kind: ScenarioKind;
  /** the scenario's files whose bytes differ from the intended result: a change lost, or the file corrupted */
  wrongFiles: string[];
  /** calls the guard refused */
  blocks: number;
  /** refusals where nothing was wrong (every block of a false-alarm scenario) */
  falseBlocks: number;
  /** calls that failed with the tool's own error */
  failures: number;
  /** every tool call, and the calls beyond the script's own (retries, re-reads) */
  calls: number;
  extraCalls: number;
  /** of those, the reads after a stop that showed no text (the agent's own tool's failure, a sibling's write still landing) */
  readsAfterBlankStops: number;
  /** from the first request to the last answer of the last turn */
  wallMs: number;
}

/** An agent as the results name it: its configurations (the unguarded one first), and what it does not run. */
export interface AgentInfo {
  id: string;
  name: string;
  /** the version that ran (its CLI's, or Copilot Chat's) */
  version: string;
  /** `cannot`: scenarios this configuration does not run, each with the reason (shown, not run) */
  configurations: Array<{ id: string; label: string; guarded: boolean; cannot?: Record<string, string> }>;
  /** scenarios the agent cannot express, each with the reason: shown, not run */
  cannot: Record<string, string>;
  /** failure scenarios the agent keeps unguarded, each with what it does: a fact about the agent */
  keeps: Record<string, string>;
}

/** test/outcomes/results.json */
export interface Results {
  generated: string;
  runsPerScenario: number;
  suiteSeconds: number;
  vscode: string;
  agents: AgentInfo[];
  scenarios: Array<{ id: string; title: string; source: string; kind: ScenarioKind; what: string }>;
  outcomes: Outcome[];
}

export interface Summary {
  runs: number;
  /** runs in which some file was wrong, and the wrong files of all runs */
  wrongRuns: number;
  wrongFiles: number;
  blocks: number;
  falseBlocks: number;
  failures: number;
  extraCalls: number;
  /** the median run's */
  wallMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The runs of one scenario in one configuration, summed (wall time: the median run). */
export function summarize(outcomes: readonly Outcome[]): Summary {
  const runs = outcomes.length;
  const sum = (key: 'blocks' | 'falseBlocks' | 'failures' | 'extraCalls') => outcomes.reduce((n, o) => n + o[key], 0);
  return {
    runs,
    wrongRuns: outcomes.filter((o) => o.wrongFiles.length > 0).length,
    wrongFiles: outcomes.reduce((n, o) => n + o.wrongFiles.length, 0),
    blocks: sum('blocks'),
    falseBlocks: sum('falseBlocks'),
    failures: sum('failures'),
    extraCalls: sum('extraCalls'),
    wallMs: median(outcomes.map((o) => o.wallMs)),
  };
}

function cell(scenario: Results['scenarios'][number], s: Summary): string {
  const of = s.runs > 1 ? ` (${s.wrongRuns} of ${s.runs} runs)` : '';
  const result =
    scenario.kind === 'failure'
      ? s.wrongRuns > 0
        ? `**lost**${of}`
        : 'kept'
      : s.falseBlocks > 0
        ? `**${plural(s.falseBlocks, 'false block')}**`
        : s.wrongRuns > 0
          ? `**lost**${of}`
          : 'no block';
  // counts per run (the runs of a scenario are the same script: they differ only in time)
  const blocks = s.blocks > 0 ? `, ${plural(s.blocks / s.runs, 'block')}` : '';
  const failed = s.failures > 0 ? `, ${plural(s.failures / s.runs, 'failed call')}` : '';
  const extra = s.extraCalls > 0 ? `, +${plural(s.extraCalls / s.runs, 'call')}` : '';
  return `${result}${blocks}${failed}${extra} · ${seconds(s.wallMs)}`;
}

const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');

function runsCaption(results: Results): string {
  const runs = results.runsPerScenario === 1 ? 'One run of each scenario' : `${results.runsPerScenario} runs of each scenario`;
  return `${runs} in each configuration, ${results.generated.slice(0, 10)}, VS Code ${results.vscode}`;
}

/** One agent's figures in one configuration, over the scenarios it runs. */
function totals(results: Results, agent: AgentInfo, configId: string) {
  const runsOf = (scenario: string) =>
    results.outcomes.filter((o) => o.agent === agent.id && o.configuration === configId && o.scenario === scenario);
  const config = agent.configurations.find((c) => c.id === configId);
  const run = results.scenarios.filter((s) => !(s.id in agent.cannot) && !(s.id in (config?.cannot ?? {})));
  const all = summarize(run.flatMap((s) => runsOf(s.id)));
  const perRun = (n: number) => n / results.runsPerScenario;
  return {
    ...all,
    scenarios: run.length,
    /** files wrong per run, and in how many failure scenarios of how many */
    lostFiles: perRun(all.wrongFiles),
    lostIn: run.filter((s) => s.kind === 'failure' && summarize(runsOf(s.id)).wrongRuns > 0).length,
    failureScenarios: run.filter((s) => s.kind === 'failure').length,
    /** the median runs' times added up */
    wallMs: run.reduce((ms, s) => ms + summarize(runsOf(s.id)).wallMs, 0),
    /** extra calls per stop (a refused call, or a failed one: the agent makes it again either way) */
    perStop: all.blocks + all.failures > 0 ? (all.extraCalls / (all.blocks + all.failures)).toFixed(2) : '–',
  };
}

/**
 * The README's table: one row per agent and guarded configuration, beside what the same agent lost
 * unguarded in the same run.
 */
export function outcomesTable(results: Results): string {
  const rows = results.agents.flatMap((agent) => {
    const [unguarded, ...guarded] = agent.configurations;
    const before = totals(results, agent, unguarded.id);
    const scenarios = `${before.scenarios}${before.scenarios < results.scenarios.length ? ` of ${results.scenarios.length}` : ''}`;
    const lost = `${plural(before.lostFiles, 'file')} in ${before.lostIn} of ${before.failureScenarios}`;
    return guarded.map((config) => {
      const after = totals(results, agent, config.id);
      const scenariosHere = after.scenarios < before.scenarios ? `${after.scenarios} of ${results.scenarios.length}` : scenarios;
      const time = before.wallMs > 0 ? `${(after.wallMs / before.wallMs).toFixed(2)}×` : '–';
      return [
        `${agent.name} ${agent.version}`,
        config.label,
        scenariosHere,
        lost,
        `**${plural(after.lostFiles, 'file')}**`,
        plural(after.falseBlocks / results.runsPerScenario, 'false block'),
        after.perStop,
        time,
      ];
    });
  });
  const header = [
    'Agent',
    'Guarded by',
    'Scenarios',
    'Unguarded: files lost or corrupted, in failure scenarios',
    'Guarded: lost or corrupted',
    'False blocks',
    'Extra calls per stop',
    'Time against unguarded',
  ];
  const caption = `*${runsCaption(results)}. Counts are per run; a time is the sum of the scenarios' median runs, from the first request to the last answer. Each scenario, agent by agent: [How it works](docs/how-it-works.md#the-outcomes-scenario-by-scenario).*`;
  return [caption, '', table(header, rows)].join('\n');
}

/** docs/how-it-works.md's tables: for each agent, every scenario in each of its configurations. */
export function detailTables(results: Results): string {
  return results.agents
    .map((agent) => {
      const of = (scenarioId: string, configId: string) =>
        summarize(results.outcomes.filter((o) => o.agent === agent.id && o.scenario === scenarioId && o.configuration === configId));
      const header = ['What happens', 'Documented in', ...agent.configurations.map((c) => c.label)];
      const rows = results.scenarios.map((s) => [
        s.title,
        s.source,
        ...agent.configurations.map((c) =>
          s.id in agent.cannot
            ? `not run: ${agent.cannot[s.id]}`
            : c.cannot && s.id in c.cannot
              ? `not run: ${c.cannot[s.id]}`
              : `${cell(s, of(s.id, c.id))}${!c.guarded && s.id in agent.keeps ? ` (${agent.keeps[s.id]})` : ''}`,
        ),
      ]);
      const all = agent.configurations.map((c) => {
        const t = totals(results, agent, c.id);
        return `${plural(t.lostFiles, 'file')} lost or corrupted, ${plural(t.falseBlocks / results.runsPerScenario, 'false block')}, ${t.perStop} extra calls per stop`;
      });
      return [`#### ${agent.name} ${agent.version}`, '', table(header, [...rows, ['**All scenarios**', '', ...all]])].join('\n');
    })
    .join('\n\n');
}

const START = (what: string) => `<!-- ${what}:start (npm run outcomes writes this from test/outcomes/results.json) -->`;
const END = (what: string) => `<!-- ${what}:end -->`;
/** The README's table, and docs/how-it-works.md's. */
export const README_TABLE = 'outcomes-table';
export const DETAIL_TABLES = 'outcomes-detail';

/** `text` with what stands between the `what` markers replaced by `table`. */
export function withTable(text: string, table: string, what = README_TABLE): string {
  const start = text.indexOf(START(what));
  const end = text.indexOf(END(what));
  if (start < 0 || end < start) throw new Error(`no "${START(what)}" … "${END(what)}" markers`);
  return `${text.slice(0, start + START(what).length)}\n${table}\n${text.slice(end)}`;
}

/** What stands between the `what` markers now. */
export function tableIn(text: string, what = README_TABLE): string | undefined {
  const start = text.indexOf(START(what));
  const end = text.indexOf(END(what));
  if (start < 0 || end < start) return undefined;
  return text.slice(start + START(what).length, end).trim();
}
