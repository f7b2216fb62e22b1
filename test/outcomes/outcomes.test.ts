// What the guard prevents, measured (docs/design.md §Outcomes): every scenario of scenarios.ts, for
// each agent of agents.ts in each of its configurations, through the agent's own loop with the
// scripted agent. Each test records what it measured (table.ts `Outcome`) into $EDITGUARD_OUTCOMES_FILE, from
// which `npm run outcomes` (scripts/outcomes.mjs) writes test/outcomes/results.json and the README's
// table; the test then holds the configuration to its promise. $EDITGUARD_OUTCOMES_RUNS runs each
// scenario that many times (the quick form in `npm test`: once).
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { activateGuard, revertAndCloseAll, safeJson, startCopilotSuite } from '../copilot/agent';
import { MODEL_URL_ENV } from '../harness/node/protocol';
import { OUTCOME_AGENTS } from './agents';
import { runScenario } from './run';
import { SCENARIOS } from './scenarios';
import type { AgentInfo, Outcome, Results } from './table';

const RUNS = Math.max(1, Number(process.env.EDITGUARD_OUTCOMES_RUNS) || 1);
/**
 * `npm test` holds each guarded configuration to its promise; what the agents as shipped lose (the unguarded
 * configurations: facts about them, the table's other column) is measured by `npm run outcomes` alone.
 */
const GUARDED_ONLY = process.env.EDITGUARD_OUTCOMES_GUARDED_ONLY === '1';

/** The host this run is in (the harness suite's runner gives its extension host the scripted model's address), and its agents. */
const HOST = process.env[MODEL_URL_ENV] ? 'harness' : 'copilot';
const HERE = OUTCOME_AGENTS.filter((a) => (a.host ?? 'copilot') === HOST);

/**
 * Adds the outcomes to the run's file (read and written whole: the tests run one at a time), with
 * what the tables need to name them: the versions, the agents and their configurations, the scenarios.
 * The file may hold another host's agents already (`npm run outcomes` runs both hosts into one file): kept.
 */
function record(outcomes: Outcome[]): void {
  const file = process.env.EDITGUARD_OUTCOMES_FILE ?? (process.env.RUN_DIR ? path.join(process.env.RUN_DIR, 'outcomes.json') : undefined);
  if (!file) return;
  const before: Partial<Results> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const all = [...(before.outcomes ?? []), ...outcomes];
  const infoOf = (a: (typeof OUTCOME_AGENTS)[number]): AgentInfo =>
    HERE.includes(a)
      ? {
          id: a.id,
          name: a.name,
          version: a.version(),
          configurations: a.configurations.map(({ id, label, guarded, cannot }) => ({ id, label, guarded, ...(cannot ? { cannot } : {}) })),
          cannot: a.cannot,
          keeps: a.keeps,
        }
      : before.agents!.find((b) => b.id === a.id)!;
  const run: Omit<Results, 'generated' | 'runsPerScenario' | 'suiteSeconds'> = {
    vscode: vscode.version,
    // the agents that ran (a part of the suite, under EDITGUARD_TEST_GREP, names only its own), in the tables' order
    agents: OUTCOME_AGENTS.filter((a) => all.some((o) => o.agent === a.id)).map(infoOf),
    scenarios: SCENARIOS.map(({ id, title, source, kind, what }) => ({ id, title, source, kind, what })),
    outcomes: all,
  };
  fs.writeFileSync(file, JSON.stringify(run, null, 1));
}

suite("What the guard prevents: failure sequences from the trackers, replayed in each agent's own loop", function () {
  // the harness's host runs no Copilot Chat: its chats are the Agent Host's
  suiteSetup(HOST === 'copilot' ? startCopilotSuite : () => activateGuard().then(() => undefined));
  teardown(revertAndCloseAll);

  for (const agent of HERE) {
    suite(agent.name, function () {
      suiteSetup(() => agent.start());
      suiteTeardown(() => agent.stop());

      for (const config of (agent.runOrder ?? agent.configurations).filter((c) => c.guarded || !GUARDED_ONLY)) {
        suite(config.label, function () {
          suiteSetup(() => agent.configure(config));

          for (const scenario of SCENARIOS.filter((s) => !(s.id in agent.cannot) && !(s.id in (config.cannot ?? {})))) {
            test(`${agent.id} ${config.id}: ${scenario.id} — ${scenario.title}`, async () => {
              const outcomes: Outcome[] = [];
              for (let run = 1; run <= RUNS; run++) outcomes.push(await runScenario(scenario, agent, config, run));
              record(outcomes);
              for (const o of outcomes) {
                const seen = safeJson(o);
                if (!config.guarded) {
                  // the agent as shipped: it never refuses, and it loses data where the trackers say it does,
                  // unless a check of its own keeps the file (a fact about the agent, said in its `keeps`)
                  assert.strictEqual(o.blocks, 0, seen);
                  if (scenario.kind === 'failure' && !(scenario.id in agent.keeps))
                    assert.ok(o.wrongFiles.length > 0, `${agent.name} as shipped ${scenario.what}; here nothing was lost: ${seen}`);
                  else assert.deepStrictEqual(o.wrongFiles, [], seen);
                } else {
                  assert.deepStrictEqual(o.wrongFiles, [], `nothing is lost or corrupted: ${seen}`);
                  assert.strictEqual(o.falseBlocks, 0, `no false alarm: ${seen}`);
                  // a stop: a refusal, or a replace that would not guess where an inexact quote goes; a stop that
                  // showed no text (the agent's own tool's failure, a sibling's write still landing) costs a read as well
                  assert.ok(o.extraCalls - o.readsAfterBlankStops <= o.blocks + o.failures, `at most one extra call per stop: ${seen}`);
                  // (unless it keeps the files without a stop: the merge of a watched shell command)
                  if (scenario.kind === 'failure' && !(scenario.id in agent.keeps) && !scenario.keptWithoutAStop)
                    assert.ok(o.blocks + o.failures > 0, `the guard stopped the failure: ${seen}`);
                }
              }
            });
          }
        });
      }
    });
  }
});
