// The outcomes suite's pure parts (test/outcomes): the edits its scripted agent makes, how it reads
// what the guard's results show (against the core's own refusals and no-match texts, not copies of
// them), the README table made from results.json, and that the README holds the table of the
// committed results.json, whose figures keep the promise the table states.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CallContext } from '../../src/core/ports';
import { appendAsReplace, changeLine, changeLines, createFile, patchPart } from '../outcomes/edits';
import { shownOf, splicedInto, textOfRead } from '../outcomes/shown';
import { type Outcome, outcomesTable, type Results, tableIn, withTable } from '../outcomes/table';
import { coreFixture, verbOf } from './memoryDocuments';

const FILE = 'file:///ws/a.ts';
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const repo = path.join(__dirname, '..', '..', '..');

function core() {
  const t = coreFixture();
  const call = (tool: string): CallContext => ({
    tool,
    verb: verbOf(tool),
    session: 'chat',
    turn: 'turn',
    uri: FILE,
    path: 'a.ts',
    arrival: t.store.watermark,
  });
  return {
    ...t,
    read: () => t.tools.read(call('editGuard_readFile'), {}),
    replace: (oldString: string, newString: string) =>
      t.tools.replace(call('editGuard_replaceString'), { oldString, newString, replaceAll: false }),
  };
}

const outcome = (o: Partial<Outcome> & Pick<Outcome, 'scenario' | 'configuration'>): Outcome => ({
  kind: 'failure',
  wrongFiles: [],
  blocks: 0,
  falseBlocks: 0,
  failures: 0,
  calls: 2,
  extraCalls: 0,
  wallMs: 1000,
  ...o,
});

suite('outcomes suite: the scripted agent, what it reads, and the table', () => {
  test('a change is quoted from 3 lines before its first changed line to 3 after its last, and is done once the copy shows it', () => {
    const edit = changeLines(['line 4', (l) => l.replace('4', 'four')], ['line 6', (l) => l.replace('6', 'six')])(TEN);
    assert.deepStrictEqual(edit, {
      kind: 'replace',
      oldString: 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9',
      newString: 'line 1\nline 2\nline 3\nline four\nline 5\nline six\nline 7\nline 8\nline 9',
    });
    assert.strictEqual(changeLine('line 9', (l) => l.replace('9', 'nine'))(TEN)?.kind, 'replace', 'the quote stops at the last line');
    assert.strictEqual(changeLine('line 2', (l) => l)(TEN), undefined, 'nothing to change: done');
    assert.strictEqual(changeLine('line 2', (l) => `${l}!`)(undefined), undefined, 'no copy, no quote');
  });

  test('an append made with a replace quotes the last two lines; a create that finds the file appends unless the text is there', () => {
    assert.deepStrictEqual(appendAsReplace('a\nb\nc\n', 'd\n'), { oldString: 'b\nc\n', newString: 'b\nc\nd\n' });
    assert.deepStrictEqual(createFile('x\n')(undefined), { kind: 'create', text: 'x\n' });
    assert.deepStrictEqual(createFile('x\n')('y\n'), { kind: 'append', text: 'x\n' });
    assert.strictEqual(createFile('x\n')('y\nx\n'), undefined);
  });

  test('a patch part has the changed lines as - and +, the rest as context; a create is an Add File', () => {
    const edit = changeLine('line 5', (l) => l.replace('5', 'five'))(TEN)!;
    const part = patchPart('/ws/a.ts', TEN, edit).split('\n');
    assert.deepStrictEqual(part.slice(0, 2), ['*** Update File: /ws/a.ts', '@@']);
    assert.deepStrictEqual(
      part.filter((l) => /^[-+]/.test(l)),
      ['-line 5', '+line five'],
    );
    assert.strictEqual(part.filter((l) => l.startsWith(' ')).length, 6);
    assert.strictEqual(patchPart('/ws/b.ts', undefined, { kind: 'create', text: 'one\ntwo\n' }), '*** Add File: /ws/b.ts\n+one\n+two');
  });

  test("the core's read and its not-read refusal show the whole text; its changed refusal's diff applies to the copy the agent had", async () => {
    const t = core();
    t.docs.file(FILE, TEN);
    const notRead = (await t.replace('line 3', 'line three')).text;
    assert.deepStrictEqual(shownOf(notRead, 'a.ts', undefined), { text: TEN });
    assert.strictEqual(textOfRead((await t.read()).text), TEN, 'numbered lines, the numbers dropped (right-aligned past 9)');
    t.docs.userEdit(FILE, TEN.replace('line 7', 'line seven'));
    const changed = (await t.replace('line 3', 'line three')).text;
    assert.match(changed, /```diff/);
    assert.deepStrictEqual(shownOf(changed, 'a.ts', TEN), { text: TEN.replace('line 7', 'line seven') });
    assert.strictEqual(shownOf(changed, 'a.ts', 'another copy\n'), undefined, 'a diff that does not apply to the copy: read again');
  });

  test("the core's no-match shows the current lines where it looked: put into the copy at their numbers", async () => {
    const t = core();
    t.docs.file(FILE, TEN);
    await t.read();
    t.docs.userEdit(FILE, TEN.replace('line 3', 'line three'));
    await t.read();
    const stale = changeLine('line 2', (l) => `${l}!`)(TEN)!;
    assert.strictEqual(stale.kind, 'replace');
    const failed = (await t.replace(stale.kind === 'replace' ? stale.oldString : '', 'x')).text;
    assert.match(failed, /^ERROR \(no-match\)/);
    assert.strictEqual(splicedInto(failed, TEN), TEN.replace('line 3', 'line three'));
    assert.strictEqual(splicedInto('ERROR (no-match): read the file again.', TEN), undefined);
  });

  test('the table: a loss and a false block stand out; the totals count files, false blocks and extra calls per stop', () => {
    const results: Results = {
      generated: '2026-01-01T00:00:00.000Z',
      runsPerScenario: 1,
      suiteSeconds: 60,
      vscode: '1.0.0',
      copilotChat: '0.1.0',
      configurations: [
        { id: 'baseline', label: 'Unguarded' },
        { id: 'guarded', label: 'Guarded' },
      ],
      scenarios: [
        { id: 'f', title: 'A failure', source: 'a tracker', kind: 'failure', what: 'a loss' },
        { id: 'a', title: 'A false alarm', source: 'another', kind: 'false-alarm', what: 'a block' },
      ],
      outcomes: [
        outcome({ scenario: 'f', configuration: 'baseline', wrongFiles: ['x.ts'] }),
        outcome({ scenario: 'f', configuration: 'guarded', blocks: 1, extraCalls: 1, wallMs: 2500 }),
        outcome({ scenario: 'a', configuration: 'baseline', kind: 'false-alarm' }),
        outcome({ scenario: 'a', configuration: 'guarded', kind: 'false-alarm', blocks: 1, falseBlocks: 1, extraCalls: 1 }),
      ],
    };
    const [caption, , ...rows] = outcomesTable(results).split('\n');
    assert.strictEqual(
      caption,
      "*One run of each scenario in each configuration, 2026-01-01: Copilot Chat 0.1.0 in VS Code 1.0.0. Counts are per run; a time is the median run's, from the first request to the last answer.*",
    );
    assert.strictEqual(rows[0], '| What happens | Documented in | Unguarded | Guarded |');
    assert.strictEqual(rows[2], '| A failure | a tracker | **lost** · 1.0 s | kept, 1 block, +1 call · 2.5 s |');
    assert.strictEqual(rows[3], '| A false alarm | another | no block · 1.0 s | **1 false block**, 1 block, +1 call · 1.0 s |');
    assert.strictEqual(
      rows[4],
      '| **All scenarios** |  | 1 file lost or corrupted, 0 false blocks, – extra calls per stop | 0 files lost or corrupted, 1 false block, 1.00 extra calls per stop |',
    );
    const readme = withTable(
      '# R\n<!-- outcomes-table:start (npm run outcomes writes this table from test/outcomes/results.json) -->\nold\n<!-- outcomes-table:end -->\n',
      'new',
    );
    assert.strictEqual(tableIn(readme), 'new');
    assert.throws(() => withTable('# no markers', 'new'), /markers/);
  });

  test("the README's table is the table of test/outcomes/results.json, whose figures keep the promise it states", () => {
    const results: Results = JSON.parse(fs.readFileSync(path.join(repo, 'test', 'outcomes', 'results.json'), 'utf8'));
    const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
    assert.strictEqual(tableIn(readme), outcomesTable(results), 'run `npm run outcomes`: it writes both from one run');
    for (const s of results.scenarios) {
      for (const c of results.configurations) {
        const runs = results.outcomes.filter((o) => o.scenario === s.id && o.configuration === c.id);
        assert.strictEqual(runs.length, results.runsPerScenario, `${c.id} ${s.id}: every run recorded`);
        for (const o of runs) {
          if (c.id === 'baseline') continue;
          assert.deepStrictEqual([o.wrongFiles, o.falseBlocks], [[], 0], `${c.id} ${s.id}`);
          assert.ok(o.extraCalls <= o.blocks + o.failures, `${c.id} ${s.id}: at most one extra call per stop`);
        }
      }
    }
    const baselineLosses = results.outcomes.filter(
      (o) => o.configuration === 'baseline' && o.kind === 'failure' && o.wrongFiles.length > 0,
    );
    assert.ok(baselineLosses.length > 0, 'the baseline loses data somewhere, or the table shows nothing');
  });
});
