// Test entry the extension host loads for the harness suite (extensionTestsPath = out/test/harness/index.js,
// see scripts/host/run-harness.sh): every *.test.js beside it, with mocha; longer timeouts, since a harness
// turn takes seconds and the first one starts the Agent Host.
import { runTestsIn } from '../shared/mochaEntry';

export function run(): Promise<void> {
  return runTestsIn(__dirname, 180_000);
}
