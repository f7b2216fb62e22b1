// The document lifecycle, randomized, in the real host: seeded sequences of agent calls (reads,
// writes, appends, replaces; direct vscode.lm.invokeTool calls, so one "no chat" session whose calls
// are each a turn of their own), the user typing (also at the moment an agent edit lands), saving and
// reverting, other programs writing, deleting and renaming the files, and VS Code dropping a
// document. After every step the state is checked against an oracle the test keeps itself: the
// bytes each path must hold on disk, the unsaved text the user has in each buffer, what the agent
// was shown of each file (rebuilt from the tool outputs, as races.test.ts does) and the mark each
// call must leave.
//
// Replay: EDITGUARD_LIFECYCLE_SEED (default below) picks the run; EDITGUARD_LIFECYCLE_SEQUENCES and
// EDITGUARD_LIFECYCLE_STEPS scale it; EDITGUARD_LIFECYCLE_ONLY=<n> runs only sequence n of the seed
// (each sequence has its own generator, seeded from the run's seed and its number, and its draws
// depend only on its own oracle, so it replays alone). A failure prints the replay command and the
// steps of the sequence.
//
// What VS Code does here, as this suite observed it (code-server 4.139 / VS Code 1.139), beyond the
// rules the product's editor.ts lists:
// - a clean document whose file is deleted (or renamed away) stays open, clean, with its old text;
//   the tools treat the file as missing. A dirty one stays dirty with its text.
// - saving a dirty document whose file another program rewrote since VS Code loaded it fails
//   ("File Modified Since": save() resolves false, the document stays dirty) — only when the file's
//   mtime advanced AND its size differs from the one VS Code loaded (same-size rewrites save fine);
//   saving one whose file was deleted recreates the file.
// - reverting a dirty document whose file is gone leaves it clean with the text it had.
// - a document whose text has no line break keeps the line ending it had (a CRLF document
//   overwritten with "abc" stays CRLF, so the next inserted line break is CRLF); a document loaded,
//   or reloaded from disk, with text that has no line break gets files.eol (LF here).
// - a document an extension made dirty gets an editor (VS Code opens one about a second later), so
//   closing it asks to save it; the test host answers that dialog by discarding the changes. This
//   suite drops documents only while no document is dirty, so no dialog decides what it checks.
// - now and then a clean document does not follow a change on disk at all (seen once in about every
//   other run of 12 sequences, never on replay of the same sequence); the tools then treat the disk's text as current (the product
//   writes the file itself after waiting), and the oracle accepts that the document keeps a text it
//   held before.
// - every edit's text (the user's too) is written with the document's line ending, a lone CR
//   counting as a line break; except that a lone CR ending the typed text, typed right before a
//   CRLF of a CRLF document, is dropped (typing "\r" at the end of a line changes nothing, "x\r"
//   types "x"; applyEdit still resolves true).
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  activateExtension,
  cleanUp,
  docFor,
  fileRef,
  newestMark,
  READ,
  REPLACE,
  safeJson,
  sha256,
  type TestFile,
  type ToolName,
  type ToolOutcome,
  uniquePath,
  waitFor,
  workspaceRoot,
  WRITE,
} from './helpers';
import {
  assertUnchanged,
  eitherEol,
  type FileState,
  hashesOf,
  invokeRaw,
  shownTexts,
  stateOf,
  textsFromNumbered,
} from './reliabilityHelpers';
import { evictDocument, insertAtEnd, typeWhenAgentEditLands, writeBehindVsCode } from './lifecycleHelpers';

// ---------------------------------------------------------------------------------------------
// the run's size and seed

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  assert.ok(Number.isInteger(n) && n >= 0, `${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return n;
};
const DEFAULT_SEED = 20261201;
const SEED = envInt('EDITGUARD_LIFECYCLE_SEED', DEFAULT_SEED);
const SEQUENCES = envInt('EDITGUARD_LIFECYCLE_SEQUENCES', 12);
const STEPS = envInt('EDITGUARD_LIFECYCLE_STEPS', 25);
const ONLY = process.env.EDITGUARD_LIFECYCLE_ONLY?.trim() ? envInt('EDITGUARD_LIFECYCLE_ONLY', 0) : undefined;
/** Dropping a document opens ~57 throwaway files (~1.5 s): at most this many per sequence. */
const MAX_EVICTIONS = 1;
/** Paths one sequence may come to have (its first files, files the agent created, rename targets). */
const MAX_PATHS = 7;

/** mulberry32: small, fast, and the same numbers on every machine. */
class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** lo…hi, both included */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    assert.ok(items.length > 0, 'pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const sequenceSeed = (seed: number, index: number) => (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;

// ---------------------------------------------------------------------------------------------
// text: what files hold, and how VS Code holds it (written here from the rule, not taken from the product)

type Eol = '\n' | '\r\n';

// No token starts with a digit (a diff's context line " 12\t…" would read as a numbered line) and
// none has a Q (the no-match replaces look for "QQ") or a backtick (it would end a fence).
const WORDS = ['alpha', 'beta', 'gamma', 'x', 'yy', 'zz', 'é', 'ü–ß', '日本', ' ', '  ', 'a b', '\t', '{', '};', '-', '#'];
const TYPED = ['!', 'typed', ' ', 'é', 'K', 'ok;', '\n', '\r\n', '\r', 'x\ry', 'line\n', 'a\r\nb'];

const lenientUtf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text VS Code holds for these bytes: decoded as UTF-8 (invalid bytes as U+FFFD), one line
 * ending: CRLF if carriage returns (alone or before LF) are more than half of the line breaks, else
 * LF; every break, a lone CR too, written with it.
 */
function held(bytes: Buffer): { text: string; eol: Eol; breaks: number; invalidUtf8: boolean } {
  const contents = lenientUtf8.decode(bytes);
  let invalidUtf8 = false;
  try {
    strictUtf8.decode(bytes);
  } catch {
    invalidUtf8 = true;
  }
  const breaks = contents.match(/\r\n|\r|\n/g) ?? [];
  const withCr = breaks.filter((b) => b !== '\n').length;
  const eol: Eol = withCr > breaks.length / 2 ? '\r\n' : '\n';
  return { text: normalizeEol(contents, eol), eol, breaks: breaks.length, invalidUtf8 };
}

const normalizeEol = (text: string, eol: Eol) => text.replace(/\r\n|\r|\n/g, eol);
const lf = (text: string) => text.replace(/\r\n/g, '\n');
const docEol = (doc: vscode.TextDocument): Eol => (doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
const linesOf = (text: string): string[] => {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};
/** Non-overlapping occurrences, left to right. */
function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}
/** An offset that does not fall between the CR and the LF of a CRLF. */
const safeOffset = (text: string, at: number) => (at > 0 && text[at - 1] === '\r' && text[at] === '\n' ? at - 1 : at);
const show = (text: string | Buffer | undefined, max = 70): string => {
  if (text === undefined) return '(none)';
  const s = JSON.stringify(typeof text === 'string' ? text : text.toString('utf8'));
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
};

function genLine(rng: Rng): string {
  let line = '';
  for (let k = rng.int(0, 3); k > 0; k--) line += rng.pick(WORDS);
  return line;
}

/** Random file text: 0–maxLines lines, line breaks LF, CRLF, lone CR or a mix. */
function genText(rng: Rng, maxLines = 7, allowEmpty = true): string {
  if (allowEmpty && rng.chance(0.06)) return '';
  const style = rng.pick(['lf', 'lf', 'crlf', 'crlf', 'mixed', 'cr'] as const);
  const brk = (): string => {
    switch (style) {
      case 'lf':
        return rng.chance(0.9) ? '\n' : rng.pick(['\r\n', '\r']);
      case 'crlf':
        return rng.chance(0.9) ? '\r\n' : rng.pick(['\n', '\r']);
      case 'mixed':
        return rng.pick(['\n', '\r\n', '\r']);
      case 'cr':
        return rng.chance(0.6) ? '\r' : rng.pick(['\n', '\r\n']);
    }
  };
  const n = rng.int(1, maxLines);
  let out = '';
  for (let i = 0; i < n; i++) {
    out += genLine(rng);
    if (i < n - 1 || rng.chance(0.7)) out += brk();
  }
  return out || rng.pick(WORDS.filter((w) => w.trim()));
}

/** Another program's new contents for a file: new text, an edit of the current one, or only other line breaks. */
function genDiskText(rng: Rng, currentText: string | undefined): string {
  const base = currentText ?? '';
  const r = rng.next();
  if (r < 0.4 || base === '') return genText(rng);
  if (r < 0.8) return mutate(rng, base);
  // the same lines, other line breaks: VS Code may hold exactly the same text, or the same lines with the other line ending
  return base.replace(/\r\n|\n/g, () => rng.pick(['\n', '\r\n', '\r\n', '\r']));
}

/** The text with one line added, removed or changed (always a different text). */
function mutate(rng: Rng, text: string): string {
  const eol: Eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r\n|\n/);
  const op = rng.int(0, 2);
  const i = rng.int(0, lines.length - 1);
  if (op === 0) lines.splice(i, 0, genLine(rng) || 'inserted');
  else if (op === 1 && lines.length > 2) lines.splice(i, 1);
  else lines[i] += rng.pick(WORDS.filter((w) => w.trim())) + 'm';
  const out = lines.join(rng.chance(0.8) ? eol : rng.pick(['\n', '\r\n', '\r']));
  return out === text ? `${text}changed` : out;
}

/** Bytes that are not valid UTF-8 somewhere in a text. */
function withInvalidUtf8(rng: Rng, text: string): Buffer {
  const at = safeOffset(text, rng.int(0, text.length));
  const bad = Buffer.from(rng.pick([[0xc3, 0x28], [0xe2, 0x82], [0x80], [0xff]]));
  return Buffer.concat([Buffer.from(text.slice(0, at), 'utf8'), bad, Buffer.from(text.slice(at), 'utf8')]);
}

// ---------------------------------------------------------------------------------------------
// the oracle

type Origin = 'read' | 'refusal' | 'write';
type Reason = 'not-read' | 'changed' | 'own-write-expired';

interface PathModel {
  name: string;
  f: TestFile;
  /** the bytes the disk must hold; undefined: the file must not exist */
  disk: Buffer | undefined;
  /** the buffer holds unsaved changes (the user's, and agent writes made on top of them) */
  dirty: boolean;
  /** the buffer's text while dirty */
  buffer: string | undefined;
  /**
   * another program wrote the file since VS Code last took it in visibly (the buffer was dirty, or
   * VS Code holds the same text for the new bytes): VS Code may refuse to save over it
   */
  touchedBehind: boolean;
  /** VS Code did not load the disk's newer text into the clean document (it may never) */
  stale: boolean;
  /** texts a clean document of the file may still hold if VS Code missed disk changes: the last it was seen to hold, and each disk text since */
  vscodeMayHold: string[];
  /** the newest mark the product must hold for this file */
  mark: { hash: string; origin: Origin } | undefined;
  /** what the agent was shown last by a read or a refusal (candidate texts, from the outputs); undefined after its own write */
  shown: string[] | undefined;
  /** the agent's last view, own writes included: what a refusal's diff applies to */
  known: string[];
}

type Current = { exists: false } | { exists: true; text: string; dirty: boolean; invalidUtf8: boolean };

/** The file's current text for the tools: the unsaved buffer, else the disk as VS Code holds (or will hold) it. */
function current(p: PathModel): Current {
  if (p.dirty) return { exists: true, text: p.buffer!, dirty: true, invalidUtf8: false };
  if (p.disk) {
    const h = held(p.disk);
    return { exists: true, text: h.text, dirty: false, invalidUtf8: h.invalidUtf8 };
  }
  return { exists: false };
}

/** The line ending the agent's text is written with. */
function eolFor(p: PathModel): Eol {
  const doc = docFor(p.f);
  if (p.dirty) {
    assert.ok(doc && !doc.isClosed, `oracle: ${p.name} is dirty, so VS Code holds its document`);
    return docEol(doc);
  }
  const h = held(p.disk!);
  if (h.breaks > 0) return h.eol;
  // no line break: a document VS Code holds with this text keeps the line ending it has (VS Code
  // never changes it on an edit); one it loads (or reloads) now gets files.eol, LF here
  if (doc && !doc.isClosed && doc.getText() === h.text) return docEol(doc);
  return '\n';
}

const docInEditor = (p: PathModel) => vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === p.f.uri.toString());
/** A tab shows the file (in front or not): else a write of its clean document goes straight to the disk (rule 15). */
const docInTab = (p: PathModel) =>
  vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === p.f.uri.toString()),
  );

/** VS Code holds the file clean and has not loaded the disk's newer text yet (or missed it). */
function loadPending(p: PathModel): boolean {
  const doc = docFor(p.f);
  return !!doc && !doc.isClosed && !doc.isDirty && !p.dirty && !!p.disk && doc.getText() !== held(p.disk).text;
}

type Prediction =
  | { status: 'ok'; op: 'read'; text: string; lines?: Array<[number, string]> }
  | { status: 'ok'; op: 'create'; content: string }
  | { status: 'ok'; op: 'edit'; base: string; newText: string; dirty: boolean; orphan: boolean; replacements?: number }
  | { status: 'blocked'; reason: Reason; text: string }
  | { status: 'error'; code: string };

interface Call {
  tool: ToolName;
  input: {
    filePath: string;
    offset?: number;
    limit?: number;
    content?: string;
    append?: boolean;
    oldString?: string;
    newString?: string;
    replaceAll?: boolean;
  };
}

/** What the product promises for this call on the oracle's state. */
function predict(p: PathModel, call: Call): Prediction {
  const cur = current(p);
  const { input } = call;
  if (call.tool === READ) {
    if (!cur.exists) return { status: 'error', code: 'not-found' };
    const lines = linesOf(cur.text);
    if (input.offset === undefined) return { status: 'ok', op: 'read', text: cur.text };
    if (input.offset > Math.max(lines.length, 1)) return { status: 'error', code: 'invalid-input' };
    const shown = lines
      .slice(input.offset - 1, input.offset - 1 + (input.limit ?? Infinity))
      .map((l, i): [number, string] => [input.offset! + i, l]);
    return { status: 'ok', op: 'read', text: cur.text, lines: shown };
  }
  if (!cur.exists)
    return call.tool === WRITE ? { status: 'ok', op: 'create', content: input.content! } : { status: 'error', code: 'not-found' };
  // bytes that are not valid UTF-8 in a clean file: never written (the buffer of a dirty one is text)
  if (!cur.dirty && cur.invalidUtf8) return { status: 'error', code: 'binary' };
  const hash = sha256(cur.text);
  if (!p.mark) return { status: 'blocked', reason: 'not-read', text: cur.text };
  if (p.mark.hash !== hash) return { status: 'blocked', reason: 'changed', text: cur.text };
  // no turn id: an own write never counts across calls (ownWriteKeepsMark sameTurn acts as never)
  if (p.mark.origin === 'write') return { status: 'blocked', reason: 'own-write-expired', text: cur.text };
  const eol = eolFor(p);
  const orphan = cur.dirty && !p.disk;
  if (call.tool === WRITE) {
    const content = normalizeEol(input.content!, eol);
    return { status: 'ok', op: 'edit', base: cur.text, newText: input.append ? cur.text + content : content, dirty: cur.dirty, orphan };
  }
  const oldString = input.oldString!;
  const newString = input.newString!;
  if (oldString === '') {
    return cur.text === ''
      ? { status: 'ok', op: 'edit', base: '', newText: normalizeEol(newString, eol), dirty: cur.dirty, orphan, replacements: 1 }
      : { status: 'error', code: 'invalid-input' };
  }
  // an oldString with LF matches the document's CRLF; the replacement gets the document's line ending
  const folded = lf(cur.text);
  const needle = lf(oldString);
  const count = occurrences(folded, needle);
  if (count === 0) return { status: 'error', code: 'no-match' };
  if (count > 1 && !input.replaceAll) return { status: 'error', code: 'ambiguous' };
  const replacement = normalizeEol(newString, '\n');
  const after = input.replaceAll ? folded.split(needle).join(replacement) : folded.replace(needle, () => replacement);
  return {
    status: 'ok',
    op: 'edit',
    base: cur.text,
    newText: eol === '\r\n' ? after.replace(/\n/g, '\r\n') : after,
    dirty: cur.dirty,
    orphan,
    replacements: input.replaceAll ? count : 1,
  };
}

// ---------------------------------------------------------------------------------------------
// counts

const KINDS = [
  'read',
  'read-range',
  'write',
  'append',
  'replace',
  'replace-no-match',
  'create',
  'type',
  'type-during-write',
  'disk-write',
  'disk-write-then-call',
  'disk-invalid-utf8',
  'delete',
  'delete-dirty',
  'rename',
  'rename-dirty',
  'evict',
  'save',
  'revert',
] as const;
type Kind = (typeof KINDS)[number];

const WEIGHTS: Record<Kind, number> = {
  read: 9,
  'read-range': 4,
  write: 6,
  append: 6,
  replace: 9,
  'replace-no-match': 2,
  create: 1.5,
  type: 8,
  'type-during-write': 4,
  'disk-write': 4,
  'disk-write-then-call': 6,
  'disk-invalid-utf8': 1,
  delete: 1.5,
  'delete-dirty': 2,
  rename: 1,
  'rename-dirty': 1.5,
  evict: 1.5,
  save: 2.5,
  revert: 2.5,
};

function newStats() {
  return {
    sequences: 0,
    steps: 0,
    calls: 0,
    kinds: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    status: { ok: 0, blocked: 0, error: 0 } as Record<string, number>,
    reasons: {} as Record<string, number>,
    codes: {} as Record<string, number>,
    retriesPassed: 0,
    retriesInvalid: 0,
    /** agent calls made while VS Code had not loaded the disk's newer text */
    lagCalls: 0,
    /** of those, writes that passed (the product waited for the load or wrote the disk) */
    lagWrites: 0,
    onDiskWrites: 0,
    creates: 0,
    orphanWrites: 0,
    keptUnsaved: 0,
    raceNotSaved: 0,
    raceSavedFirst: 0,
    raceKeystrokeRefused: 0,
    raceInEditor: 0,
    saveRefused: 0,
    onlyLineEndings: 0,
    evictedThenChanged: 0,
    typedNothing: 0,
    missedLoads: 0,
  };
}
type Stats = ReturnType<typeof newStats>;

// ---------------------------------------------------------------------------------------------
// one sequence

interface Sequence {
  index: number;
  rng: Rng;
  dir: string;
  dirAbs: string;
  paths: PathModel[];
  /** every name this sequence gave a file (for look-alikes elsewhere) */
  names: Set<string>;
  kindsRun: Set<Kind>;
  evictions: number;
  renames: number;
  created: number;
  log: string[];
  stats: Stats;
}

function newPath(seq: Sequence, tag: string): PathModel {
  const f = fileRef(`${seq.dir}/s${seq.index}-${tag}.txt`);
  seq.names.add(path.basename(f.abs));
  const p: PathModel = {
    name: path.basename(f.abs),
    f,
    disk: undefined,
    dirty: false,
    buffer: undefined,
    touchedBehind: false,
    stale: false,
    vscodeMayHold: [],
    mark: undefined,
    shown: undefined,
    known: [],
  };
  seq.paths.push(p);
  return p;
}

const note = (seq: Sequence, line: string) => seq.log.push(`    ${line}`);

const listDir = (seq: Sequence): string[] => (fs.existsSync(seq.dirAbs) ? fs.readdirSync(seq.dirAbs).sort() : []);

interface Snapshot {
  states: Array<{ p: PathModel; state: FileState; pending: boolean }>;
  listing: string[];
}

const snapshot = (seq: Sequence): Snapshot => ({
  states: seq.paths.map((p) => ({ p, state: stateOf(p.f), pending: loadPending(p) })),
  listing: listDir(seq),
});

/** Check 3: disk bytes, buffer text and dirty flag of every path (but `except`) as before, and no new file. */
function assertNothingChanged(seq: Sequence, before: Snapshot, except: PathModel | undefined, what: string): void {
  for (const { p, state, pending } of before.states) {
    if (p === except) continue;
    if (!pending) {
      assertUnchanged(p.f, state, `${what}: ${p.name}`);
      continue;
    }
    // VS Code loads the disk's newer text into the clean document while the call runs: its text may
    // go from the old text to the disk's, and nothing else may change
    const now = stateOf(p.f);
    assert.strictEqual(now.exists, state.exists, `${what}: ${p.name}: the file's existence changed`);
    assert.ok(
      now.bytes && state.bytes && now.bytes.equals(state.bytes),
      `${what}: ${p.name}: the bytes on disk changed to ${show(now.bytes)}`,
    );
    if (state.text !== undefined && now.text !== undefined) {
      assert.strictEqual(now.dirty, false, `${what}: ${p.name}: the clean document became dirty`);
      assert.ok(
        now.text === state.text || now.text === held(p.disk!).text,
        `${what}: ${p.name}: the buffer became ${show(now.text)}, neither its text nor the disk's`,
      );
    }
  }
  if (!except) assert.deepStrictEqual(listDir(seq), before.listing, `${what}: no file appeared or went in ${seq.dir}`);
}

/** Waits (bounded) until the document holds `text`; whether it does. */
async function settleLoad(doc: vscode.TextDocument, text: string, ms: number): Promise<boolean> {
  return waitFor(() => doc.getText() === text, 'VS Code to load the disk', ms).then(
    () => true,
    () => false,
  );
}

/** Checks 3, 4, 7 (the folder) and 8 against the oracle, for every path of the sequence. */
async function verifyAll(seq: Sequence, what: string): Promise<void> {
  for (const p of seq.paths) {
    const exists = fs.existsSync(p.f.abs);
    assert.strictEqual(
      exists,
      p.disk !== undefined,
      `${what}: ${p.name} ${p.disk ? 'is missing on disk' : 'exists on disk, and nobody created it'}`,
    );
    if (p.disk) {
      const bytes = fs.readFileSync(p.f.abs);
      assert.ok(bytes.equals(p.disk), `${what}: ${p.name}: the disk holds ${show(bytes, 200)}, expected ${show(p.disk, 200)}`);
    }
    const doc = docFor(p.f);
    if (p.dirty) {
      assert.ok(doc && !doc.isClosed, `${what}: ${p.name}: the document with unsaved changes is gone`);
      assert.ok(doc.isDirty, `${what}: ${p.name}: the document with unsaved changes is no longer dirty (saved or lost)`);
      assert.strictEqual(doc.getText(), p.buffer, `${what}: ${p.name}: the unsaved buffer changed`);
      const breaks = p.buffer!.match(/\r\n|\r|\n/g) ?? [];
      if (breaks.length)
        assert.ok(
          breaks.every((b) => b === docEol(doc)),
          `${what}: ${p.name}: a buffer holds one line ending (${doc.eol}): ${show(p.buffer)}`,
        );
    } else if (doc && !doc.isClosed) {
      assert.ok(
        !doc.isDirty,
        `${what}: ${p.name}: the document is dirty, but nothing unsaved is expected in it (text ${show(doc.getText())}, disk ${show(p.disk)})`,
      );
      if (p.disk) {
        // check 8: a clean document, once VS Code has loaded the disk, holds the disk's bytes by the one-line-ending rule
        const h = held(p.disk);
        if (!p.stale) await settleLoad(doc, h.text, 3000);
        if (doc.getText() === h.text) {
          if (h.breaks > 0) assert.strictEqual(docEol(doc), h.eol, `${what}: ${p.name}: the document's line ending`);
          p.stale = false;
          p.vscodeMayHold = [h.text];
        } else {
          // VS Code did not load the change: the document still holds a text it held before
          assert.ok(
            p.vscodeMayHold.includes(doc.getText()),
            `${what}: ${p.name}: the clean document holds ${show(doc.getText(), 200)}, neither the disk's text as VS Code holds it (${show(h.text, 200)}) nor one it held before`,
          );
          if (!p.stale) {
            p.stale = true;
            seq.stats.missedLoads++;
            note(seq, `VS Code did not load the disk's text of ${p.name} into its clean document`);
          }
        }
      }
    }
  }
  const expected = seq.paths
    .filter((p) => p.disk)
    .map((p) => path.basename(p.f.abs))
    .sort();
  assert.deepStrictEqual(listDir(seq), expected, `${what}: the files in ${seq.dir}`);
}

/** Check 5: the newest mark the product holds for the file is the one the oracle expects. */
function checkMark(p: PathModel, what: string, shown?: readonly string[]): void {
  const m = newestMark(p.f.uri);
  if (!p.mark) {
    assert.ok(!m, `${what}: ${p.name} has a mark although the agent never saw it: ${safeJson(m)}`);
    return;
  }
  assert.ok(m, `${what}: ${p.name} has no mark`);
  assert.strictEqual(m.origin, p.mark.origin, `${what}: ${p.name}: the newest mark's origin`);
  assert.strictEqual(m.hash, p.mark.hash, `${what}: ${p.name}: the newest mark is not of the text the oracle expects`);
  if (shown) assert.ok(hashesOf(shown).has(m.hash), `${what}: ${p.name}: the newest mark is not of a text the output showed`);
}

/**
 * One agent call, checked: status as predicted, what it showed, what it changed and did not
 * change, the mark it left. `race`: a keystroke typed at the end the moment the agent's edit lands.
 */
async function agent(seq: Sequence, p: PathModel, call: Call, label: string, race?: string): Promise<ToolOutcome> {
  const { stats } = seq;
  const what = `${label}: ${call.tool} ${safeJson({ ...call.input, filePath: p.name })}`;
  stats.calls++;
  const pending = loadPending(p);
  if (pending) stats.lagCalls++;
  const before = snapshot(seq);
  const markBefore = newestMark(p.f.uri);
  const pred = predict(p, call);
  // a clean file no editor shows is written to the disk, and its document follows it late, as after another program's
  const straight = !p.dirty && !docInTab(p);
  let typing: Promise<boolean> | undefined;
  let typed = '';
  if (race !== undefined && pred.status === 'ok' && pred.op === 'edit' && pred.newText !== pred.base) {
    const doc = docFor(p.f);
    assert.ok(doc, `${what}: VS Code holds the document the user types in`);
    typed = normalizeEol(race, docEol(doc));
    typing = typeWhenAgentEditLands(
      doc,
      (t) => t === pred.newText,
      (d) => insertAtEnd(d, race),
    );
  }

  // check 1: a result with a JSON part and a known status; nothing throws
  let out: ToolOutcome;
  try {
    out = await invokeRaw(call.tool, call.input);
  } catch (e) {
    assert.fail(`${what}: the call threw: ${e instanceof Error ? e.stack : String(e)}`);
  }
  const json = out.json;
  assert.ok(['ok', 'blocked', 'error'].includes(json.status), `${what}: status ${json.status}`);
  assert.strictEqual(json.tool, call.tool, `${what}: json.tool`);
  assert.ok(typeof json.message === 'string' && json.message.length > 0, `${what}: json.message`);
  stats.status[json.status] = (stats.status[json.status] ?? 0) + 1;
  if (json.reason) stats.reasons[json.reason] = (stats.reasons[json.reason] ?? 0) + 1;
  if (json.code) stats.codes[json.code] = (stats.codes[json.code] ?? 0) + 1;
  const got = json.status === 'ok' ? 'ok' : `${json.status} ${json.reason ?? json.code}`;
  note(
    seq,
    `${call.tool.replace('editGuard_', '')} ${p.name}${pending ? ' (VS Code loading)' : ''} ${show(call.input.content ?? call.input.oldString ?? '', 40)}${call.input.append ? ' append' : ''}${call.input.newString !== undefined ? ` → ${show(call.input.newString, 30)}` : ''} => ${got}${json.status === 'ok' && call.tool !== READ ? ` saved=${json.saved} keptUnsaved=${json.keptUnsaved}` : ''}`,
  );

  const dump = () =>
    `\n--- json: ${safeJson(json)}\n--- text:\n${out.text}\n--- oracle: current ${show(current(p).exists ? (current(p) as { text: string }).text : undefined, 300)}, disk ${show(p.disk, 300)}, dirty ${p.dirty}, mark ${safeJson(p.mark)}`;
  const expected = pred.status === 'ok' ? 'ok' : pred.status === 'blocked' ? `blocked ${pred.reason}` : `error ${pred.code}`;
  assert.strictEqual(got, expected, `${what}: the product's answer${dump()}`);

  if (pred.status === 'error') {
    assertNothingChanged(seq, before, undefined, what);
    const m = newestMark(p.f.uri);
    assert.strictEqual(
      safeJson(m && [m.hash, m.origin, m.at]),
      safeJson(markBefore && [markBefore.hash, markBefore.origin, markBefore.at]),
      `${what}: an error leaves the marks as they were`,
    );
    return out;
  }

  if (pred.status === 'blocked') {
    assertNothingChanged(seq, before, undefined, what);
    // the refusal shows the current text (numbered) or a diff from what the agent saw
    let shown: string[] | undefined;
    if (/Only line endings or invisible characters changed/.test(out.text)) {
      stats.onlyLineEndings++;
      assert.ok(
        p.known.some((k) => lf(k) === lf(pred.text)),
        `${what}: "Only line endings" although the text changed: the agent saw ${p.known.map((k) => show(k)).join(' or ')}${dump()}`,
      );
      shown = eitherEol(p.known);
    } else shown = shownTexts(out.text, p.known);
    assert.ok(
      shown && shown.includes(pred.text),
      `${what}: the refusal does not show the current text ${show(pred.text)} (as content or as a diff on ${p.known.map((k) => show(k)).join(' or ')})${dump()}`,
    );
    p.shown = shown;
    p.known = shown;
    p.mark = { hash: sha256(pred.text), origin: 'refusal' };
    checkMark(p, what, shown);
    return out;
  }

  if (pred.op === 'read') {
    assertNothingChanged(seq, before, p, what);
    if (!pred.lines) {
      const shown = textsFromNumbered(out.text);
      assert.ok(shown && shown.includes(pred.text), `${what}: the read does not show the current text ${show(pred.text)}${dump()}`);
      p.shown = shown;
      p.known = shown;
    } else {
      const rows = out.text
        .split(/\r?\n/)
        .map((l) => /^\s*(\d+)\t(.*)$/.exec(l))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m): [number, string] => [Number(m[1]), m[2]]);
      assert.deepStrictEqual(rows, pred.lines, `${what}: the ranged read shows these lines of the current text${dump()}`);
      // a ranged read marks the whole text whose lines it showed (checked just above)
      p.shown = [pred.text];
      p.known = [pred.text];
    }
    p.mark = { hash: sha256(pred.text), origin: 'read' };
    checkMark(p, what, p.shown);
    return out;
  }

  assertNothingChanged(seq, before, p, what);
  if (pred.op === 'create') {
    stats.creates++;
    assert.strictEqual(json.created, true, `${what}: json.created${dump()}`);
    assert.strictEqual(json.saved, true, `${what}: json.saved${dump()}`);
    p.disk = Buffer.from(pred.content, 'utf8');
    const h = held(p.disk);
    p.vscodeMayHold.push(h.text);
    p.mark = { hash: sha256(h.text), origin: 'write' };
    p.known = [h.text];
    p.shown = undefined;
    checkMark(p, what);
    return out;
  }

  // check 2: the write landed on a text the agent was shown last (own writes do not count: no turn)
  assert.ok(
    p.shown && hashesOf(p.shown).has(sha256(pred.base)),
    `${what}: the write landed on ${show(pred.base)}, which the agent was not shown last (shown: ${p.shown ? p.shown.map((s) => show(s)).join(' or ') : 'nothing since its own write'})${dump()}`,
  );
  if (pred.replacements !== undefined) assert.strictEqual(json.replacements, pred.replacements, `${what}: json.replacements${dump()}`);
  if (pending) stats.lagWrites++;
  const onDisk = straight || /written to the file itself/.test(out.text);
  if (onDisk) stats.onDiskWrites++;
  if (pred.orphan) stats.orphanWrites++;
  const keystroke = typing ? await typing : false;
  let markText = pred.newText;
  if (pred.dirty) {
    // check 4: the user's unsaved changes stay unsaved, with the agent's edit; the disk is untouched
    stats.keptUnsaved++;
    assert.strictEqual(json.saved, false, `${what}: a write onto unsaved changes is not saved${dump()}`);
    assert.strictEqual(json.keptUnsaved, true, `${what}: json.keptUnsaved${dump()}`);
    p.buffer = pred.newText + (keystroke ? typed : '');
  } else if (keystroke) {
    const doc = docFor(p.f)!;
    if (json.saved === false) {
      // the keystroke reached the document after the agent's edit, before the save: nothing saved
      stats.raceNotSaved++;
      assert.strictEqual(json.keptUnsaved, true, `${what}: json.keptUnsaved when the user typed during the write${dump()}`);
    } else {
      // saved: only the agent's text may be on disk (the keystroke came after the save), never the user's keystroke
      stats.raceSavedFirst++;
      assert.strictEqual(
        fs.readFileSync(p.f.abs).toString('utf8'),
        pred.newText,
        `${what}: the user's keystroke ${show(typed)}, typed the moment the agent's edit landed${race && docInEditor(p) ? ' (in the editor showing the file)' : ''}, was saved to disk with the agent's write (formatterChanged=${json.formatterChanged})${dump()}`,
      );
      p.disk = Buffer.from(pred.newText, 'utf8');
      if (json.formatterChanged) markText = doc.getText();
    }
    p.dirty = true;
    p.buffer = pred.newText + typed;
  } else {
    if (typing) stats.raceKeystrokeRefused++;
    assert.strictEqual(json.saved, true, `${what}: a write to a clean document is saved${dump()}`);
    assert.strictEqual(json.keptUnsaved, false, `${what}: json.keptUnsaved${dump()}`);
    p.disk = Buffer.from(pred.newText, 'utf8');
  }
  if (json.saved) p.touchedBehind = false;
  if (json.saved && !onDisk) {
    p.stale = false;
    p.vscodeMayHold = [pred.newText];
  } else if (json.saved) p.vscodeMayHold.push(pred.newText);
  p.mark = { hash: sha256(markText), origin: 'write' };
  p.known = [markText];
  p.shown = undefined;
  checkMark(p, what);
  // check 4/8 on the buffer right after the write: the agent's text, with the document's line ending
  const doc = docFor(p.f);
  if (doc && !doc.isClosed && !onDisk) {
    assert.strictEqual(doc.getText(), p.dirty ? p.buffer : pred.newText, `${what}: the document right after the write${dump()}`);
  }
  return out;
}

/** An agent intent; after a refusal, the same intent again at once (check 6: it passes on the shown text). */
async function intent(
  seq: Sequence,
  p: PathModel,
  call: Call,
  label: string,
  options: { race?: string; afterRefusal?: () => void } = {},
): Promise<ToolOutcome> {
  const out = await agent(seq, p, call, label, options.race);
  if (out.json.status !== 'blocked') return out;
  options.afterRefusal?.();
  const retry = await agent(seq, p, call, `${label} (retry)`);
  assert.notStrictEqual(
    retry.json.status,
    'blocked',
    `${label}: the retry right after a refusal, on the text it showed, was blocked again:\n${retry.text}`,
  );
  if (retry.json.status === 'ok') seq.stats.retriesPassed++;
  else {
    // the intent does not fit the text the refusal showed (a replace whose oldString is gone or now ambiguous)
    assert.ok(
      call.tool === REPLACE && ['no-match', 'ambiguous'].includes(retry.json.code ?? ''),
      `${label}: the retry failed: ${safeJson(retry.json)}`,
    );
    seq.stats.retriesInvalid++;
  }
  return retry;
}

// ---- the agent's intents

function writeCall(seq: Sequence, p: PathModel, append: boolean): Call {
  const content = append ? genText(seq.rng, 3, false) : genText(seq.rng);
  return { tool: WRITE, input: append ? { filePath: p.f.rel, content, append: true } : { filePath: p.f.rel, content } };
}

function replaceCall(seq: Sequence, p: PathModel): Call {
  const { rng } = seq;
  const cur = current(p);
  const text = cur.exists ? lf(cur.text) : '';
  let newString = rng.chance(0.2) ? genText(rng, 2, false) : rng.pick(WORDS) + 'R';
  if (text === '')
    return { tool: REPLACE, input: { filePath: p.f.rel, oldString: cur.exists && rng.chance(0.5) ? '' : 'alpha', newString } };
  let oldString = '';
  let replaceAll = false;
  for (let attempt = 0; attempt < 12; attempt++) {
    const start = rng.int(0, text.length - 1);
    const candidate = text.slice(start, start + rng.int(1, 12));
    const n = occurrences(text, candidate);
    oldString = candidate;
    if (n === 1) break;
    if (n > 1 && rng.chance(0.35)) {
      replaceAll = true;
      break;
    }
  }
  if (lf(normalizeEol(newString, '\n')) === oldString) newString += 'R';
  // an agent copies text with LF, or with the file's CRLF
  if (rng.chance(0.4)) oldString = oldString.replace(/\n/g, '\r\n');
  return {
    tool: REPLACE,
    input: replaceAll ? { filePath: p.f.rel, oldString, newString, replaceAll } : { filePath: p.f.rel, oldString, newString },
  };
}

function randomCall(seq: Sequence, p: PathModel): Call {
  const r = seq.rng.next();
  if (r < 0.25) return { tool: READ, input: { filePath: p.f.rel } };
  if (r < 0.5) return writeCall(seq, p, false);
  if (r < 0.75) return writeCall(seq, p, true);
  return replaceCall(seq, p);
}

// ---- the user and other programs

async function userTypes(seq: Sequence, p: PathModel): Promise<void> {
  const { rng } = seq;
  let doc = docFor(p.f);
  if (!doc || doc.isClosed) doc = await vscode.workspace.openTextDocument(p.f.uri);
  // the user types into what the editor shows: VS Code has loaded the disk (unless it missed the change)
  if (!p.dirty && p.disk && !p.stale && !(await settleLoad(doc, held(p.disk).text, 3000))) {
    p.stale = true;
    seq.stats.missedLoads++;
    note(seq, `VS Code did not load the disk's text of ${p.name} into its clean document`);
  }
  const base = doc.getText();
  if (p.dirty) assert.strictEqual(base, p.buffer, `${p.name}: the buffer before the keystroke`);
  else if (p.disk)
    assert.ok(
      base === held(p.disk).text || (p.stale && p.vscodeMayHold.includes(base)),
      `${p.name}: the clean document before the keystroke holds ${show(base)}`,
    );
  // typing into a document that is behind the disk: VS Code's record of the file is older than the disk
  if (!p.dirty && p.disk && base !== held(p.disk).text) p.touchedBehind = true;
  const a = safeOffset(base, rng.int(0, base.length));
  const b = rng.chance(0.25) ? Math.max(a, safeOffset(base, Math.min(base.length, a + rng.int(1, 4)))) : a;
  const typed = a === b || rng.chance(0.5) ? rng.pick(TYPED) : '';
  const edit = new vscode.WorkspaceEdit();
  edit.replace(p.f.uri, new vscode.Range(doc.positionAt(a), doc.positionAt(b)), typed);
  const expected = base.slice(0, a) + normalizeEol(typed, docEol(doc)) + base.slice(b);
  // VS Code drops a lone CR that ends the typed text right before a CRLF of a CRLF document
  const dropped =
    docEol(doc) === '\r\n' && typed.endsWith('\r') && base.startsWith('\r\n', b)
      ? base.slice(0, a) + normalizeEol(typed.slice(0, -1), '\r\n') + base.slice(b)
      : undefined;
  note(seq, `user types ${show(typed, 20)} over ${show(base.slice(a, b), 20)} at ${a} in ${p.name}${p.disk ? '' : ' (deleted on disk)'}`);
  if (expected === base) return; // nothing to type (deleting nothing)
  assert.ok(await vscode.workspace.applyEdit(edit), `${p.name}: VS Code applies the keystroke`);
  const now = doc.getText();
  assert.ok(
    now === expected || now === dropped,
    `${p.name}: the keystroke is in the buffer, with the document's line ending: ${show(now, 200)}, expected ${show(expected, 200)}`,
  );
  if (now === base) {
    seq.stats.typedNothing++;
    note(seq, 'VS Code typed nothing (a lone CR before a CRLF)');
    return;
  }
  assert.ok(doc.isDirty, `${p.name}: the keystroke leaves the document dirty`);
  p.dirty = true;
  p.buffer = now;
}

function otherProgramWrites(seq: Sequence, p: PathModel, bytes: Buffer): void {
  const doc = docFor(p.f);
  writeBehindVsCode(p.f, bytes);
  note(seq, `another program writes ${p.name}: ${show(bytes)}`);
  p.disk = bytes;
  p.vscodeMayHold.push(held(bytes).text);
  // VS Code keeps a dirty buffer and may then refuse to save it over the newer file; a clean
  // document whose text does not change may not have taken in the new file either
  if (doc && !doc.isClosed && (p.dirty || doc.getText() === held(bytes).text)) p.touchedBehind = true;
}

// ---- choosing the step

const exists = (p: PathModel) => current(p).exists;
/** A file whose buffer VS Code holds dirty after its file was deleted: another program creating the
 * file now makes VS Code revert the buffer (editor.ts), a loss that is VS Code's, not the product's. */
const dirtyOrphan = (p: PathModel) => p.dirty && !p.disk;

function candidates(seq: Sequence, kind: Kind): PathModel[] {
  const ps = seq.paths;
  switch (kind) {
    case 'read':
    case 'write':
    case 'append':
      return ps;
    case 'read-range':
    case 'replace':
    case 'replace-no-match':
      return ps.filter(exists);
    case 'create':
      return ps.length < MAX_PATHS ? ps : [];
    case 'type':
      return ps.filter((p) => p.dirty || p.disk || (docFor(p.f) && !docFor(p.f)!.isClosed));
    case 'type-during-write':
      return ps.filter((p) => exists(p) && !(!p.dirty && held(p.disk!).invalidUtf8));
    case 'disk-write':
    case 'disk-write-then-call':
    case 'disk-invalid-utf8':
      return ps.filter((p) => !dirtyOrphan(p));
    case 'delete':
      return ps.filter((p) => p.disk && !p.dirty);
    case 'delete-dirty':
      return ps.filter((p) => p.disk && p.dirty);
    case 'rename':
      return ps.length < MAX_PATHS ? ps.filter((p) => p.disk && !p.dirty) : [];
    case 'rename-dirty':
      return ps.length < MAX_PATHS ? ps.filter((p) => p.disk && p.dirty) : [];
    case 'evict':
      // evictDocument closes all editors: VS Code would ask to save each dirty one (it opens an editor
      // for a document an extension made dirty), and the test host answers by discarding the changes
      return seq.evictions < MAX_EVICTIONS && !vscode.workspace.textDocuments.some((d) => d.isDirty)
        ? ps.filter((p) => p.disk && !p.dirty)
        : [];
    case 'save':
    case 'revert':
      return ps.filter((p) => p.dirty);
  }
}

function chooseStep(seq: Sequence): { kind: Kind; p: PathModel } {
  const { rng } = seq;
  const open = KINDS.filter((k) => candidates(seq, k).length > 0);
  // now and then a kind this sequence has not run yet, so every sequence reaches most of them
  const unseen = open.filter((k) => !seq.kindsRun.has(k));
  let kind: Kind;
  if (unseen.length && rng.chance(0.3)) kind = rng.pick(unseen);
  else {
    const total = open.reduce((s, k) => s + WEIGHTS[k], 0);
    let r = rng.next() * total;
    kind = open[open.length - 1];
    for (const k of open) {
      r -= WEIGHTS[k];
      if (r < 0) {
        kind = k;
        break;
      }
    }
  }
  return { kind, p: rng.pick(candidates(seq, kind)) };
}

async function runStep(seq: Sequence, n: number): Promise<void> {
  const { rng, stats } = seq;
  const { kind, p } = chooseStep(seq);
  seq.kindsRun.add(kind);
  stats.kinds[kind]++;
  stats.steps++;
  const label = `step ${n} (${kind} ${p.name})`;
  seq.log.push(`#${n} ${kind} ${p.name}`);
  switch (kind) {
    case 'read':
      await agent(seq, p, { tool: READ, input: { filePath: p.f.rel } }, label);
      break;
    case 'read-range': {
      const cur = current(p) as { text: string };
      const offset = rng.int(1, Math.max(1, linesOf(cur.text).length));
      await agent(seq, p, { tool: READ, input: { filePath: p.f.rel, offset, limit: rng.int(1, 3) } }, label);
      break;
    }
    case 'write':
    case 'append':
      await intent(seq, p, writeCall(seq, p, kind === 'append'), label);
      break;
    case 'replace':
      await intent(seq, p, replaceCall(seq, p), label);
      break;
    case 'replace-no-match':
      await intent(seq, p, { tool: REPLACE, input: { filePath: p.f.rel, oldString: `QQ${rng.pick(WORDS)}`, newString: 'never' } }, label);
      break;
    case 'create': {
      const q = newPath(seq, `n${++seq.created}`);
      await intent(seq, q, writeCall(seq, q, rng.chance(0.3)), label);
      break;
    }
    case 'type':
      await userTypes(seq, p);
      break;
    case 'type-during-write': {
      // the agent reads, then writes; the user's keystroke reaches the document right after the agent's edit
      await agent(seq, p, { tool: READ, input: { filePath: p.f.rel } }, label);
      const ready = !loadPending(p) || (await settleLoad(docFor(p.f)!, held(p.disk!).text, 1000));
      // now and then the user types in the editor showing the file (else into the document, as an extension would)
      if (rng.chance(0.35)) {
        await vscode.window.showTextDocument(docFor(p.f)!, { preview: false });
        stats.raceInEditor++;
        note(seq, `${p.name} is shown in an editor`);
      }
      let call = writeCall(seq, p, rng.chance(0.5));
      const pred = predict(p, call);
      if (pred.status === 'ok' && pred.op === 'edit' && pred.newText === pred.base)
        call = { tool: WRITE, input: { filePath: p.f.rel, content: 'different\n', append: true } };
      // (a document VS Code does not bring up to date gets the agent's edit on disk: nothing lands to type after)
      const keystroke = rng.pick(TYPED.filter((t) => !/^\s+$/.test(t)));
      await agent(seq, p, call, label, ready ? keystroke : undefined);
      break;
    }
    case 'disk-write':
    case 'disk-invalid-utf8': {
      const cur = current(p);
      const text = genDiskText(rng, p.disk ? held(p.disk).text : cur.exists ? cur.text : undefined);
      otherProgramWrites(seq, p, kind === 'disk-write' ? Buffer.from(text, 'utf8') : withInvalidUtf8(rng, text || 'x'));
      if (kind === 'disk-invalid-utf8' && rng.chance(0.6)) {
        // at once, while VS Code loads it
        await intent(seq, p, randomCall(seq, p), label);
        break;
      }
      // VS Code has loaded it (the document follows the disk) before anything else happens
      const doc = docFor(p.f);
      if (doc && !doc.isClosed && !p.dirty) await verifyAll(seq, `${label} (waited for the load)`);
      if (rng.chance(0.4)) await intent(seq, p, randomCall(seq, p), label);
      break;
    }
    case 'disk-write-then-call': {
      const cur = current(p);
      otherProgramWrites(seq, p, Buffer.from(genDiskText(rng, p.disk ? held(p.disk).text : cur.exists ? cur.text : undefined), 'utf8'));
      // at once: VS Code takes ~100–150 ms to load the new text into a clean document
      const call = randomCall(seq, p);
      await intent(seq, p, call, label);
      if (call.tool === READ && rng.chance(0.6))
        await intent(seq, p, rng.chance(0.5) ? replaceCall(seq, p) : writeCall(seq, p, rng.chance(0.5)), label);
      break;
    }
    case 'delete':
    case 'delete-dirty':
      fs.unlinkSync(p.f.abs);
      note(seq, `another program deletes ${p.name}${p.dirty ? ' (its document has unsaved changes)' : ''}`);
      p.disk = undefined;
      p.touchedBehind = false; // saving a buffer whose file is gone creates the file: no conflict
      if (rng.chance(0.6)) await intent(seq, p, randomCall(seq, p), label);
      break;
    case 'rename':
    case 'rename-dirty': {
      const q = newPath(seq, `r${++seq.renames}`);
      fs.renameSync(p.f.abs, q.f.abs);
      note(seq, `another program renames ${p.name} to ${q.name}${p.dirty ? ' (its document has unsaved changes)' : ''}`);
      q.disk = p.disk;
      q.vscodeMayHold = [held(q.disk!).text];
      p.disk = undefined;
      p.touchedBehind = false;
      if (rng.chance(0.6)) {
        const target = rng.chance(0.5) ? p : q;
        await intent(seq, target, randomCall(seq, target), label);
      }
      break;
    }
    case 'evict': {
      // a read from before the drop, unless the agent's newest mark is already of the current text
      const cur = current(p) as { text: string };
      if (!p.mark || p.mark.origin === 'write' || p.mark.hash !== sha256(cur.text))
        await agent(seq, p, { tool: READ, input: { filePath: p.f.rel } }, label);
      const opened = await evictDocument(p.f);
      seq.evictions++;
      // the next document is loaded fresh
      p.touchedBehind = false;
      p.stale = false;
      p.vscodeMayHold = [held(p.disk!).text];
      note(seq, `VS Code dropped the document of ${p.name} (${opened} others opened)`);
      if (rng.chance(0.7)) {
        // another program changes the file; the agent writes on its read from before the drop
        otherProgramWrites(seq, p, Buffer.from(mutate(rng, held(p.disk!).text), 'utf8'));
        const call = rng.chance(0.5) ? writeCall(seq, p, rng.chance(0.5)) : replaceCall(seq, p);
        await intent(seq, p, call, label, {
          afterRefusal: () => {
            const doc = docFor(p.f);
            assert.ok(doc, `${label}: the refusal opened the document again`);
            // VS Code's reopened document is a new one: its version starts at 1 again
            assert.strictEqual(doc.version, 1, `${label}: the reopened document's version`);
            seq.stats.evictedThenChanged++;
          },
        });
      }
      break;
    }
    case 'save': {
      const doc = docFor(p.f)!;
      const saved = await doc.save();
      note(seq, `user saves ${p.name}: ${saved ? 'saved' : 'VS Code refused (the file is newer on disk)'}`);
      if (saved) {
        // VS Code saves the buffer as it is (no save participants in this workspace)
        p.disk = Buffer.from(p.buffer!, 'utf8');
        p.vscodeMayHold = [p.buffer!];
        p.stale = false;
        p.dirty = false;
        p.buffer = undefined;
        p.touchedBehind = false;
      } else {
        // "File Modified Since": VS Code refuses when the mtime advanced and the size differs from what it loaded
        seq.stats.saveRefused++;
        assert.ok(p.touchedBehind, `${p.name}: VS Code refused to save although no other program wrote the file since it loaded it`);
      }
      break;
    }
    case 'revert': {
      const doc = docFor(p.f)!;
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      note(seq, `user reverts ${p.name}${p.disk ? '' : ' (deleted on disk: the buffer stays, clean)'}`);
      assert.ok(!doc.isDirty, `${p.name}: reverted, the document is clean`);
      // reverting reads the file again; a deleted file's document keeps its text, clean
      p.vscodeMayHold = p.disk ? [held(p.disk).text] : [...p.vscodeMayHold, doc.getText()];
      p.stale = false;
      p.dirty = false;
      p.buffer = undefined;
      p.touchedBehind = false;
      break;
    }
  }
  await verifyAll(seq, label);
}

/** Check 7: nowhere in the workspace a `file:` folder, an encoded path, or one of this sequence's names outside its folder. */
function checkWorkspace(seq: Sequence): void {
  const root = workspaceRoot();
  const dirName = path.basename(seq.dirAbs);
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs);
      assert.ok(!/^file:|%3a|%2f|^vscode-/i.test(e.name), `a surprise entry in the workspace: ${rel}`);
      if (abs === seq.dirAbs) {
        for (const inner of fs.readdirSync(abs, { withFileTypes: true }))
          assert.ok(inner.isFile(), `a folder appeared in ${seq.dir}: ${inner.name}`);
        continue;
      }
      assert.ok(!seq.names.has(e.name), `a look-alike of ${seq.dir}/${e.name} at ${rel}`);
      assert.ok(!e.name.includes(dirName), `a look-alike of ${seq.dir} at ${rel}`);
      if (e.isDirectory()) walk(abs);
    }
  };
  walk(root);
}

function newSequence(index: number, stats: Stats): Sequence {
  const dir = uniquePath(`lcr-s${index}`, '');
  return {
    index,
    rng: new Rng(sequenceSeed(SEED, index)),
    dir,
    dirAbs: fileRef(dir).abs,
    paths: [],
    names: new Set(),
    kindsRun: new Set(),
    evictions: 0,
    renames: 0,
    created: 0,
    log: [],
    stats,
  };
}

async function runSequence(seq: Sequence): Promise<void> {
  const { rng, stats } = seq;
  fs.mkdirSync(seq.dirAbs, { recursive: true });
  const count = rng.int(2, 3);
  for (let i = 0; i < count; i++) {
    const p = newPath(seq, String.fromCharCode(97 + i));
    p.disk = Buffer.from(genText(rng), 'utf8');
    p.vscodeMayHold = [held(p.disk).text];
    fs.writeFileSync(p.f.abs, p.disk);
    seq.log.push(`#0 ${p.name} = ${show(p.disk)}`);
  }
  stats.sequences++;
  for (let n = 1; n <= STEPS; n++) await runStep(seq, n);
  checkWorkspace(seq);
}

suite('document lifecycle, randomized (real host)', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(cleanUp);

  test('seeded random sequences of agent calls, user typing and saving, other programs writing, deleting and renaming, and VS Code dropping documents keep every promise', async function () {
    const indexes = ONLY !== undefined ? [ONLY] : Array.from({ length: SEQUENCES }, (_, i) => i);
    this.timeout(Math.max(180_000, indexes.length * STEPS * 2000));
    const stats = newStats();
    const failures: string[] = [];
    const started = Date.now();
    for (const index of indexes) {
      const seq = newSequence(index, stats);
      try {
        await runSequence(seq);
      } catch (e) {
        const replay = `EDITGUARD_LIFECYCLE_SEED=${SEED} EDITGUARD_LIFECYCLE_ONLY=${index} EDITGUARD_LIFECYCLE_STEPS=${STEPS} EDITGUARD_TEST_GREP='document lifecycle, randomized' npm run test:integration`;
        const message = e instanceof Error ? e.message : String(e);
        failures.push(`seed ${SEED}, sequence ${index}: ${message}\n  replay: ${replay}`);
        console.log(
          `LIFECYCLE FAILURE seed ${SEED} sequence ${index} (sequence seed ${sequenceSeed(SEED, index)}, folder ${seq.dir})\n  replay: ${replay}\n  ${message}\n  steps:\n${seq.log.join('\n')}`,
        );
      } finally {
        await cleanUp();
      }
    }
    const ms = Date.now() - started;
    const kinds = KINDS.map((k) => `${k}=${stats.kinds[k]}`).join(' ');
    console.log(
      `      MEASURE lifecycle random: ${stats.sequences} sequences, ${stats.steps} steps, ${stats.calls} tool calls, kinds: ${kinds}; ` +
        `results: ${safeJson(stats.status)} reasons ${safeJson(stats.reasons)} codes ${safeJson(stats.codes)}; retries passed ${stats.retriesPassed}, retries on a text the intent no longer fits ${stats.retriesInvalid}; ` +
        `calls while the document was behind the disk (VS Code loading it) ${stats.lagCalls} (writes among them that passed ${stats.lagWrites}, written on disk ${stats.onDiskWrites}); creates ${stats.creates}; writes kept unsaved ${stats.keptUnsaved} (into a deleted file's buffer ${stats.orphanWrites}); ` +
        `keystroke during a write: not saved ${stats.raceNotSaved}, saved (keystroke after the save) ${stats.raceSavedFirst}, keystroke refused ${stats.raceKeystrokeRefused}, typed in a visible editor ${stats.raceInEditor}; saves VS Code refused ${stats.saveRefused}; keystrokes VS Code dropped ${stats.typedNothing}; disk changes VS Code did not load ${stats.missedLoads}; "only line endings" refusals ${stats.onlyLineEndings}; ` +
        `blocked after a drop ${stats.evictedThenChanged}; seed ${SEED}; ${ms} ms`,
    );
    assert.deepStrictEqual(failures, [], `${failures.length} sequence(s) failed:\n${failures.join('\n')}`);
    if (ONLY === undefined) {
      // the suite proves it reaches every kind of step, and the lifecycle moments they are for
      const missing = KINDS.filter((k) => stats.kinds[k] === 0);
      assert.deepStrictEqual(missing, [], `kinds of step that never ran (seed ${SEED})`);
      for (const [what, n] of Object.entries({
        'a call while VS Code was loading a disk change': stats.lagCalls,
        'a retry after a refusal that passed': stats.retriesPassed,
        'a write into the buffer of a deleted file': stats.orphanWrites,
        'a keystroke during a write, not saved': stats.raceNotSaved,
        'a write after a drop, blocked changed': stats.evictedThenChanged,
        'a refusal': stats.status.blocked ?? 0,
        'a write kept unsaved': stats.keptUnsaved,
      })) {
        assert.ok(n > 0, `the run never reached ${what} (seed ${SEED})`);
      }
    }
  });
});
