// Test entry the extension host loads for the soak (scripts/soak.mjs runs it through scripts/host/run-integration.sh,
// with EDITGUARD_EXT_TESTS = out/test/soak/index.js): every *.test.js beside it, with mocha. Each run lasts
// EDITGUARD_SOAK_SECONDS; its bound leaves it that long and five minutes more to wind down and check.
import { runTestsIn } from '../shared/mochaEntry';
import { SOAK } from './settings';

export function run(): Promise<void> {
  return runTestsIn(__dirname, SOAK.seconds * 1000 + 300_000);
}
