// Test entry the extension host loads for the Copilot suite (extensionTestsPath =
// out/test/copilot/index.js, see scripts/host/run-copilot.sh): every *.test.js beside it, with mocha;
// longer timeouts, since a Copilot turn takes seconds.
import { runTestsIn } from '../shared/mochaEntry';

/**
 * Each test's own bound: a Copilot test runs a few real agent turns, 5–30 s on a quiet machine; this is
 * far above that, so only a stuck test reaches it (there is no bound on the whole suite).
 */
const TEST_LIMIT_MS = 600_000;

export function run(): Promise<void> {
  return runTestsIn(__dirname, TEST_LIMIT_MS);
}
