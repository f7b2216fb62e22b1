// The mocha run inside the extension host, shared by the test entries (test/integration/index.ts,
// test/copilot/index.ts): runs every *.test.js of a folder and records, into $EDITGUARD_RESULT_FILE
// (JSON, `SuiteRecord`), how many tests it is about to run and each test's outcome as it ends, which
// the runner (scripts/host/run-suite.sh) turns into its PASS/FAIL lines and summary. The count comes
// first, so a host that goes away part-way still tells how many tests never ran.
import * as fs from 'fs';
import * as path from 'path';
// mocha is external to the bundle. Mocha 12 is an ES module: require('mocha') gives the class on Node 24
// (code-server) but a namespace object { __esModule, default, Mocha, ... } on Node 22 (Electron);
// esbuild's default-import interop handles both.
import Mocha from 'mocha';

export interface TestRecord {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  ms?: number;
  err?: string;
}

/** What $EDITGUARD_RESULT_FILE holds: the tests mocha was about to run (after the grep), and those that ended. */
export interface SuiteRecord {
  expected: number;
  records: TestRecord[];
}

/** Runs the `*.test.js` files of `dir`; rejects when a test failed. */
export function runTestsIn(dir: string, timeoutMs: number): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: timeoutMs,
    grep: process.env.EDITGUARD_TEST_GREP || undefined,
  });
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(dir, f));

  const resultFile = process.env.EDITGUARD_RESULT_FILE;
  const suite: SuiteRecord = { expected: 0, records: [] };
  const { records } = suite;
  // written at the start and after every test, so a run that dies half-way still shows what ran and what did not;
  // written aside and renamed over, so the runner never reads half a file
  const save = () => {
    if (!resultFile) return;
    fs.writeFileSync(`${resultFile}.tmp`, JSON.stringify(suite, null, 1));
    fs.renameSync(`${resultFile}.tmp`, resultFile);
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
      // e.g. a test file that throws while loading
      records.push({ title: 'loading the test files', state: 'failed', err: String((err as Error)?.stack ?? err) });
      save();
      reject(err);
      return;
    }
    runner.on('start', () => {
      suite.expected = runner.total;
      save();
    });
    runner.on('pass', (t) => {
      records.push({ title: t.fullTitle(), state: 'passed', ms: t.duration });
      save();
    });
    // a failing suiteSetup/hook has no test of its own: its title says which hook
    runner.on('fail', (t, err: unknown) => {
      const e = err as { stack?: string; message?: string } | undefined;
      records.push({ title: t.fullTitle(), state: 'failed', ms: t.duration, err: String(e?.stack ?? e?.message ?? err) });
      save();
    });
    runner.on('pending', (t) => {
      records.push({ title: t.fullTitle(), state: 'skipped' });
      save();
    });
  });
}
