// Test entry the extension host loads for the Copilot suite (extensionTestsPath = out/test/copilot/index.js,
// see scripts/host/run-copilot.sh): runs every *.test.js beside it with mocha and records each test's
// outcome into $EDITGUARD_RESULT_FILE, which the runner turns into its PASS/FAIL lines and summary.
// Same shape as test/integration/index.ts; longer timeouts (a Copilot turn takes seconds).
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

interface TestRecord {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  ms?: number;
  err?: string;
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 180000,
    grep: process.env.EDITGUARD_TEST_GREP || undefined,
  });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  const resultFile = process.env.EDITGUARD_RESULT_FILE;
  const records: TestRecord[] = [];
  const save = () => {
    if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(records, null, 1));
  };
  return new Promise((resolve, reject) => {
    let runner: Mocha.Runner;
    try {
      runner = mocha.run((failures) => {
        save();
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
    } catch (err) {
      records.push({ title: 'loading the test files', state: 'failed', err: String((err as Error)?.stack ?? err) });
      save();
      reject(err);
      return;
    }
    runner.on('pass', (t) => {
      records.push({ title: t.fullTitle(), state: 'passed', ms: t.duration });
      save();
    });
    runner.on('fail', (t, err: unknown) => {
      const e = err as { stack?: string; message?: string } | undefined;
      // a failing suiteSetup/hook has no test of its own: its title says which hook
      records.push({ title: t.fullTitle(), state: 'failed', ms: t.duration, err: String(e?.stack ?? e?.message ?? err) });
      save();
    });
    runner.on('pending', (t) => {
      records.push({ title: t.fullTitle(), state: 'skipped' });
      save();
    });
  });
}
