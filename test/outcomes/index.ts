// Test entry the extension host loads for the outcomes suite (run by scripts/outcomes.mjs through
// scripts/host/run-copilot.sh, with EDITGUARD_EXT_TESTS = out/test/outcomes/index.js).
import { runTestsIn } from '../shared/mochaEntry';

export function run(): Promise<void> {
  return runTestsIn(__dirname, 600_000);
}
