// What the guard prevents, measured (docs/design.md §Outcomes): every scenario of scenarios.ts, in
// each configuration of configurations.ts, through Copilot Chat's real agent loop with the scripted
// agent. Each test records what it measured (table.ts `Outcome`) into $EDITGUARD_OUTCOMES_FILE, from
// which `npm run outcomes` (scripts/outcomes.mjs) writes test/outcomes/results.json and the README's
// table; the test then holds the configuration to its promise. $EDITGUARD_OUTCOMES_RUNS runs each
// scenario that many times (the quick form in `npm test`: once).
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { COPILOT_ID, safeJson } from '../copilot/agent';
import { copilotSuiteHooks } from '../copilot/suite';
import { setGuardBuiltinTools, waitUntilHooksAreLive } from '../copilot/turns';
import { CONFIGURATIONS } from './configurations';
import { runScenario } from './run';
import { SCENARIOS } from './scenarios';
import type { Outcome } from './table';

const RUNS = Math.max(1, Number(process.env.EDITGUARD_OUTCOMES_RUNS) || 1);

/**
 * Adds the outcomes to the run's file (read and written whole: the tests run one at a time), with
 * what the table needs to name them: the versions, the configurations and the scenarios.
 */
function record(outcomes: Outcome[]): void {
  const file = process.env.EDITGUARD_OUTCOMES_FILE ?? (process.env.RUN_DIR ? path.join(process.env.RUN_DIR, 'outcomes.json') : undefined);
  if (!file) return;
  const earlier: Outcome[] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).outcomes : [];
  const run = {
    vscode: vscode.version,
    copilotChat: vscode.extensions.getExtension(COPILOT_ID)?.packageJSON.version,
    configurations: CONFIGURATIONS.map(({ id, label }) => ({ id, label })),
    scenarios: SCENARIOS.map(({ id, title, source, kind, what }) => ({ id, title, source, kind, what })),
    outcomes: [...earlier, ...outcomes],
  };
  fs.writeFileSync(file, JSON.stringify(run, null, 1));
}

suite("What the guard prevents: failure sequences from the trackers, replayed in Copilot's agent loop", function () {
  copilotSuiteHooks();

  // the bridge-on configuration first: with agent turns before the hooks file exists, Copilot has been
  // seen not to run it (test/copilot/guardedAgent.test.ts)
  for (const config of [...CONFIGURATIONS].sort((a, b) => Number(b.bridge) - Number(a.bridge))) {
    suite(config.label, function () {
      suiteSetup(async function () {
        await setGuardBuiltinTools(config.bridge);
        // off: the bridge is stopped, so a hooks file Copilot still holds exits at once, unchecked
        if (config.bridge) await waitUntilHooksAreLive();
      });

      for (const scenario of SCENARIOS) {
        test(`${config.id}: ${scenario.id} — ${scenario.title}`, async () => {
          const outcomes: Outcome[] = [];
          for (let run = 1; run <= RUNS; run++) outcomes.push(await runScenario(scenario, config, run));
          record(outcomes);
          for (const o of outcomes) {
            const seen = safeJson(o);
            if (config.id === 'baseline') {
              // Copilot as shipped: it never refuses, and it loses data exactly where the trackers say it does
              assert.strictEqual(o.blocks, 0, seen);
              if (scenario.baseline === 'loses')
                assert.ok(o.wrongFiles.length > 0, `Copilot as shipped ${scenario.what}; here nothing was lost: ${seen}`);
              else assert.deepStrictEqual(o.wrongFiles, [], seen);
            } else {
              assert.deepStrictEqual(o.wrongFiles, [], `nothing is lost or corrupted: ${seen}`);
              assert.strictEqual(o.falseBlocks, 0, `no false alarm: ${seen}`);
              // a stop: a refusal, or a guarded replace that would not guess where an inexact quote goes
              assert.ok(o.extraCalls <= o.blocks + o.failures, `at most one extra call per stop: ${seen}`);
              if (scenario.kind === 'failure') assert.ok(o.blocks + o.failures > 0, `the guard stopped the failure: ${seen}`);
            }
          }
        });
      }
    });
  }
});
