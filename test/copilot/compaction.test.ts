// The ways Copilot Chat 0.67 compacts a chat, in its real agent loop, against the gate's read marks
// (docs/compaction.md). After a compaction the model holds a summary, not the text it read, so its next
// edit of a file read before should need a fresh read. The gate learns of a compaction only from
// Copilot's PreCompact hook (src/hooks/hookRouter.ts), and only the foreground path runs it (builtinTools.test.ts
// "a compaction of the chat forgets its marks …"). The tests here pin the three paths that run no hook at
// all, so the limit in docs/agents.md stays measured and a Copilot that starts running one makes them fail:
//   - `/compact`: Copilot summarizes with a prompt context that has no request, hence no hooks;
//   - background compaction (started at ~80% of the context, applied at a later request of the turn);
//   - a request that no longer fits while a background compaction is in progress: Copilot waits for that
//     summary and applies it instead of compacting in the foreground (the fake model holds its answer).
// Nothing is faked but the model.
import * as vscode from 'vscode';
import * as assert from 'assert';
import { logMark } from './logs';
import {
  agentTurn,
  diskText,
  FAKE_VENDOR,
  fakeModel,
  makeFileAt,
  marksFor,
  ModelRequest,
  safeJson,
  Step,
  TestFile,
  waitFor,
} from './agent';
import { copilotSuiteHooks } from './suite';
import { DENIED, setGuardBuiltinTools, waitUntilHooksAreLive } from './turns';

const models = () => fakeModel().MODELS;
/** the fake model's answer to a compaction request (test/copilot/fake-model/extension.js) */
const FAKE_SUMMARY = 'files read so far are no longer in context';
/** what our extension logs when PreCompact reaches it (src/hooks/hookRouter.ts) */
const FORGOT = /is being compacted: forgot its read marks/;

const compactionsSince = (n: number) =>
  fakeModel()
    .requests.slice(n)
    .filter((r) => (r as { compaction?: boolean }).compaction);
const textOfRequest = (req: ModelRequest) => req.messages.flatMap((m) => m.parts.map((p) => (p.type === 'text' ? p.text : ''))).join('\n');
const replaceResult = (req: ModelRequest) =>
  req.toolResults.filter((r) => r.name === 'replace_string_in_file').at(-1)?.text ?? '(no result)';
const replaceKeep = (f: TestFile): Step => ({
  tool: 'replace_string_in_file',
  input: { filePath: f.abs, oldString: 'keep', newString: 'kept' },
});
const markOf = async (f: TestFile) => waitFor(async () => (await marksFor(f.uri)).length || undefined, `the read mark of ${f.rel}`, 10000);

/** `/compact` in the chat view, in agent mode, as a user types it; resolves when Copilot has answered. */
async function slashCompact(): Promise<unknown> {
  return vscode.commands.executeCommand('workbench.action.chat.open', {
    query: '/compact',
    mode: 'agent',
    blockOnResponse: true,
    modelSelector: { vendor: FAKE_VENDOR, id: models().sonnet },
  });
}

/**
 * Turn 1 reads the file (marked), `/compact` in the same chat, turn 2 replaces in the unchanged file.
 * `compactions`: the model's summary requests of the `/compact`; `logs`: what each log gained from it.
 */
async function slashCompactTurns(options: { retry?: boolean } = {}) {
  const target = makeFileAt('compaction/slash.txt', 'keep\nme\n');
  await agentTurn(
    'slash-read',
    [{ tool: 'read_file', input: { filePath: target.abs, startLine: 1, endLine: 2 } }, { text: 'read.' }],
    'Read the file.',
    { model: models().sonnet },
  );
  await markOf(target);
  const requestsBefore = fakeModel().requests.length;
  const mark = logMark();
  const answer = await slashCompact();
  const compactions = compactionsSince(requestsBefore).length;
  const logs = mark.since();
  const marksAfterCompact = (await marksFor(target.uri)).length;
  let edit = '';
  let retried = '';
  await agentTurn(
    'slash-edit',
    [
      replaceKeep(target),
      (req) => ((edit = replaceResult(req)), options.retry ? replaceKeep(target) : { text: 'done' }),
      (req) => ((retried = replaceResult(req)), { text: 'done' }),
    ],
    'Edit the file.',
    { model: models().sonnet },
  );
  return { target, answer, compactions, logs, marksAfterCompact, edit, retried };
}

const LINES = 3000;
const CHUNK = 60;

/**
 * One long turn of the small model (30 000 tokens, ~15 000 of them Copilot's tool schemas): read_file of
 * the target (marked), then reads of a big file, `linesOfRead(compactionsSoFar)` lines each (~1 000
 * tokens per 60), until a request carries the fake model's summary in place of the reads (Copilot
 * applied a compaction); then a replace in the target. `mark`: where the logs are read from.
 */
async function readUntilSummaryTurn(
  tag: string,
  name: string,
  bigName: string,
  linesOfRead: (compactionsSoFar: number) => number,
  mark = logMark(),
) {
  const requestsBefore = fakeModel().requests.length;
  const target = makeFileAt(`compaction/${name}.txt`, 'keep\nme\n');
  const big = makeFileAt(
    `compaction/${bigName}.txt`,
    Array.from({ length: LINES }, (_, i) => `line ${String(i + 1).padStart(4, '0')}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join(
      '\n',
    ) + '\n',
  );
  let markedBefore = 0;
  let next = 1;
  let reads = 0;
  let summaryAfterReads = -1;
  let guardLogAtEdit = '';
  let edit: string | undefined;
  const step = async (req: ModelRequest): Promise<Step> => {
    if (edit !== undefined) return { text: 'done' };
    if (summaryAfterReads >= 0) {
      edit = replaceResult(req);
      return { text: 'done' };
    }
    if (textOfRequest(req).includes(FAKE_SUMMARY)) {
      summaryAfterReads = reads;
      guardLogAtEdit = mark.since().guard;
      return replaceKeep(target);
    }
    if (next > LINES) return { text: 'never compacted' };
    const size = linesOfRead(compactionsSince(requestsBefore).length);
    const read: Step = { tool: 'read_file', input: { filePath: big.abs, startLine: next, endLine: next + size - 1 } };
    next += size;
    reads++;
    return read;
  };
  await agentTurn(
    tag,
    [
      { tool: 'read_file', input: { filePath: target.abs, startLine: 1, endLine: 2 } },
      async (req) => {
        markedBefore = (await markOf(target).catch(() => 0)) as number;
        return step(req);
      },
      ...Array.from({ length: LINES / CHUNK + 5 }, () => step),
    ],
    'Read the files, then edit.',
    { model: models().small },
  );
  return {
    target,
    markedBefore,
    reads,
    summaryAfterReads,
    guardLogAtEdit,
    edit,
    compactions: compactionsSince(requestsBefore).length,
    logs: mark.since(),
  };
}

/**
 * 60-line reads: the context crosses Copilot's background threshold (78–82%) before a request no
 * longer fits (which would be the foreground path, with PreCompact).
 */
const backgroundCompactionTurn = () => readUntilSummaryTurn('background-compact', 'background', 'big', () => CHUNK);

/** The fake model's test-only hold on compaction answers (test/copilot/fake-model/extension.js). */
const holdCompactions = (fn: ((r: ModelRequest) => Promise<unknown>) | undefined) =>
  (fakeModel() as unknown as { holdCompactions(f: typeof fn): void }).holdCompactions(fn);

/**
 * Like backgroundCompactionTurn, but the fake model holds its summary until Copilot logs that it waits
 * for it: once a compaction request has come, the model reads 350 lines at once, so the next request no
 * longer fits while the background compaction is still in progress. Copilot then waits for that summary
 * and applies it instead of compacting in the foreground (docs/compaction.md §4).
 */
async function fullWhileBackgroundTurn() {
  const mark = logMark();
  let waited = false;
  holdCompactions(async () => {
    // released when Copilot says it waits for this summary; or, should it never, after a while (the test then fails on the log)
    waited =
      (await waitFor(
        () => /waiting on in-progress background compaction/.test(mark.since().copilot) || undefined,
        'Copilot to wait for the background summary',
        60000,
      ).catch(() => false)) === true;
  });
  let bigRead = false;
  const linesOfRead = (compactions: number) => {
    if (compactions === 0 || bigRead) return CHUNK;
    bigRead = true;
    return 350;
  };
  try {
    const r = await readUntilSummaryTurn('full-while-background', 'full-while-background', 'big2', linesOfRead, mark);
    return { ...r, waited, bigRead, summarySeen: r.summaryAfterReads >= 0 };
  } finally {
    holdCompactions(undefined);
  }
}

/** Copilot's [ConversationHistorySummarizer] lines (debug level) and the hooks it ran, from a slice of its logs. */
function evidence(logs: { copilot: string; hooks: string }) {
  return {
    summarizer: logs.copilot.split('\n').filter((l) => /ConversationHistorySummarizer/.test(l)),
    hooksRun: [...logs.hooks.matchAll(/"hook_event_name":"(\w+)"/g)].map((m) => m[1]),
  };
}

suite("Compaction paths that run no hook (Copilot): the chat's marks survive them", function () {
  let logLevel: string | undefined;
  copilotSuiteHooks(async () => {
    // Copilot's [ConversationHistorySummarizer] lines are debug: they tell its compaction paths apart
    logLevel = await vscode.commands.executeCommand<string>('_extensionTests.getLogLevel');
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'debug');
    await setGuardBuiltinTools(true);
    await waitUntilHooksAreLive();
  });

  suiteTeardown(async () => {
    if (logLevel) await vscode.commands.executeCommand('_extensionTests.setLogLevel', logLevel);
    // as builtinTools.test.ts leaves it: the later suites run with the setting at its default
    await setGuardBuiltinTools(false);
  });

  test('limit: /compact runs no hook (no PreCompact), so the next built-in edit of a file read before it passes without a fresh read', async () => {
    const r = await slashCompactTurns();
    const ev = evidence(r.logs);
    assert.ok(r.compactions > 0, `/compact asked the model for a summary (chat.open answered ${safeJson(r.answer)})`);
    assert.ok(
      ev.summarizer.some((l) => /\[full\] summarization prompt rendered/.test(l)),
      `Copilot's summarizer ran:\n${ev.summarizer.join('\n')}`,
    );
    assert.deepStrictEqual(
      ev.hooksRun,
      [],
      'Copilot ran no hook for /compact (a PreCompact here means the limit is gone: forget the marks on it, as for the foreground path)',
    );
    assert.doesNotMatch(r.logs.guard, FORGOT);
    assert.ok(r.marksAfterCompact > 0, 'the read mark outlived /compact');
    assert.doesNotMatch(r.edit, DENIED, r.edit);
    assert.strictEqual(diskText(r.target), 'kept\nme\n', `the edit from the summary landed: ${r.edit}`);
  });

  test('limit: background compaction runs no hook, so an edit of a file read before it, later in the same turn, passes without a fresh read', async () => {
    const r = await backgroundCompactionTurn();
    const ev = evidence(r.logs);
    const why = safeJson({ reads: r.reads, summaryAfterReads: r.summaryAfterReads, compactions: r.compactions, ...ev });
    assert.ok(r.markedBefore > 0, 'the first read_file marked the file');
    assert.ok(r.summaryAfterReads >= 0, `a later request of the turn carried the summary: ${why}`);
    // the background path, and not the foreground one: started after a request that fitted, applied before a later one
    assert.ok(
      ev.summarizer.some((l) => /starting background compaction/.test(l)),
      why,
    );
    assert.ok(
      ev.summarizer.some((l) => /applying completed background summary/.test(l)),
      why,
    );
    assert.ok(!ev.summarizer.some((l) => /\[(full|simple)\] summarization prompt rendered/.test(l)), `no foreground summary: ${why}`);
    assert.ok(!ev.hooksRun.includes('PreCompact'), `no PreCompact ran (one here means the limit is gone): ${why}`);
    assert.doesNotMatch(r.guardLogAtEdit, FORGOT);
    assert.doesNotMatch(r.edit ?? '', DENIED, r.edit);
    assert.strictEqual(diskText(r.target), 'kept\nme\n', `the edit from the summary landed: ${r.edit}`);
  });

  test('limit: a request that no longer fits while a background compaction runs takes that summary and runs no hook, so the edit after it passes without a fresh read', async () => {
    const r = await fullWhileBackgroundTurn();
    const ev = evidence(r.logs);
    const why = safeJson({ waited: r.waited, bigRead: r.bigRead, summarySeen: r.summarySeen, compactions: r.compactions, ...ev });
    assert.ok(r.markedBefore > 0, 'the first read_file marked the file');
    assert.ok(r.summarySeen, `a later request of the turn carried the summary: ${why}`);
    assert.ok(
      ev.summarizer.some((l) => /starting background compaction/.test(l)),
      why,
    );
    assert.ok(
      ev.summarizer.some((l) => /budget exceeded — waiting on in-progress background compaction/.test(l)),
      why,
    );
    assert.ok(
      ev.summarizer.some((l) => /background compaction applied after budget exceeded/.test(l)),
      why,
    );
    assert.ok(!ev.summarizer.some((l) => /\[(full|simple)\] summarization prompt rendered/.test(l)), `no foreground summary: ${why}`);
    assert.ok(!ev.hooksRun.includes('PreCompact'), `no PreCompact ran (one here means the limit is gone): ${why}`);
    assert.doesNotMatch(r.guardLogAtEdit, FORGOT);
    assert.doesNotMatch(r.edit ?? '', DENIED, r.edit);
    assert.strictEqual(diskText(r.target), 'kept\nme\n', `the edit from the summary landed: ${r.edit}`);
  });

  test('the conservative alternative, editGuard.readKeepsMark sameTurn: after /compact the next edit of a file read before is refused (read-expired) with its content, and the retry passes', async () => {
    const config = vscode.workspace.getConfiguration('editGuard', null);
    await config.update('readKeepsMark', 'sameTurn', vscode.ConfigurationTarget.Workspace);
    try {
      const r = await slashCompactTurns({ retry: true });
      assert.ok(r.compactions > 0, 'the /compact ran');
      assert.match(r.edit, DENIED, r.edit);
      assert.match(
        r.edit,
        /You read compaction\/slash\.txt in an earlier turn, and this workspace counts a read only within its turn \(editGuard\.readKeepsMark = sameTurn\)/,
        r.edit,
      );
      assert.match(r.edit, /1\tkeep/, 'the refusal shows the content, which counts as a read');
      assert.doesNotMatch(r.retried, DENIED, r.retried);
      assert.strictEqual(diskText(r.target), 'kept\nme\n', 'the retry, based on what the refusal showed, landed');
    } finally {
      await config.update('readKeepsMark', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
