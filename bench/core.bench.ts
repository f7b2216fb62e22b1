// Core benchmarks in plain Node: the product's own code
// (src/core) against the physical limit, in one process. Run with `node --expose-gc`.
// Writes its rows as JSON to the file named by $BENCH_OUT (bench/run.mjs merges and prints them).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { EditorDocuments } from '../src/core/documents';
import { EditRecord, type EditRecordStorage } from '../src/core/editRecord';
import { Gate } from '../src/core/gate';
import { GuardedTools } from '../src/core/guardedTools';
import type { CallContext, Logger } from '../src/core/ports';
import { HashCache, sha256 } from '../src/core/hash';
import { DEFAULT_LIMITS, MarkStore } from '../src/core/marks';
import { compare, ratioOf, KB, MB, sizeLabel, sourceLikeText, stat, now } from './lib/measure';
import type { Row } from './lib/rows';
import { MemoryEditor } from '../test/unit/memoryEditor';
import { markWorkload, READS } from '../test/unit/markWorkload';

const quick = process.env.BENCH_QUICK === '1';
const rows: Row[] = [];

/**
 * The product's document port (src/core/documents.ts) over the unit tests' model of VS Code's editor.
 * Documents are kept unsaved, so a check costs what it costs in the editor: the hash of the text, once
 * per version (a clean document is also compared with the disk once per version). `touch` makes a new
 * version of the same text, which is what a first check of a new version costs.
 */
class BenchDocuments extends EditorDocuments {
  constructor(readonly memory = new MemoryEditor()) {
    super(memory);
  }
  set(uri: string, text: string) {
    this.memory.writeDisk(uri, text);
    this.memory.userEdit(uri, text);
    this.touch(uri);
  }
  touch(uri: string) {
    const doc = this.memory.document(uri)!;
    doc.change(doc.text, true);
  }
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const settings = () => ({ enabled: true, ownWriteKeepsMark: 'sameTurn' as const, maxReadLines: 2000 });

async function hashing() {
  const sizes = [1 * KB, 100 * KB, 1 * MB, 10 * MB];
  for (const size of sizes) {
    const text = sourceLikeText(size, size);
    const bytes = Buffer.from(text, 'utf8');
    const uri = `file:///bench/doc-${size}.ts`;
    const store = new MarkStore();
    const port = new BenchDocuments();
    port.set(uri, text);
    const tools = new GuardedTools(new Gate(store, port, settings, quiet));
    store.stamp({ session: 's', uri, hash: sha256(text), origin: 'read', text });
    const ctx = (): CallContext => ({
      tool: 'editGuard_replaceString',
      verb: 'replace',
      session: 's',
      turn: undefined,
      uri,
      path: 'doc.ts',
      arrival: store.watermark,
    });
    // oldString === newString: the call goes through lock, load, hash, gate decision, and stops at the
    // plan ("nothing to change") before any write: the gate's check and nothing else.
    const check = async () => {
      const out = await tools.replace(ctx(), { oldString: 'x', newString: 'x', replaceAll: false });
      if (out.data.code !== 'invalid-input') throw new Error(`unexpected outcome ${JSON.stringify(out.data)}`);
    };
    const cache = new HashCache<object>();
    const cacheKey = {};
    let v = 0;
    // small documents: many operations per sample, so a sample lasts at least a few milliseconds
    const batch = size <= 1 * KB ? 2000 : size <= 100 * KB ? 40 : size <= 1 * MB ? 4 : 1;
    const rounds = quick ? 7 : size >= 10 * MB ? 21 : 31;
    const first = await compare(
      [
        { name: 'bare sha256 of the UTF-8 bytes', run: () => createHash('sha256').update(bytes).digest('hex') },
        { name: 'bare sha256 of the string', run: () => createHash('sha256').update(text, 'utf8').digest('hex') },
        { name: 'HashCache miss', run: () => cache.hash(cacheKey, ++v, () => text) },
        {
          name: 'gate first check',
          run: () => {
            port.touch(uri); // a new version: the check must hash it
            return check();
          },
        },
        { name: 'gate repeat check', run: check },
      ],
      { warmup: 5, rounds, batch },
    );
    const base = first.times['bare sha256 of the UTF-8 bytes'];
    const label = sizeLabel(size);
    rows.push({
      id: `hash.first.${size}`,
      group: '1 hashing',
      label: `gate's first check, ${label}`,
      value: first.times['gate first check'],
      baseline: { label: 'bare sha256 (bytes)', ...base },
      ratio: first.ratios['gate first check'],
      goal: size >= MB ? { text: 'ratio ≤ 1.25', max: 1.25, on: 'ratio' } : undefined,
      unit: 'ms',
    });
    rows.push({
      id: `hash.bareString.${size}`,
      group: '1 hashing',
      label: `bare sha256 of the same string (update(text, 'utf8')), ${label}`,
      value: first.times['bare sha256 of the string'],
      baseline: { label: 'bare sha256 (bytes)', ...base },
      ratio: first.ratios['bare sha256 of the string'],
      unit: 'ms',
    });
    rows.push({
      id: `hash.cacheMiss.${size}`,
      group: '1 hashing',
      label: `HashCache miss (sha256 of the string), ${label}`,
      value: first.times['HashCache miss'],
      baseline: { label: 'bare sha256 (bytes)', ...base },
      ratio: first.ratios['HashCache miss'],
      unit: 'ms',
    });
    // item 2: repeat check vs first check, per round
    const repeat = first.times['gate repeat check'];
    const firstT = first.times['gate first check'];
    rows.push({
      id: `hash.repeat.${size}`,
      group: '2 unchanged document',
      label: `repeat check, no edit, ${label}`,
      value: repeat,
      baseline: { label: "gate's first check", ...firstT },
      ratio: ratioOf(first, 'gate repeat check', 'gate first check'),
      goal: size >= MB ? { text: '≤ 1 % of first', max: 0.01, on: 'ratio' } : undefined,
      unit: 'ms',
    });
  }
}

// ---- the write path in the core: how many full-text hashes one allowed replace costs ----
async function writePath() {
  // count the bytes the product feeds to SHA-256 (src/core/hash.ts calls crypto.createHash at call time)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const original = crypto.createHash;
  let hashedChars = 0;
  for (const size of [1 * MB, 10 * MB]) {
    const text = sourceLikeText(size, size + 9);
    const mid = text.indexOf('\n', size >> 1) + 1;
    const base = `${text.slice(0, mid)}export const BENCH_MARKER = 0;\n${text.slice(mid)}`;
    const uri = `file:///bench/write-${size}.ts`;
    const store = new MarkStore();
    const port = new BenchDocuments();
    port.set(uri, base);
    const tools = new GuardedTools(new Gate(store, port, settings, quiet));
    let state = 0;
    let bare = base;
    let bareState = 0;
    const ctx = (): CallContext => ({
      tool: 'editGuard_replaceString',
      verb: 'replace',
      session: 's',
      turn: undefined,
      uri,
      path: 'w.ts',
      arrival: store.watermark,
    });
    const counted: number[] = [];
    const c = await compare(
      [
        {
          name: 'bare',
          run: () => {
            // what any replace does: find once (and check it is unique), splice, materialise the text
            const from = `BENCH_MARKER = ${bareState}`;
            const at = bare.indexOf(from);
            if (at < 0 || bare.indexOf(from, at + 1) >= 0) throw new Error('bare: not found once');
            bareState = 1 - bareState;
            bare = bare.slice(0, at) + `BENCH_MARKER = ${bareState}` + bare.slice(at + from.length);
            return bare.charCodeAt(bare.length >> 1);
          },
        },
        {
          name: 'guarded',
          // the agent read the file first (untimed): a fresh mark, the current version's hash cached
          setup: async () => {
            await tools.read(ctx(), { limit: 1 });
          },
          run: async () => {
            hashedChars = 0;
            (crypto as { createHash: unknown }).createHash = (alg: string) => {
              const h = original(alg);
              const update = h.update.bind(h);
              (h as { update: unknown }).update = (d: string | Buffer, enc?: BufferEncoding) => {
                hashedChars += d.length;
                return enc ? update(d as string, enc) : update(d);
              };
              return h;
            };
            try {
              const out = await tools.replace(ctx(), {
                oldString: `BENCH_MARKER = ${state}`,
                newString: `BENCH_MARKER = ${1 - state}`,
                replaceAll: false,
              });
              if (out.data.status !== 'ok') throw new Error(`write: ${JSON.stringify(out.data)}`);
              state = 1 - state;
            } finally {
              (crypto as { createHash: unknown }).createHash = original;
              counted.push(hashedChars / base.length);
            }
          },
        },
      ],
      { warmup: 3, rounds: quick ? 5 : size >= 10 * MB ? 15 : 25 },
    );
    rows.push({
      id: `write.core.${size}`,
      group: '4 end to end',
      label: `core: allowed replace (after a read), ${sizeLabel(size)}`,
      value: c.times.guarded,
      baseline: { label: 'bare indexOf + splice', ...c.times.bare },
      ratio: c.ratios.guarded,
      unit: 'ms',
      note: `full-text SHA-256 passes per call: ${stat(counted).median.toFixed(2)} × the text (ideal: 1 — the new text once)`,
    });
  }
}

/** What recording each landed write for review costs a replace (the record in memory, its storage a no-op). */
async function editRecord() {
  const storage: EditRecordStorage = {
    readIndex: async () => undefined,
    writeIndex: async () => {},
    readText: async () => undefined,
    writeText: async () => {},
    deleteText: async () => {},
  };
  for (const size of [1 * MB, 10 * MB]) {
    const text = sourceLikeText(size, size + 11);
    const mid = text.indexOf('\n', size >> 1) + 1;
    const base = `${text.slice(0, mid)}export const BENCH_MARKER = 0;\n${text.slice(mid)}`;
    const setups = ['without', 'with'].map((name) => {
      const uri = `file:///bench/record-${name}-${size}.ts`;
      const store = new MarkStore();
      const port = new BenchDocuments();
      port.set(uri, base);
      const gate = new Gate(store, port, settings, quiet);
      if (name === 'with') {
        const record = new EditRecord({
          storage,
          budget: () => 64 * MB,
          gate,
          labels: { current: 'now', reverted: 'reverted' },
          log: quiet,
        });
        gate.onDidWrite((w) => record.record(w));
      }
      const tools = new GuardedTools(gate);
      let state = 0;
      const ctx = (): CallContext => ({
        tool: 'editGuard_replaceString',
        verb: 'replace',
        session: 's',
        turn: undefined,
        uri,
        path: 'r.ts',
        arrival: store.watermark,
      });
      return {
        name,
        setup: async () => {
          await tools.read(ctx(), { limit: 1 });
        },
        run: async () => {
          const out = await tools.replace(ctx(), {
            oldString: `BENCH_MARKER = ${state}`,
            newString: `BENCH_MARKER = ${1 - state}`,
            replaceAll: false,
          });
          if (out.data.status !== 'ok') throw new Error(`record: ${JSON.stringify(out.data)}`);
          state = 1 - state;
        },
      };
    });
    const c = await compare(setups, { warmup: 3, rounds: quick ? 5 : size >= 10 * MB ? 15 : 25 });
    rows.push({
      id: `write.record.${size}`,
      group: '4 end to end',
      label: `core: allowed replace with the edit record on, ${sizeLabel(size)}`,
      value: c.times.with,
      baseline: { label: 'the same replace, no record', ...c.times.without },
      ratio: c.ratios.with,
      unit: 'ms',
      goal: { text: '≤ 1.2× without', max: 1.2, on: 'ratio' },
      note: 'the record keeps both texts by hash (the gate has computed both hashes); counting the new text in UTF-8 bytes is the added work',
    });
  }
}

/** What rule 11's duplicate check costs an append: the same append with `allowDuplicate: true` (no check) as the baseline. */
async function appendDuplicateCheck() {
  for (const size of [1 * MB, 10 * MB]) {
    const base = sourceLikeText(size, size + 13);
    let n = 0;
    // a new section each time, so the check searches the whole text and finds nothing (the usual case)
    const section = () => {
      n++;
      return `\nexport function benchAppended${n}(value: number): number {\n  const result = value * ${n} + document.length;\n  return result;\n}\n`;
    };
    const setups = ['without check', 'with check'].map((name) => {
      const uri = `file:///bench/append-${name.replace(' ', '-')}-${size}.ts`;
      const store = new MarkStore();
      const port = new BenchDocuments();
      port.set(uri, base);
      const tools = new GuardedTools(new Gate(store, port, settings, quiet));
      const ctx = (): CallContext => ({
        tool: 'editGuard_writeFile',
        verb: 'write',
        session: 's',
        turn: undefined,
        uri,
        path: 'a.ts',
        arrival: store.watermark,
      });
      return {
        name,
        // the agent read the file first (untimed): a fresh mark, the current version's hash cached
        setup: async () => {
          await tools.read(ctx(), { limit: 1 });
        },
        run: async () => {
          const out = await tools.write(ctx(), { content: section(), append: true, allowDuplicate: name === 'without check' });
          if (out.data.status !== 'ok') throw new Error(`append: ${JSON.stringify(out.data)}`);
        },
      };
    });
    const c = await compare(setups, { warmup: 3, rounds: quick ? 5 : size >= 10 * MB ? 15 : 25 });
    rows.push({
      id: `write.appendDuplicateCheck.${size}`,
      group: '4 end to end',
      label: `core: allowed append (after a read) with rule 11's duplicate check, ${sizeLabel(size)}`,
      value: c.times['with check'],
      baseline: { label: 'the same append with allowDuplicate: true', ...c.times['without check'] },
      ratio: c.ratios['with check'],
      unit: 'ms',
      goal: { text: '≤ 1.2× without', max: 1.2, on: 'ratio' },
      note: 'a 4-line section not in the file: one indexOf pass over the whole text, anchored on its longest line',
    });
  }
}

// ---- item 3: the mark store ----
const flat = (s: string) => JSON.parse(JSON.stringify(s)) as string; // a fresh flat string, like one from an API call
const hex = (i: number, salt: number) => createHash('sha256').update(`${i}:${salt}`).digest('hex');
const sessionKey = (c: number) =>
  flat(`vscode-chat-session://local/${Buffer.from(`chat-session-${c}-0123456789abcdef`).toString('base64')}`);
const fileUri = (f: number) =>
  flat(`file:///home/user/projects/some-workspace/src/module${(f % 97).toString().padStart(2, '0')}/file${f}.ts`);
const turnId = (c: number, t: number) =>
  flat(`request_${hex(c, t).slice(0, 8)}-${hex(c, t).slice(8, 12)}-${hex(c, t).slice(12, 16)}-${hex(c, t).slice(16, 28)}`);

function fillStore(store: MarkStore, chats: number, files: number, marks: number, text?: boolean) {
  const perChat = marks / chats;
  let n = 0;
  for (let c = 0; c < chats; c++) {
    const session = sessionKey(c);
    for (let k = 0; k < perChat; k++) {
      // each chat sees `perChat` distinct files spread over the whole set, several turns
      const f = (c * 53 + k * 50) % files;
      store.stamp({
        session,
        uri: fileUri(f),
        hash: hex(n++, 7),
        turn: turnId(c, k >> 3),
        origin: k % 3 === 0 ? 'write' : 'read',
        ...(text ? { text: 'x' } : {}),
      });
    }
  }
}

async function markStore() {
  const CHATS = 100;
  const FILES = 5000;
  const MARKS = 10_000;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');

  // memory: heap before/after building the store, after full GCs; the keys are made before "before"
  // would hide their cost, so they are made inside (a real store holds its own copies of them)
  const mem: number[] = [];
  for (let i = 0; i < (quick ? 3 : 7); i++) {
    let holder: MarkStore | undefined;
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    holder = new MarkStore();
    fillStore(holder, CHATS, FILES, MARKS);
    gc();
    gc();
    const after = process.memoryUsage().heapUsed;
    if (holder.size !== MARKS) throw new Error(`store holds ${holder.size} marks`);
    mem.push((after - before) / MB);
    holder = undefined;
  }

  const store = new MarkStore();
  fillStore(store, CHATS, FILES, MARKS);
  // lookups: the gate's question (newest mark of this chat for this file before the watermark), hits
  const keys: Array<[string, string]> = [];
  for (let c = 0; c < CHATS; c++) for (let k = 0; k < 100; k += 7) keys.push([sessionKey(c), fileUri((c * 53 + k * 50) % FILES)]);
  const missKeys: Array<[string, string]> = keys.map(([s], i) => [s, fileUri((i * 31 + 1) % FILES) + '-missing']);
  let sink = 0;
  let ki = 0;
  const BATCH = 20_000;
  const lookups = await compare(
    [
      {
        name: 'Map.get baseline',
        run: () => {
          const m = new Map<string, number>();
          m.set(keys[0][1], 1);
          for (let i = 0; i < BATCH; i++) sink += m.get(keys[ki++ % keys.length][1]) ?? 0;
        },
      },
      {
        name: 'newest (hit)',
        run: () => {
          const wm = store.watermark;
          for (let i = 0; i < BATCH; i++) {
            const [s, u] = keys[ki++ % keys.length];
            if (store.newest(s, u, wm)) sink++;
          }
        },
      },
      {
        name: 'newest (miss)',
        run: () => {
          for (let i = 0; i < BATCH; i++) {
            const [s, u] = missKeys[ki++ % missKeys.length];
            if (store.newest(s, u)) sink++;
          }
        },
      },
      {
        name: 'stamp (full store: evicts the oldest)',
        run: () => {
          for (let i = 0; i < BATCH / 10; i++) {
            const [s, u] = keys[ki++ % keys.length];
            store.stamp({ session: s, uri: u, hash: 'h' + (ki & 1023), turn: 't', origin: 'read' });
          }
        },
      },
    ],
    { warmup: 3, rounds: quick ? 7 : 25 },
  );
  const perOp = (name: string, n: number) => {
    const t = lookups.times[name];
    return { median: (t.median / n) * 1000, min: (t.min / n) * 1000, max: (t.max / n) * 1000, n: t.n };
  };
  rows.push({
    id: 'marks.lookup',
    group: '3 mark store',
    label: 'lookup: newest mark (hit), 10 000 marks / 100 chats / 5 000 files',
    value: perOp('newest (hit)', BATCH),
    unit: 'µs',
    goal: { text: '≤ 10 µs', max: 10, on: 'value' },
  });
  rows.push({
    id: 'marks.lookupMiss',
    group: '3 mark store',
    label: 'lookup: no mark for the file',
    value: perOp('newest (miss)', BATCH),
    unit: 'µs',
    goal: { text: '≤ 10 µs', max: 10, on: 'value' },
  });
  rows.push({
    id: 'marks.insert',
    group: '3 mark store',
    label: 'insert: stamp into the full store (evicts the oldest)',
    value: perOp('stamp (full store: evicts the oldest)', BATCH / 10),
    unit: 'µs',
  });
  rows.push({
    id: 'marks.memory',
    group: '3 mark store',
    label: 'memory of the store, 10 000 marks, no snapshots',
    value: stat(mem),
    unit: 'MB',
    goal: { text: '≤ 10 MB', max: 10, on: 'value' },
  });
  if (sink === -1) console.log(sink);
}

// ---- the heap a store keeps under the bounded-memory workload (test/unit/markWorkload.ts) ----
// The unit test (test/unit/memoryBudget.test.ts) asserts that the same workload stays within the
// store's limits; here: what that store holds in the heap, after full GCs, and what is left once it is dropped.
function markWorkloadMemory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const collect = () => {
    for (let i = 0; i < 3; i++) gc();
  };
  const retained: number[] = [];
  const leftAfterDrop: number[] = [];
  const perRead: number[] = [];
  let counted = 0;
  let textRead = 0;
  for (let i = 0; i < (quick ? 2 : 5); i++) {
    collect();
    const before = process.memoryUsage().heapUsed;
    let store: MarkStore | undefined = new MarkStore();
    const t0 = now();
    const w = markWorkload(store);
    perRead.push(((now() - t0) / w.reads) * 1000);
    const last = store.all().at(-1)!;
    if (w.maxSizeSeen !== DEFAULT_LIMITS.maxMarks || !store.snapshot(last.session, last.uri, last.hash))
      throw new Error('the workload did not fill the store');
    counted = w.snapshotSize;
    textRead = w.textBytesGenerated;
    collect();
    const withStore = process.memoryUsage().heapUsed;
    store.dispose();
    store = undefined;
    collect();
    const after = process.memoryUsage().heapUsed;
    retained.push((withStore - after) / MB);
    leftAfterDrop.push((after - before) / MB);
  }
  const budget = DEFAULT_LIMITS.snapshotBudgetBytes / MB;
  const label = `${READS / 1000} 000 reads with their texts (${Math.round(textRead / MB)} MB read), ${DEFAULT_LIMITS.maxMarks / 1000} 000 marks kept`;
  rows.push({
    id: 'marks.workload.heap',
    group: '3 mark store',
    label: `memory of the store after ${label}`,
    value: stat(retained),
    unit: 'MB',
    // the budget counts UTF-16 bytes; these one-byte strings use about half of what is counted.
    // A leak of dropped marks or texts would be hundreds of MB.
    goal: { text: `≤ ${budget + 16} MB (snapshot budget + 16)`, max: budget + 16, on: 'value' },
    note: `snapshots counted ${(counted / MB).toFixed(1)} MB of the ${budget} MB budget; heap after full GCs (node --expose-gc)`,
  });
  rows.push({
    id: 'marks.workload.afterDrop',
    group: '3 mark store',
    label: 'heap left once that store is dropped',
    value: stat(leftAfterDrop),
    unit: 'MB',
    goal: { text: '≤ 16 MB', max: 16, on: 'value' },
  });
  rows.push({
    id: 'marks.workload.read',
    group: '3 mark store',
    label: 'that workload per read: stamp with text, sha256 of the text included',
    value: stat(perRead),
    unit: 'µs',
  });
}

// ---- item 5, core part: rendering a 2 000-line read ----
async function readRendering() {
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++)
    lines.push(
      sourceLikeText(60, i + 3)
        .replace(/\n/g, ' ')
        .slice(0, 59 + (i % 20)),
    );
  const text = lines.join('\n') + '\n';
  const uri = 'file:///bench/read.ts';
  const store = new MarkStore();
  const port = new BenchDocuments();
  port.set(uri, text);
  const tools = new GuardedTools(new Gate(store, port, settings, quiet));
  const ctx = (): CallContext => ({
    tool: 'editGuard_readFile',
    verb: 'read',
    session: 's',
    turn: undefined,
    uri,
    path: 'read.ts',
    arrival: store.watermark,
  });
  let sink = 0;
  const r = await compare(
    [
      {
        name: 'copy of the text',
        run: () => {
          sink += (text + ' ').length;
        },
      },
      {
        name: 'GuardedTools.read',
        run: async () => {
          sink += (await tools.read(ctx(), {})).text.length;
        },
      },
    ],
    { warmup: 5, rounds: quick ? 7 : 31, batch: 20 },
  );
  rows.push({
    id: 'read.core',
    group: '5 read rendering',
    label: `core GuardedTools.read of 2 000 lines (${Math.round(text.length / KB)} KB), hash cached`,
    value: r.times['GuardedTools.read'],
    unit: 'ms',
    note: 'render + mark + result text, no VS Code',
  });
  if (sink === -1) console.log(sink);
}

async function main() {
  const t0 = now();
  await hashing();
  await writePath();
  await editRecord();
  await appendDuplicateCheck();
  await markStore();
  markWorkloadMemory();
  await readRendering();
  const out = process.env.BENCH_OUT;
  const json = JSON.stringify({ rows, seconds: (now() - t0) / 1000 }, null, 1);
  if (out) writeFileSync(out, json);
  else console.log(json);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
