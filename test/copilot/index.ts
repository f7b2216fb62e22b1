// Test entry the extension host loads for the Copilot suite (extensionTestsPath =
// out/test/copilot/index.js, see scripts/host/run-copilot.sh): every *.test.js beside it, with mocha;
// longer timeouts, since a Copilot turn takes seconds.
import { runTestsIn } from '../shared/mochaEntry';

export function run(): Promise<void> {
  return runTestsIn(__dirname, 180_000);
}
