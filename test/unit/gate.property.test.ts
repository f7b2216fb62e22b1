// Property-based test of the core (issue 3, "Tests"): random sequences of reads, writes, replaces,
// unsaved user edits, disk changes, deletions, mark clears, turn ends, gate toggles, parallel
// batches, edits racing the write and internal gate faults, across two chats, drive the real
// `Guard` over the in-memory DocumentPort and the independent reference model (referenceModel.ts).
//
// Checked after every call:
// 1. status, reason and code agree with the reference model;
// 2. no agent write lands on a version the chat was not shown: the text each successful edit was
//    applied to is, byte for byte, the newest version this chat was shown *in the tool results it
//    had when the call arrived* — reconstructed from the numbered read output, the numbered content
//    of a refusal, or the diff of a refusal applied to the previously shown text — or its own
//    write, as far as editGuard.ownWriteKeepsMark lets that count;
// 3. a blocked or failed write changes nothing (text, disk, dirty flag, no save);
// 4. documents and every chat's newest mark agree with the model.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPatch } from 'diff';
import { type CallContext, Guard, type GuardSettings } from '../../src/core/guard';
import { MarkStore } from '../../src/core/marks';
import type { TextSpanEdit } from '../../src/core/replace';
import type { ToolName, ToolOutcome } from '../../src/core/types';
import { MemoryDocuments, MemoryLog } from './memoryDocuments';
import { type CallSite, type Expected, type Policy, ReferenceModel } from './referenceModel';

const CHATS = ['chat-A', 'chat-B'] as const;
const FILES = ['file:///ws/one.txt', 'file:///ws/two.txt', 'file:///ws/new.txt'] as const;
const NUM_RUNS = Number(process.env.EDITGUARD_PROPERTY_RUNS ?? 10_000);

type Chat = (typeof CHATS)[number];
type File = (typeof FILES)[number];

type Call =
  | { tool: 'read'; chat: Chat; file: File; noTurn: boolean; offset?: number; limit?: number }
  | { tool: 'write'; chat: Chat; file: File; noTurn: boolean; content: string; append: boolean }
  | { tool: 'replace'; chat: Chat; file: File; noTurn: boolean; oldString: string; newString: string; replaceAll: boolean };

type Op =
  | { k: 'batch'; calls: Call[] }
  | { k: 'race'; call: Extract<Call, { tool: 'write' | 'replace' }>; raceText: string }
  | { k: 'fault'; call: Extract<Call, { tool: 'write' | 'replace' }> }
  | { k: 'user'; file: File; text: string }
  | { k: 'disk'; file: File; text: string }
  | { k: 'delete'; file: File }
  | { k: 'clear'; chat?: Chat; file?: File }
  | { k: 'endTurn'; chat: Chat }
  | { k: 'toggle' };

// ---- generators: a small alphabet, so matches, ambiguities and equal texts are frequent ----------

const token = fc.constantFrom('a', 'b', 'c', 'ab', ' ', '\n', '\n', 'a\n', 'b\n');
const text = fc.array(token, { maxLength: 8 }).map((t) => t.join(''));
const needle = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'ab', 'a\nb', 'b\n', 'c', ' ', '\n'), weight: 6 },
  { arbitrary: fc.constantFrom('', 'zz'), weight: 1 },
  { arbitrary: text, weight: 2 },
);
const chat = fc.constantFrom(...CHATS);
const file = fc.constantFrom(...FILES);
const noTurn = fc.boolean().map((b) => b && Math.random() < 0.4); // mostly with a turn id

const readCall = fc.record({
  tool: fc.constant('read' as const),
  chat,
  file,
  noTurn,
  offset: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 1 }),
  limit: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 }),
});
const writeCall = fc.record({ tool: fc.constant('write' as const), chat, file, noTurn, content: text, append: fc.boolean() });
const replaceCall = fc.record({
  tool: fc.constant('replace' as const),
  chat,
  file,
  noTurn,
  oldString: needle,
  newString: needle,
  replaceAll: fc.boolean(),
});
const changeCall = fc.oneof(writeCall, replaceCall);
const anyCall = fc.oneof({ arbitrary: readCall, weight: 2 }, { arbitrary: writeCall, weight: 2 }, { arbitrary: replaceCall, weight: 2 });

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: anyCall.map((c) => ({ k: 'batch' as const, calls: [c] })), weight: 12 },
  { arbitrary: fc.array(anyCall, { minLength: 2, maxLength: 4 }).map((calls) => ({ k: 'batch' as const, calls })), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('race' as const), call: changeCall, raceText: text }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('fault' as const), call: changeCall }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('user' as const), file, text }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('disk' as const), file, text }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), file }), weight: 1 },
  {
    arbitrary: fc.record({ k: fc.constant('clear' as const), chat: fc.option(chat, { nil: undefined }), file: fc.option(file, { nil: undefined }) }),
    weight: 1,
  },
  { arbitrary: fc.record({ k: fc.constant('endTurn' as const), chat }), weight: 3 },
  { arbitrary: fc.constant({ k: 'toggle' as const }), weight: 1 },
);

const scenario = fc.record({
  policy: fc.constantFrom<Policy>('sameTurn', 'sameTurn', 'never', 'always'),
  one: text,
  two: text,
  ops: fc.array(op, { minLength: 1, maxLength: 30 }),
});

// ---- the system under test, with a port that records what each landed edit was applied to -------

interface Applied {
  uri: string;
  before: string;
  after: string;
}

class RecordingDocuments extends MemoryDocuments {
  readonly applied: Applied[] = [];

  override async applyEdits(uri: string, expectedHash: string, edits: readonly TextSpanEdit[], resultHash: string): Promise<boolean> {
    // the racing edit (if any) happens first, as in MemoryDocuments; then the text the edit meets
    const race = this.beforeApply;
    this.beforeApply = undefined;
    race?.(uri);
    const before = this.docs.get(uri)?.text;
    const ok = await super.applyEdits(uri, expectedHash, edits, resultHash);
    if (ok && before !== undefined) this.applied.push({ uri, before, after: this.text(uri) });
    return ok;
  }
}

/** What a chat was shown of a file, newest last: candidate texts (a numbered read cannot tell a final newline). */
interface Shown {
  texts: string[];
  own: boolean;
  turn: string | undefined;
}

const numbered = /^\s*(\d+)\t(.*)$/;

/** The file text a numbered rendering stands for: both with and without a final newline. */
function fromNumbered(output: string): string[] | undefined {
  const rows = output.split('\n').filter((l) => numbered.test(l)).map((l) => numbered.exec(l)![2]);
  if (/ is empty\./.test(output) && rows.length === 0) return [''];
  if (rows.length === 0) return undefined;
  const body = rows.join('\n');
  return [body, `${body}\n`];
}

/** The refusal's unified diff applied to each text the chat had seen before. */
function fromDiff(output: string, previous: string[]): string[] | undefined {
  const m = /```+diff\n([\s\S]*?)\n```+/.exec(output);
  if (!m) return undefined;
  const patch = m[1];
  const out = new Set<string>();
  for (const before of previous) {
    const after = applyPatch(before, patch);
    if (typeof after === 'string') out.add(after);
  }
  return [...out];
}

function same(actual: ToolOutcome, expected: Expected, what: string): void {
  const detail = () => `${what}\nexpected ${JSON.stringify(expected)}\ngot ${JSON.stringify(actual.data)}\n${actual.text}`;
  assert.equal(actual.data.status, expected.status, detail());
  if (expected.status === 'blocked') assert.equal(actual.data.reason, expected.reason, detail());
  if (expected.status === 'error') assert.equal(actual.data.code, expected.code, detail());
  if (expected.status === 'ok') {
    assert.equal(actual.data.created === true, expected.created === true, detail());
    assert.equal(actual.data.failOpen === true, expected.failOpen === true, detail());
  }
}

let sequences = 0;
let operations = 0;
let toolCalls = 0;
const outcomes = new Map<string, number>();

async function runScenario(s: { policy: Policy; one: string; two: string; ops: Op[] }): Promise<void> {
  sequences++;
  const docs = new RecordingDocuments();
  const store = new MarkStore();
  const log = new MemoryLog();
  const settings: GuardSettings = { enabled: true, policy: s.policy, maxReadLines: 2000 };
  const guard = new Guard(store, docs, () => settings, log);
  const model = new ReferenceModel(s.policy);
  docs.file(FILES[0], s.one).file(FILES[1], s.two);
  model.addFile(FILES[0], s.one);
  model.addFile(FILES[1], s.two);

  const turnNo = new Map<Chat, number>(CHATS.map((c) => [c, 1]));
  const turnOf = (c: Call) => (c.noTurn ? undefined : `${c.chat}#turn${turnNo.get(c.chat)}`);
  const shown = new Map<string, Shown[]>();
  const shownKey = (c: string, f: string) => `${c} ${f}`;

  const toolName: Record<Call['tool'], ToolName> = { read: 'editGuard_readFile', write: 'editGuard_writeFile', replace: 'editGuard_replaceString' };
  const ctxOf = (c: Call): CallContext => ({
    tool: toolName[c.tool],
    session: c.chat,
    turn: turnOf(c),
    uri: c.file,
    path: c.file.slice('file:///ws/'.length),
    arrival: store.watermark,
  });
  const run = (c: Call, ctx: CallContext): Promise<ToolOutcome> => {
    switch (c.tool) {
      case 'read':
        return guard.read(ctx, { offset: c.offset, limit: c.limit });
      case 'write':
        return guard.write(ctx, { content: c.content, append: c.append });
      case 'replace':
        return guard.replace(ctx, { oldString: c.oldString, newString: c.newString, replaceAll: c.replaceAll });
    }
  };
  /** The model's prediction; for reads also the text the model says the read showed (and marked). */
  const predict = (c: Call, site: CallSite, opts: { raceText?: string; fault?: boolean } = {}): { expected: Expected; readText?: string } => {
    switch (c.tool) {
      case 'read': {
        const readText = model.files.get(c.file)?.text;
        return { expected: model.read(site, { offset: c.offset, limit: c.limit }), readText };
      }
      case 'write':
        return { expected: model.write(site, c.content, c.append, opts) };
      case 'replace':
        return { expected: model.replace(site, c.oldString, c.newString, c.replaceAll, opts) };
    }
  };
  const snapshotDocs = () => new Map([...docs.docs].map(([u, d]) => [u, { ...d }]));

  /** Runs calls that all arrive at once (one batch of parallel calls), then checks everything. */
  async function batch(calls: Call[], opts: { raceText?: string; fault?: boolean } = {}, trace: string): Promise<void> {
    const before = snapshotDocs();
    const savesBefore = docs.saves;
    const appliedBefore = docs.applied.length;
    const enabled = settings.enabled;
    const arrival = model.watermark;
    const ctxs = calls.map(ctxOf);
    if (opts.raceText !== undefined) {
      const raceText = opts.raceText;
      docs.beforeApply = (uri) => docs.userEdit(uri, raceText);
    }
    guard.faultInjector = opts.fault
      ? () => {
          throw new Error('injected gate fault');
        }
      : undefined;
    const results = await Promise.all(calls.map((c, i) => run(c, ctxs[i])));
    docs.beforeApply = undefined;
    guard.faultInjector = undefined;
    toolCalls += calls.length;

    // 1. agreement with the model, calls taken in arrival order (one lock per file keeps that order)
    const predicted = calls.map((c, i) => predict(c, { session: c.chat, uri: c.file, turn: ctxs[i].turn, arrival }, opts));
    results.forEach((r, i) => {
      same(r, predicted[i].expected, `${trace}\ncall ${i}: ${JSON.stringify(calls[i])}`);
      const label = `${calls[i].tool} ${r.data.status} ${r.data.reason ?? r.data.code ?? (r.data.created ? 'created' : '')}`.trim();
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
    });

    // 3. nothing changes unless something was written (the racing user edit aside)
    const wrote = results.some((r) => r.data.status === 'ok' && r.data.tool !== 'editGuard_readFile');
    if (!wrote && opts.raceText === undefined) {
      assert.deepEqual(snapshotDocs(), before, `${trace}\na batch without a successful write changed a document`);
      assert.equal(docs.saves, savesBefore, `${trace}\na batch without a successful write saved`);
    }

    // which landed edit belongs to which call: per file, edits land in the calls' arrival order
    const landed = docs.applied.slice(appliedBefore);
    const landedCalls = calls.map((c, i) => ({ c, i })).filter(({ c, i }) => c.tool !== 'read' && results[i].data.status === 'ok' && !results[i].data.created);
    assert.equal(landed.length, landedCalls.length, `${trace}\nevery ok write on an existing file is exactly one applied edit`);
    const landedByCall = new Map<number, Applied>();
    for (const { c, i } of landedCalls) {
      const at = landed.findIndex((a) => a.uri === c.file);
      assert.ok(at >= 0, `${trace}\ncall ${i} reported ok but no edit of ${c.file} landed`);
      landedByCall.set(i, landed.splice(at, 1)[0]);
    }

    // 2. every landed edit met the newest version its chat had been shown before the call arrived
    if (enabled && !opts.fault) {
      for (const { c, i } of landedCalls) {
        const edit = landedByCall.get(i)!;
        const history = shown.get(shownKey(c.chat, c.file)) ?? [];
        const last = history[history.length - 1];
        const why = `${trace}\ncall ${i} ${JSON.stringify(c)} landed on ${JSON.stringify(edit.before)}; newest shown: ${JSON.stringify(last)}`;
        assert.ok(last, `${why}\n(the chat was shown nothing of this file)`);
        assert.ok(last.texts.includes(edit.before), `${why}\n(the edit met a text the chat was not shown)`);
        if (last.own) assert.ok(model.ownWriteCounts(last.turn, ctxs[i].turn), `${why}\n(an own write counted against ownWriteKeepsMark=${s.policy})`);
      }
    }

    // the chat now has these results: update what each chat was shown, in arrival order
    const atArrival = new Map([...shown].map(([k, h]) => [k, h[h.length - 1]?.texts ?? []]));
    results.forEach((r, i) => {
      const c = calls[i];
      const k = shownKey(c.chat, c.file);
      const history = shown.get(k) ?? [];
      let entry: Shown | undefined;
      if (c.tool === 'read' && r.data.status === 'ok') {
        const readText = predicted[i].readText!;
        if (c.offset === undefined && c.limit === undefined) {
          // a whole read: what it showed is reconstructable, and its mark is of exactly that text
          const texts = fromNumbered(r.text);
          assert.ok(texts?.includes(readText), `${trace}\ncall ${i}: the read showed ${JSON.stringify(texts)}, not the document text ${JSON.stringify(readText)}\n${r.text}`);
          entry = { texts: texts!, own: false, turn: undefined };
        } else {
          // a ranged read shows part of the text; by rule 1 it counts for the whole
          entry = { texts: [readText], own: false, turn: undefined };
        }
      } else if (r.data.status === 'blocked') {
        // "what you last saw": the version this call was based on (the newest shown when it
        // arrived) or, in a batch, the newest including earlier results of the batch
        const previous = [...new Set([...(atArrival.get(k) ?? []), ...(history[history.length - 1]?.texts ?? [])])];
        const texts = fromNumbered(r.text) ?? fromDiff(r.text, previous) ?? (/Only line endings or invisible characters changed/.test(r.text) ? previous : undefined);
        assert.ok(texts && texts.length > 0, `${trace}\ncall ${i}: a refusal must show the numbered content or a diff that applies to what the chat saw last\n${r.text}\nlast seen: ${JSON.stringify(previous)}`);
        entry = { texts, own: false, turn: undefined };
      } else if (r.data.status === 'ok' && c.tool !== 'read') {
        const after = r.data.created ? (c as { content: string }).content : landedByCall.get(i)!.after;
        entry = { texts: [after], own: true, turn: ctxs[i].turn };
      }
      if (entry) shown.set(k, [...history, entry]);
    });

    // 4. documents and newest marks agree with the model
    for (const f of FILES) {
      const m = model.files.get(f);
      const d = docs.docs.get(f);
      assert.deepEqual(d && { ...d }, m && { ...m }, `${trace}\ndocument ${f} differs from the model`);
      for (const ch of CHATS) {
        const real = store.newest(ch, f);
        const want = model.newest(ch, f);
        assert.deepEqual(real && { hash: real.hash, origin: real.origin }, want && { hash: want.hash, origin: want.origin }, `${trace}\nnewest mark of ${ch} for ${f}`);
      }
    }
  }

  const trace: string[] = [`policy ${s.policy}; one=${JSON.stringify(s.one)} two=${JSON.stringify(s.two)}`];
  for (const o of s.ops) {
    operations++;
    trace.push(JSON.stringify(o));
    const t = trace.join('\n');
    switch (o.k) {
      case 'batch':
        await batch(o.calls, {}, t);
        break;
      case 'race':
        await batch([o.call], { raceText: o.raceText }, t);
        break;
      case 'fault': {
        // rule 7: the gate's own failure lets the write through, and it is logged
        const existed = model.files.has(o.call.file);
        const errorsBefore = log.lines.filter((l) => l.startsWith('error ')).length;
        await batch([o.call], { fault: true }, t);
        const errors = log.lines.filter((l) => l.startsWith('error ')).slice(errorsBefore);
        if (existed) assert.ok(errors.some((l) => /injected gate fault/.test(l)), `${t}\nthe gate fault was not logged: ${JSON.stringify(log.lines.slice(-3))}`);
        else assert.equal(errors.length, 0, `${t}\na create does not consult the gate`);
        break;
      }
      case 'user':
        if (docs.docs.has(o.file)) docs.userEdit(o.file, o.text);
        model.userEdit(o.file, o.text);
        break;
      case 'disk':
        if (docs.docs.has(o.file)) docs.diskChange(o.file, o.text);
        else docs.file(o.file, o.text);
        model.diskChange(o.file, o.text);
        break;
      case 'delete':
        docs.docs.delete(o.file);
        model.deleteFile(o.file);
        break;
      case 'clear':
        store.clear(o.chat, o.file);
        model.clear(o.chat, o.file);
        for (const k of [...shown.keys()]) {
          const [c, f] = k.split(' ');
          if ((o.chat === undefined || c === o.chat) && (o.file === undefined || f === o.file)) shown.delete(k);
        }
        break;
      case 'endTurn':
        turnNo.set(o.chat, turnNo.get(o.chat)! + 1);
        break;
      case 'toggle':
        settings.enabled = !settings.enabled;
        model.enabled = settings.enabled;
        break;
    }
  }
}

suite('gate properties (fast-check, real Guard vs reference model)', () => {
  test(`${NUM_RUNS} random sequences across two chats: statuses agree, edits land only on shown versions, refusals change nothing`, async function () {
    this.timeout(600_000);
    const started = Date.now();
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: NUM_RUNS, seed: process.env.EDITGUARD_PROPERTY_SEED ? Number(process.env.EDITGUARD_PROPERTY_SEED) : undefined });
    const ms = Date.now() - started;
    const top = [...outcomes].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}=${n}`).join(', ');
    console.log(`      MEASURE property: ${sequences} sequences, ${operations} operations, ${toolCalls} tool calls in ${ms} ms`);
    console.log(`      MEASURE property outcomes: ${top}`);
    assert.ok(sequences >= NUM_RUNS);
    // the generators must reach every interesting outcome, or the property proves little
    for (const label of [
      'write ok',
      'write ok created',
      'replace ok',
      'write blocked not-read',
      'replace blocked changed',
      'write blocked own-write-expired',
      'replace error no-match',
      'replace error ambiguous',
      'replace error invalid-input',
      'replace error not-found',
      'read ok',
      'read error invalid-input',
    ]) {
      assert.ok((outcomes.get(label) ?? 0) > 0, `no sequence produced "${label}": ${top}`);
    }
  });

  test('a refusal\'s diff is a well-formed unified diff: applied to the version the chat saw, it gives the current text', async () => {
    // property: for any seen text and any changed text, the "changed" refusal's diff, applied by a
    // standard patch tool (jsdiff applyPatch, as written, no repair), turns what the chat saw into what is there now
    await fc.assert(
      fc.asyncProperty(text, text, async (seen, now) => {
        fc.pre(seen !== now);
        const docs = new MemoryDocuments().file(FILES[0], seen);
        const store = new MarkStore();
        const guard = new Guard(store, docs, () => ({ enabled: true, policy: 'sameTurn', maxReadLines: 2000 }), new MemoryLog());
        const ctx = (tool: ToolName): CallContext => ({ tool, session: 'chat-A', turn: 't', uri: FILES[0], path: 'one.txt', arrival: store.watermark });
        await guard.read(ctx('editGuard_readFile'), {});
        docs.userEdit(FILES[0], now);
        const r = await guard.write(ctx('editGuard_writeFile'), { content: 'x', append: false });
        assert.equal(r.data.reason, 'changed');
        const m = /```+diff\n([\s\S]*?)\n```+/.exec(r.text);
        assert.ok(m, `a changed refusal shows a diff:\n${r.text}`);
        assert.equal(applyPatch(seen, m[1]), now, `the diff does not turn ${JSON.stringify(seen)} into ${JSON.stringify(now)}:\n${m[1]}`);
      }),
      { numRuns: 2000 },
    );
  });
});
