// The README's "What it prevents" table, made from test/outcomes/results.json (written by
// scripts/outcomes.mjs from one run of the outcomes suite, which loads this file as built into
// out/test/outcomes/table.js). Pure: the unit tests check that the README holds exactly the table of
// results.json.

/** The three configurations (configurations.ts), and the two kinds of scenario (scenarios.ts). */
export type ConfigurationId = 'baseline' | 'hooks' | 'guarded';
export type ScenarioKind = 'failure' | 'false-alarm';

/** What one run of a scenario measured. */
export interface Outcome {
  scenario: string;
  configuration: ConfigurationId;
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
  /** from the first request to the last answer of the last turn */
  wallMs: number;
}

/** test/outcomes/results.json */
export interface Results {
  generated: string;
  runsPerScenario: number;
  suiteSeconds: number;
  vscode: string;
  copilotChat: string;
  configurations: Array<{ id: string; label: string }>;
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

export const TABLE_START = '<!-- outcomes-table:start (npm run outcomes writes this table from test/outcomes/results.json) -->';
export const TABLE_END = '<!-- outcomes-table:end -->';

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

/** The Markdown table of a results.json object. */
export function outcomesTable(results: Results): string {
  const { configurations, scenarios, outcomes } = results;
  const of = (scenarioId: string, configId: string) =>
    summarize(outcomes.filter((o) => o.scenario === scenarioId && o.configuration === configId));
  const header = ['What happens', 'Documented in', ...configurations.map((c) => c.label)];
  const rows = scenarios.map((s) => [s.title, s.source, ...configurations.map((c) => cell(s, of(s.id, c.id)))]);
  const totals = configurations.map((c) => {
    const all = summarize(outcomes.filter((o) => o.configuration === c.id));
    const perRun = (n: number) => n / results.runsPerScenario;
    // a stop: a refused call, or a call that failed (the agent makes it again either way)
    const stops = all.blocks + all.failures;
    const perStop = stops > 0 ? (all.extraCalls / stops).toFixed(2) : '–';
    return `${plural(perRun(all.wrongFiles), 'file')} lost or corrupted, ${plural(perRun(all.falseBlocks), 'false block')}, ${perStop} extra calls per stop`;
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const runs = results.runsPerScenario === 1 ? 'One run of each scenario' : `${results.runsPerScenario} runs of each scenario`;
  const caption = `*${runs} in each configuration, ${results.generated.slice(0, 10)}: Copilot Chat ${results.copilotChat} in VS Code ${results.vscode}. Counts are per run; a time is the median run's, from the first request to the last answer.*`;
  return [caption, '', line(header), line(header.map(() => '---')), ...rows.map(line), line(['**All scenarios**', '', ...totals])].join(
    '\n',
  );
}

/** The README with its table between the markers replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no "${TABLE_START}" … "${TABLE_END}" markers`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The table the README holds now (between the markers). */
export function tableIn(readme: string): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + TABLE_START.length, end).trim();
}
