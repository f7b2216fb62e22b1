// Test entry the extension host loads (extensionTestsPath = out/test/integration/index.js): every
// *.test.js beside it, with mocha.
import { runTestsIn } from '../shared/mochaEntry';

export function run(): Promise<void> {
  return runTestsIn(__dirname, 60_000);
}
