// Test entry the extension host loads (extensionTestsPath = out/test/integration/index.js): every
// *.test.js beside it, with mocha.
import { runTestsIn } from '../shared/mochaEntry';

/**
 * Each test's own bound. Far above any quiet-machine time (the slowest test, the 50 MiB write, takes
 * ~20 s quiet and ~60 s with both cores busy), so only a test that is stuck reaches it; there is no
 * bound on the whole suite (scripts/host/drive.js stops only a host that shows no progress at all).
 */
const TEST_LIMIT_MS = 300_000;

export function run(): Promise<void> {
  return runTestsIn(__dirname, TEST_LIMIT_MS);
}
