// Property-based test of the core: random sequences of reads, writes, replaces, unsaved user edits,
// disk changes by other programs, deletions, documents dropped and reopened, late or missing disk
// loads, keystrokes at every moment of a write (before the edit lands, on its way to the save, during
// the save, after it), mark clears, turn ends, gate toggles, parallel batches and internal gate
// faults, across two chats and files with LF, CRLF, mixed and lone-CR line endings, drive the real
// `GuardedTools` over the product's `EditorDocuments` over the model of VS Code's editor (memoryEditor.ts),
// and the independent reference model (referenceModel.ts).
//
// Checked after every call:
// 1. status, reason and code agree with the reference model;
// 2. no agent write lands on a version the chat was not shown: the text each successful edit was
//    applied to is, byte for byte, the newest version this chat was shown *in the tool results it
//    had when the call arrived* — reconstructed from the numbered read output, the numbered content
//    of a refusal, or the diff of a refusal applied to the previously shown text — or its own
//    write, as far as editGuard.ownWriteKeepsMark lets that count;
// 3. a blocked or failed write changes nothing (text, disk, dirty flag, no save);
// 4. the disk, the open documents (text, line ending, unsaved flag) and every chat's newest mark
//    agree with the model;
// 5. nothing the user typed is lost or saved by the agent: a document with unsaved changes before a
//    batch still has them after it (its text changed only by the agent's landed edit) and its file's
//    bytes are untouched.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPatch } from 'diff';
import { EditorDocuments } from '../../src/core/documents';
import type { EditorDocument } from '../../src/core/editor';
import type { CallContext, GateSettings } from '../../src/core/ports';
import { MarkStore } from '../../src/core/marks';
import type { TextSpanEdit } from '../../src/core/replace';
import type { ToolName, ToolOutcome } from '../../src/core/types';
import { callOn, coreOver, MemoryDocuments, MemoryLog } from './memoryDocuments';
import { type DiskLoads, MemoryEditor } from './memoryEditor';
import {
  type CallSite,
  type DiskLoads as ModelDiskLoads,
  type Expected,
  editorText,
  type Keystroke,
  type Policy,
  ReferenceModel,
  withEol,
} from './referenceModel';

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
  | { k: 'race'; call: Extract<Call, { tool: 'write' | 'replace' }>; keystroke: Keystroke }
  | { k: 'fault'; call: Extract<Call, { tool: 'write' | 'replace' }> }
  | { k: 'user'; file: File; text: string }
  | { k: 'disk'; file: File; text: string }
  /** another program rewrites the file with the text it has, its line breaks all LF or all CRLF: the editor may hold the same text */
  | { k: 'touch'; file: File; crlf: boolean }
  | { k: 'delete'; file: File }
  | { k: 'evict'; file: File }
  | { k: 'load' }
  | { k: 'clear'; chat?: Chat; file?: File }
  | { k: 'endTurn'; chat: Chat }
  | { k: 'toggle' };

// ---- generators: a small alphabet, so matches, ambiguities and equal texts are frequent ----------

// line breaks of every kind a file can have: VS Code holds one per document
const token = fc.constantFrom('a', 'b', 'c', 'ab', ' ', '\n', '\n', 'a\n', 'b\n', '\r\n', 'a\r\n', '\r');
// at most 24 characters: below rule 11's threshold (DUPLICATE_MIN_CHARS), which the reference model leaves out
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
  {
    arbitrary: fc.record({
      k: fc.constant('race' as const),
      call: changeCall,
      keystroke: fc.record({ when: fc.constantFrom<Keystroke['when']>('beforeEdit', 'inFlight', 'duringSave', 'afterSave'), text }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ k: fc.constant('fault' as const), call: changeCall }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('user' as const), file, text }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('disk' as const), file, text }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('touch' as const), file, crlf: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), file }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('evict' as const), file }), weight: 2 },
  { arbitrary: fc.constant({ k: 'load' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      k: fc.constant('clear' as const),
      chat: fc.option(chat, { nil: undefined }),
      file: fc.option(file, { nil: undefined }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ k: fc.constant('endTurn' as const), chat }), weight: 3 },
  { arbitrary: fc.constant({ k: 'toggle' as const }), weight: 1 },
);

const scenario = fc.record({
  policy: fc.constantFrom<Policy>('sameTurn', 'sameTurn', 'never', 'always'),
  diskLoads: fc.constantFrom<DiskLoads & ModelDiskLoads>('at once', 'at once', 'late', 'never'),
  straightToDisk: fc.boolean(),
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

/** The editor model, recording the text each landed edit met (in the document, or on disk when the editor lags). */
class RecordingEditor extends MemoryEditor {
  readonly applied: Applied[] = [];

  override async applyEdits(document: EditorDocument, edits: readonly TextSpanEdit[]): Promise<boolean> {
    // the racing keystroke (if any) happens inside, before the edit meets the text
    let before: string | undefined;
    const race = this.beforeApply;
    this.beforeApply = (uri) => {
      race?.(uri);
      before = document.getText();
    };
    const ok = await super.applyEdits(document, edits);
    this.beforeApply = undefined;
    if (ok && before !== undefined) this.applied.push({ uri: document.uri, before, after: document.getText() });
    return ok;
  }

  override async writeFileIf(uri: string, bytes: Uint8Array, holds: (current: Uint8Array) => boolean): Promise<boolean> {
    const before = editorText(this.disk(uri) ?? '').text;
    const written = await super.writeFileIf(uri, bytes, holds);
    if (written) this.applied.push({ uri, before, after: new TextDecoder().decode(bytes) });
    return written;
  }
}

/** What a chat was shown of a file, newest last: candidate texts (a numbered read cannot tell a final newline). */
interface Shown {
  texts: string[];
  own: boolean;
  turn: string | undefined;
}

const numbered = /^\s*(\d+)\t(.*)$/;

/** The file text a numbered rendering stands for: with and without a final line break, of either kind. */
function fromNumbered(output: string): string[] | undefined {
  const rows = output
    .split('\n')
    .filter((l) => numbered.test(l))
    .map((l) => numbered.exec(l)![2]);
  if (/ is empty\./.test(output) && rows.length === 0) return [''];
  if (rows.length === 0) return undefined;
  return (['\n', '\r\n'] as const).flatMap((eol) => [rows.join(eol), rows.join(eol) + eol]);
}

/** A text with its line breaks of either kind (what "only line endings changed" leaves open). */
const eitherEol = (texts: string[]) => [...new Set(texts.flatMap((t) => [withEol(t, '\n'), withEol(t, '\r\n')]))];

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
    if (actual.data.tool !== 'editGuard_readFile') {
      assert.equal(actual.data.saved === true, expected.saved, `saved: ${detail()}`);
      assert.equal(actual.data.keptUnsaved === true, expected.keptUnsaved, `keptUnsaved: ${detail()}`);
    }
  }
}

let sequences = 0;
let operations = 0;
let toolCalls = 0;
const outcomes = new Map<string, number>();
/** How often each part of the editor's lifecycle was met, so the property is known to reach it. */
const lifecycle = new Map<string, number>();
const met = (what: string) => lifecycle.set(what, (lifecycle.get(what) ?? 0) + 1);

async function runScenario(s: {
  policy: Policy;
  diskLoads: DiskLoads;
  straightToDisk: boolean;
  one: string;
  two: string;
  ops: Op[];
}): Promise<void> {
  sequences++;
  const editor = new RecordingEditor();
  editor.diskLoads = s.diskLoads;
  editor.straightToDisk = s.straightToDisk;
  const docs = new EditorDocuments(editor);
  const store = new MarkStore();
  const log = new MemoryLog();
  const settings: GateSettings = { enabled: true, ownWriteKeepsMark: s.policy, maxReadLines: 2000 };
  const { gate, tools } = coreOver(store, docs, () => settings, log);
  const model = new ReferenceModel(s.policy);
  model.diskLoads = s.diskLoads;
  model.straightToDisk = s.straightToDisk;
  editor.writeDisk(FILES[0], s.one);
  editor.writeDisk(FILES[1], s.two);
  model.addFile(FILES[0], s.one);
  model.addFile(FILES[1], s.two);

  const turnNo = new Map<Chat, number>(CHATS.map((c) => [c, 1]));
  const turnOf = (c: Call) => (c.noTurn ? undefined : `${c.chat}#turn${turnNo.get(c.chat)}`);
  const shown = new Map<string, Shown[]>();
  const shownKey = (c: string, f: string) => `${c} ${f}`;

  const toolName: Record<Call['tool'], ToolName> = {
    read: 'editGuard_readFile',
    write: 'editGuard_writeFile',
    replace: 'editGuard_replaceString',
  };
  const ctxOf = (c: Call): CallContext => callOn(store, toolName[c.tool], c.file, c.chat, turnOf(c));
  const run = (c: Call, ctx: CallContext): Promise<ToolOutcome> => {
    switch (c.tool) {
      case 'read':
        return tools.read(ctx, { offset: c.offset, limit: c.limit });
      case 'write':
        return tools.write(ctx, { content: c.content, append: c.append });
      case 'replace':
        return tools.replace(ctx, { oldString: c.oldString, newString: c.newString, replaceAll: c.replaceAll });
    }
  };
  type Options = { keystroke?: Keystroke; fault?: boolean };
  /** The model's prediction; for reads also the text the model says the read showed (and marked). */
  const predict = (c: Call, site: CallSite, opts: Options): { expected: Expected; readText?: string } => {
    switch (c.tool) {
      case 'read': {
        const readText = model.current(c.file);
        return { expected: model.read(site, { offset: c.offset, limit: c.limit }), readText };
      }
      case 'write':
        return { expected: model.write(site, c.content, c.append, opts) };
      case 'replace':
        return { expected: model.replace(site, c.oldString, c.newString, c.replaceAll, opts) };
    }
  };
  /** Every file as the gate and the user see it: its bytes, and the document the editor holds. */
  const world = () =>
    FILES.map((f) => {
      const doc = editor.document(f);
      return { file: f, disk: editor.disk(f), doc: doc && { text: doc.text, eol: doc.eol, dirty: doc.isDirty } };
    });
  const modelWorld = () =>
    FILES.map((f) => {
      const m = model.files.get(f);
      return { file: f, disk: m?.disk, doc: m?.doc && { text: m.doc.text, eol: m.doc.eol, dirty: m.doc.dirty } };
    });
  /** What a user would notice: each file's current text, bytes and unsaved flag (an opened document is not a change). */
  const visible = () =>
    world().map((w) => ({
      file: w.file,
      disk: w.disk,
      text: w.doc?.dirty ? w.doc.text : w.disk === undefined ? undefined : editorText(w.disk).text,
      dirty: w.doc?.dirty === true,
    }));

  /** Runs calls that all arrive at once (one batch of parallel calls), then checks everything. */
  async function batch(calls: Call[], opts: Options, trace: string): Promise<void> {
    const before = visible();
    const worldBefore = world();
    const savesBefore = editor.saves;
    const appliedBefore = editor.applied.length;
    const enabled = settings.enabled;
    const arrival = model.watermark;
    const ctxs = calls.map(ctxOf);
    const k = opts.keystroke;
    if (k) {
      const type = (uri: string) => {
        met(`keystroke ${k.when}`);
        editor.userEdit(uri, k.text);
      };
      if (k.when === 'beforeEdit') editor.beforeApply = type;
      if (k.when === 'inFlight') editor.inFlight = () => type(calls[0].file);
      if (k.when === 'duringSave') editor.duringSave = (doc) => type(doc.uri);
      if (k.when === 'afterSave') editor.afterSave = (doc) => type(doc.uri);
    }
    const directWritesBefore = editor.directWrites;
    gate.faultInjector = opts.fault
      ? () => {
          throw new Error('injected gate fault');
        }
      : undefined;
    const results = await Promise.all(calls.map((c, i) => run(c, ctxs[i])));
    editor.beforeApply = editor.inFlight = editor.duringSave = editor.afterSave = undefined;
    gate.faultInjector = undefined;
    toolCalls += calls.length;
    if (editor.directWrites > directWritesBefore)
      met(s.straightToDisk ? 'write straight to the disk (a file no editor shows)' : 'write to a file the editor never loaded');
    calls.forEach((c, i) => {
      const before = worldBefore.find((w) => w.file === c.file)!;
      if (before.disk === undefined && before.doc?.dirty) met('call on a deleted file with unsaved changes');
      if (before.doc && !before.doc.dirty && before.disk !== undefined && editorText(before.disk).text !== before.doc.text)
        met('call on a document that lags the disk');
      if (results[i].data.created && before.doc) met('create over an open document');
      if (c.tool !== 'read' && results[i].data.status === 'ok' && before.disk !== undefined && editorText(before.disk).text !== before.disk)
        met('write to a file with mixed line endings');
      if (c.tool !== 'read' && results[i].data.status === 'ok' && before.doc?.eol === '\r\n') met('write to a CRLF document');
      if (/could not be saved to disk/.test(results[i].text)) met('save refused by the editor (the file on disk is newer)');
      if (
        editor.directWrites > directWritesBefore &&
        !s.straightToDisk &&
        before.doc &&
        !before.doc.dirty &&
        before.disk !== undefined &&
        editorText(before.disk).text === before.doc.text
      )
        met('write after a disk change that left the text as it was');
    });

    // 1. agreement with the model, calls taken in arrival order (one lock per file keeps that order)
    const predicted = calls.map((c, i) => predict(c, { session: c.chat, uri: c.file, turn: ctxs[i].turn, arrival }, opts));
    results.forEach((r, i) => {
      same(r, predicted[i].expected, `${trace}\ncall ${i}: ${JSON.stringify(calls[i])}`);
      const label = `${calls[i].tool} ${r.data.status} ${r.data.reason ?? r.data.code ?? (r.data.created ? 'created' : '')}`.trim();
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
    });

    // 3. nothing changes unless something was written (the racing keystroke aside)
    const wrote = results.some((r) => r.data.status === 'ok' && r.data.tool !== 'editGuard_readFile');
    if (!wrote && !k) {
      assert.deepEqual(visible(), before, `${trace}\na batch without a successful write changed a file`);
      assert.equal(editor.saves, savesBefore, `${trace}\na batch without a successful write saved`);
    }

    // 5. the user's unsaved work: never lost, never saved by the agent
    for (const w of worldBefore) {
      if (!w.doc?.dirty) continue;
      const now = editor.document(w.file);
      assert.ok(now?.isDirty, `${trace}\n${w.file} had unsaved changes; after the batch it has none (${JSON.stringify(now?.text)})`);
      assert.equal(editor.disk(w.file), w.disk, `${trace}\n${w.file} had unsaved changes; the batch changed its bytes on disk`);
    }

    // which landed edit belongs to which call: per file, edits land in the calls' arrival order
    const landed = editor.applied.slice(appliedBefore);
    const landedCalls = calls
      .map((c, i) => ({ c, i }))
      .filter(({ c, i }) => c.tool !== 'read' && results[i].data.status === 'ok' && !results[i].data.created);
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
        if (last.own)
          assert.ok(model.ownWriteCounts(last.turn, ctxs[i].turn), `${why}\n(an own write counted against ownWriteKeepsMark=${s.policy})`);
      }
    }

    // the chat now has these results: update what each chat was shown, in arrival order
    const atArrival = new Map([...shown].map(([key, h]) => [key, h[h.length - 1]?.texts ?? []]));
    results.forEach((r, i) => {
      const c = calls[i];
      const key = shownKey(c.chat, c.file);
      const history = shown.get(key) ?? [];
      let entry: Shown | undefined;
      if (c.tool === 'read' && r.data.status === 'ok') {
        const readText = predicted[i].readText!;
        if (c.offset === undefined && c.limit === undefined) {
          // a whole read: what it showed is reconstructable, and its mark is of exactly that text
          const texts = fromNumbered(r.text);
          assert.ok(
            texts?.includes(readText),
            `${trace}\ncall ${i}: the read showed ${JSON.stringify(texts)}, not the document text ${JSON.stringify(readText)}\n${r.text}`,
          );
          entry = { texts: texts!, own: false, turn: undefined };
        } else {
          // a ranged read shows part of the text; by rule 1 it counts for the whole
          entry = { texts: [readText], own: false, turn: undefined };
        }
      } else if (r.data.status === 'blocked') {
        // "what you last saw": the version this call was based on (the newest shown when it
        // arrived) or, in a batch, the newest including earlier results of the batch
        const previous = [...new Set([...(atArrival.get(key) ?? []), ...(history[history.length - 1]?.texts ?? [])])];
        // diffs are of lines: the line ending is the document's one, either kind
        const fromPatch = fromDiff(r.text, previous);
        const texts =
          fromNumbered(r.text) ??
          (fromPatch && eitherEol(fromPatch)) ??
          (/Only line endings or invisible characters changed/.test(r.text) ? eitherEol(previous) : undefined);
        assert.ok(
          texts && texts.length > 0,
          `${trace}\ncall ${i}: a refusal must show the numbered content or a diff that applies to what the chat saw last\n${r.text}\nlast seen: ${JSON.stringify(previous)}`,
        );
        entry = { texts, own: false, turn: undefined };
      } else if (r.data.status === 'ok' && c.tool !== 'read') {
        if (r.data.created) {
          // the file holds what the agent wrote; the editor holds it with one line ending, and the result says so
          const content = (c as { content: string }).content;
          entry = { texts: [content, editorText(content).text], own: true, turn: ctxs[i].turn };
        } else {
          // what the edit made, and what saving made of it when the result shows that as a diff
          const after = landedByCall.get(i)!.after;
          const saved = fromDiff(r.text, [after]);
          entry = { texts: saved && saved.length ? eitherEol(saved) : [after], own: true, turn: ctxs[i].turn };
        }
      }
      if (entry) shown.set(key, [...history, entry]);
    });

    // 4. the disk, the documents and the newest marks agree with the model
    assert.deepEqual(world(), modelWorld(), `${trace}\nthe editor and the disk differ from the model`);
    for (const f of FILES) {
      for (const ch of CHATS) {
        const real = store.newest(ch, f);
        const want = model.newest(ch, f);
        assert.deepEqual(
          real && { hash: real.hash, origin: real.origin },
          want && { hash: want.hash, origin: want.origin },
          `${trace}\nnewest mark of ${ch} for ${f}`,
        );
      }
    }
  }

  /** files whose document was dropped since the last call: the next call opens a new one */
  const reopenable = new Set<string>();
  const trace: string[] = [
    `policy ${s.policy}; disk loads ${s.diskLoads}; straight to disk ${s.straightToDisk}; one=${JSON.stringify(s.one)} two=${JSON.stringify(s.two)}`,
  ];
  for (const o of s.ops) {
    operations++;
    trace.push(JSON.stringify(o));
    const t = trace.join('\n');
    switch (o.k) {
      case 'batch':
        for (const c of o.calls) if (reopenable.has(c.file)) met('call on a document opened again');
        await batch(o.calls, {}, t);
        break;
      case 'race':
        await batch([o.call], { keystroke: o.keystroke }, t);
        break;
      case 'fault': {
        // rule 7: the gate's own failure lets the write through, and it is logged
        const existed = model.current(o.call.file) !== undefined;
        const errorsBefore = log.lines.filter((l) => l.startsWith('error ')).length;
        await batch([o.call], { fault: true }, t);
        const errors = log.lines.filter((l) => l.startsWith('error ')).slice(errorsBefore);
        if (existed)
          assert.ok(
            errors.some((l) => /injected gate fault/.test(l)),
            `${t}\nthe gate fault was not logged: ${JSON.stringify(log.lines.slice(-3))}`,
          );
        else assert.equal(errors.length, 0, `${t}\na create does not consult the gate`);
        break;
      }
      case 'user':
        editor.userEdit(o.file, o.text);
        model.userEdit(o.file, o.text);
        break;
      case 'disk':
        editor.writeDisk(o.file, o.text);
        model.diskChange(o.file, o.text);
        break;
      case 'touch': {
        const now = editor.disk(o.file);
        if (now === undefined) break;
        const contents = o.crlf ? now.replace(/\r?\n/g, '\r\n') : now.replace(/\r\n/g, '\n');
        editor.writeDisk(o.file, contents);
        model.diskChange(o.file, contents);
        break;
      }
      case 'delete':
        editor.deleteFile(o.file);
        model.deleteFile(o.file);
        break;
      case 'evict':
        if (editor.evict(o.file)) {
          met('document dropped');
          reopenable.add(o.file);
        }
        model.evict(o.file);
        break;
      case 'load':
        editor.loadPending();
        model.loadPending();
        break;
      case 'clear':
        store.clear(o.chat, o.file);
        model.clear(o.chat, o.file);
        for (const key of [...shown.keys()]) {
          const [c, f] = key.split(' ');
          if ((o.chat === undefined || c === o.chat) && (o.file === undefined || f === o.file)) shown.delete(key);
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
    if (o.k === 'batch' || o.k === 'race' || o.k === 'fault') reopenable.clear();
    if (o.k !== 'batch' && o.k !== 'race' && o.k !== 'fault')
      assert.deepEqual(world(), modelWorld(), `${t}\nafter a change outside the agent, the editor differs from the model`);
  }
}

suite('gate properties (fast-check, real GuardedTools vs reference model)', () => {
  test(`${NUM_RUNS} random sequences across two chats: statuses agree, edits land only on shown versions, refusals change nothing`, async function () {
    this.timeout(600_000);
    const started = Date.now();
    await fc.assert(fc.asyncProperty(scenario, runScenario), {
      numRuns: NUM_RUNS,
      seed: process.env.EDITGUARD_PROPERTY_SEED ? Number(process.env.EDITGUARD_PROPERTY_SEED) : undefined,
    });
    const ms = Date.now() - started;
    const top = [...outcomes]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k}=${n}`)
      .join(', ');
    console.log(`      MEASURE property: ${sequences} sequences, ${operations} operations, ${toolCalls} tool calls in ${ms} ms`);
    console.log(`      MEASURE property outcomes: ${top}`);
    const reached = [...lifecycle]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k}=${n}`)
      .join(', ');
    console.log(`      MEASURE property lifecycle: ${reached}`);
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
    for (const what of [
      'document dropped',
      'call on a document opened again',
      'call on a deleted file with unsaved changes',
      'call on a document that lags the disk',
      'write to a file the editor never loaded',
      'write straight to the disk (a file no editor shows)',
      'create over an open document',
      'write to a file with mixed line endings',
      'write to a CRLF document',
      'write after a disk change that left the text as it was',
      'keystroke beforeEdit',
      'keystroke inFlight',
      'keystroke duringSave',
      'keystroke afterSave',
    ]) {
      assert.ok((lifecycle.get(what) ?? 0) > 0, `no sequence reached "${what}": ${reached}`);
    }
  });

  test("a refusal's diff is a well-formed unified diff: applied to the version the chat saw, it gives the current text", async function () {
    // a few hundred runs: a second or two alone, longer on a busy machine (a bound on time would be no test)
    this.timeout(600_000);
    // property: for any seen text and any changed text, the "changed" refusal's diff, applied by a
    // standard patch tool (jsdiff applyPatch, as written, no repair), turns what the chat saw into what
    // is there now. Diffs are of lines; the document holds one line ending (reads name it), which the
    // patched text is written with.
    await fc.assert(
      fc.asyncProperty(text, text, async (seenContents, typed) => {
        const docs = new MemoryDocuments().file(FILES[0], seenContents);
        const store = new MarkStore();
        const { tools } = coreOver(store, docs, () => ({ enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000 }));
        const ctx = (tool: ToolName): CallContext => callOn(store, tool, FILES[0], 'chat-A', 't');
        await tools.read(ctx('editGuard_readFile'), {});
        const seen = docs.text(FILES[0]);
        docs.userEdit(FILES[0], typed);
        const now = docs.text(FILES[0]);
        fc.pre(seen !== now);
        const r = await tools.write(ctx('editGuard_writeFile'), { content: 'x', append: false });
        assert.equal(r.data.reason, 'changed');
        const m = /```+diff\n([\s\S]*?)\n```+/.exec(r.text);
        if (withEol(seen, '\n') === withEol(now, '\n')) {
          assert.match(r.text, /Only line endings or invisible characters changed/, 'a change of line endings alone is said in words');
          return;
        }
        assert.ok(m, `a changed refusal shows a diff:\n${r.text}`);
        const patched = applyPatch(seen, m[1]);
        assert.ok(typeof patched === 'string', `the diff does not apply to ${JSON.stringify(seen)}:\n${m[1]}`);
        const eol = docs.memory.document(FILES[0])!.eol;
        assert.equal(withEol(patched, eol), now, `the diff does not turn ${JSON.stringify(seen)} into ${JSON.stringify(now)}:\n${m[1]}`);
      }),
      { numRuns: 2000 },
    );
  });
});
