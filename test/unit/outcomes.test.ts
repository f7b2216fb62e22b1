// The outcomes suite's pure parts (test/outcomes): the edits its scripted agent makes, how it reads
// what the guard's results show (against the core's own refusals and no-match texts, not copies of
// them), the README table made from results.json, and that the README holds the table of the
// committed results.json, whose figures keep the promise the table states.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CallContext } from '../../src/core/ports';
import { appendAsReplace, changeLine, changeLines, createFile, patchPart } from '../outcomes/edits';
import { asksTheUserToSave, shownOf, splicedInto, textOfRead } from '../outcomes/shown';
import { unsavedInEditorHeadline } from '../../src/core/messages';
import {
  DETAIL_TABLES,
  detailTables,
  type Outcome,
  outcomesTable,
  README_TABLE,
  type Results,
  tableIn,
  withTable,
} from '../outcomes/table';
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
  agent: 'one',
  kind: 'failure',
  wrongFiles: [],
  blocks: 0,
  falseBlocks: 0,
  failures: 0,
  calls: 2,
  extraCalls: 0,
  readsAfterBlankStops: 0,
  wallMs: 1000,
  ...o,
});

const markers = (what: string) =>
  `<!-- ${what}:start (npm run outcomes writes this from test/outcomes/results.json) -->\nold\n<!-- ${what}:end -->`;

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

  test("only the core's refusal that waits on the user's unsaved changes asks the user to save", async () => {
    assert.ok(asksTheUserToSave(unsavedInEditorHeadline('replace', 'a.ts', 'Gemini CLI', true)));
    const t = core();
    t.docs.file(FILE, TEN);
    assert.ok(!asksTheUserToSave((await t.replace('line 3', 'line three')).text), 'a not-read refusal: the agent retries at once');
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

  test('the table: one row per agent and guarded configuration, beside what it lost unguarded; the detail shows every scenario, and the ones not run with why', () => {
    const results: Results = {
      generated: '2026-01-01T00:00:00.000Z',
      runsPerScenario: 1,
      suiteSeconds: 60,
      vscode: '1.0.0',
      agents: [
        {
          id: 'one',
          name: 'Agent One',
          version: '2.0',
          configurations: [
            { id: 'bare', label: 'Agent One, unguarded', guarded: false },
            { id: 'gate', label: 'its hooks', guarded: true },
          ],
          cannot: { p: 'no parallel calls' },
          keeps: { k: 'it checks the file itself' },
        },
      ],
      scenarios: [
        { id: 'f', title: 'A failure', source: 'a tracker', kind: 'failure', what: 'a loss' },
        { id: 'k', title: 'Kept anyway', source: 'a forum', kind: 'failure', what: 'a loss' },
        { id: 'p', title: 'In parallel', source: 'a thread', kind: 'failure', what: 'a loss' },
        { id: 'a', title: 'A false alarm', source: 'another', kind: 'false-alarm', what: 'a block' },
      ],
      outcomes: [
        outcome({ scenario: 'f', configuration: 'bare', wrongFiles: ['x.ts', 'y.ts'] }),
        outcome({ scenario: 'f', configuration: 'gate', blocks: 1, extraCalls: 1, wallMs: 2500 }),
        outcome({ scenario: 'k', configuration: 'bare', failures: 1, extraCalls: 1 }),
        outcome({ scenario: 'k', configuration: 'gate', blocks: 1 }),
        outcome({ scenario: 'a', configuration: 'bare', kind: 'false-alarm' }),
        outcome({ scenario: 'a', configuration: 'gate', kind: 'false-alarm', blocks: 1, falseBlocks: 1, extraCalls: 1, wallMs: 1500 }),
      ],
    };
    const [caption, , ...rows] = outcomesTable(results).split('\n');
    assert.match(caption, /^\*One run of each scenario in each configuration, 2026-01-01, VS Code 1\.0\.0\. /);
    assert.match(caption, /\(docs\/how-it-works\.md#the-outcomes-scenario-by-scenario\)\.\*$/);
    assert.strictEqual(rows.length, 3, 'a header, its rule, one row');
    assert.strictEqual(
      rows[2],
      '| Agent One 2.0 | its hooks | 3 of 4 | 2 files in 1 of 2 | **0 files** | 1 false block | 0.67 | 1.67× |',
      'the unguarded loss counted in files and scenarios; extra calls over blocks; summed median times',
    );
    const detail = detailTables(results).split('\n');
    assert.strictEqual(detail[0], '#### Agent One 2.0');
    assert.strictEqual(detail[2], '| What happens | Documented in | Agent One, unguarded | its hooks |');
    assert.strictEqual(detail[4], '| A failure | a tracker | **lost** · 1.0 s | kept, 1 block, +1 call · 2.5 s |');
    assert.strictEqual(
      detail[5],
      '| Kept anyway | a forum | kept, 1 failed call, +1 call · 1.0 s (it checks the file itself) | kept, 1 block · 1.0 s |',
      'what an unguarded agent keeps, with why',
    );
    assert.strictEqual(detail[6], '| In parallel | a thread | not run: no parallel calls | not run: no parallel calls |');
    assert.strictEqual(detail[7], '| A false alarm | another | no block · 1.0 s | **1 false block**, 1 block, +1 call · 1.5 s |');
    const readme = withTable(`# R\n${markers(README_TABLE)}\n`, 'new');
    assert.strictEqual(tableIn(readme), 'new');
    assert.strictEqual(tableIn(readme, DETAIL_TABLES), undefined, 'each table between its own markers');
    assert.throws(() => withTable('# no markers', 'new'), /markers/);
  });

  test("the README's table and how-it-works' detail are the tables of test/outcomes/results.json, whose figures keep the promise they state", () => {
    const results: Results = JSON.parse(fs.readFileSync(path.join(repo, 'test', 'outcomes', 'results.json'), 'utf8'));
    const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
    const howItWorks = fs.readFileSync(path.join(repo, 'docs', 'how-it-works.md'), 'utf8');
    assert.strictEqual(tableIn(readme), outcomesTable(results), 'run `npm run outcomes`: it writes both from one run');
    assert.strictEqual(tableIn(howItWorks, DETAIL_TABLES), detailTables(results), 'run `npm run outcomes`: it writes both from one run');
    for (const agent of results.agents) {
      for (const s of results.scenarios) {
        for (const c of agent.configurations) {
          const runs = results.outcomes.filter((o) => o.agent === agent.id && o.scenario === s.id && o.configuration === c.id);
          assert.strictEqual(
            runs.length,
            s.id in agent.cannot || s.id in (c.cannot ?? {}) ? 0 : results.runsPerScenario,
            `${agent.id} ${c.id} ${s.id}: every run recorded`,
          );
          for (const o of runs) {
            if (!c.guarded) continue;
            assert.deepStrictEqual([o.wrongFiles, o.falseBlocks], [[], 0], `${agent.id} ${c.id} ${s.id}`);
            assert.ok(
              o.extraCalls - o.readsAfterBlankStops <= o.blocks + o.failures,
              `${agent.id} ${c.id} ${s.id}: at most one extra call per stop`,
            );
          }
        }
      }
      const losses = results.outcomes.filter(
        (o) => o.agent === agent.id && !agent.configurations.find((c) => c.id === o.configuration)?.guarded && o.wrongFiles.length > 0,
      );
      assert.ok(losses.length > 0, `${agent.id}: unguarded, it loses data somewhere, or its row shows nothing`);
    }
  });
});
