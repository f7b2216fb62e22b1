// Property-based test of the revert's merge (docs/design.md §Revert): random texts before the
// agent's edit, after it, and now, made of a few short words and lines so that the two changes meet
// often — the same line, the line next to it, the same point — in LF and CRLF files, with and
// without a last line break.
//
// A clean merge must prove itself: the pieces revertPieces reports are a certificate, checked here
// on its own terms. Together they turn `after` into the current text, so every character the user's
// change wrote is in a piece (a), and into `before`, so the agent's whole change is in them (b); each
// keeps the user's side where only the user changed, takes the agent's change out where only the
// agent did, and where both did is one of the two cases the rule allows; and the result is `after`
// with each piece's merged text, so nothing else moved.
//
// A conflict must be real (e): a reference written here from the rule alone — hunks gathered by a
// fixed point instead of a sweep, each group decided by the rule, the finer granularities by
// recursion — must find that the changes meet too, and must merge exactly as the merge does when it
// does not. It reads each change as the merge does (readChange, checked on its own to be a minimal
// diff): a change of repeated lines can be read in more than one minimal way, and whether two changes
// meet depends on the reading. How often another minimal reading (a plain longest-common-subsequence
// table's) would have merged a conflict is counted and printed, not asserted. These texts are far
// too small to reach the merge's bounds on its work (MAX_EDITS, MAX_REFINED), which the reference
// leaves out.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Piece, readChange, revertChange, revertPieces } from '../../src/core/merge';

const LABELS = { current: 'current', reverted: 'reverted' };
const RUNS = Number(process.env.EDITGUARD_MERGE_RUNS ?? 4000);

// ---- generators: three words, lines of up to three of them, up to five lines --------------------

const word = fc.constantFrom('a', 'b', 'c', 'ab');
const line = fc.array(word, { maxLength: 3 }).map((w) => w.join(' '));
const lines = fc.array(line, { maxLength: 5 });

type Edit =
  | { k: 'set'; at: number; line: string }
  | { k: 'insert'; at: number; lines: string[] }
  | { k: 'delete'; at: number; count: number }
  /** one word of a line replaced (`to`), or deleted (`to` empty), or a word put in front of it (`insert`) */
  | { k: 'word'; at: number; word: number; to: string; insert: boolean }
  /** the last line break added or taken away */
  | { k: 'finalBreak' };

const at = fc.nat({ max: 5 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ k: fc.constant('set' as const), at, line }),
  fc.record({ k: fc.constant('insert' as const), at, lines: fc.array(line, { minLength: 1, maxLength: 2 }) }),
  fc.record({ k: fc.constant('delete' as const), at, count: fc.integer({ min: 1, max: 2 }) }),
  {
    arbitrary: fc.record({
      k: fc.constant('word' as const),
      at,
      word: fc.nat({ max: 2 }),
      to: fc.oneof(word, fc.constant('')),
      insert: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ k: 'finalBreak' as const }), weight: 1 },
);

interface Doc {
  lines: string[];
  finalBreak: boolean;
}

function applyEdit(doc: Doc, e: Edit): Doc {
  const ls = [...doc.lines];
  // the place, wrapped into the lines there are (an insertion may also go after the last)
  const i = e.k === 'insert' ? e.at % (ls.length + 1) : e.k !== 'finalBreak' && ls.length ? e.at % ls.length : 0;
  switch (e.k) {
    case 'set':
      if (ls.length) ls[i] = e.line;
      break;
    case 'insert':
      ls.splice(i, 0, ...e.lines);
      break;
    case 'delete':
      ls.splice(i, e.count);
      break;
    case 'word': {
      if (!ls.length) break;
      const ws = ls[i] === '' ? [] : ls[i].split(' ');
      const j = ws.length ? e.word % ws.length : 0;
      if (e.insert || !ws.length) ws.splice(j, 0, e.to || 'c');
      else if (e.to) ws[j] = e.to;
      else ws.splice(j, 1);
      ls[i] = ws.join(' ');
      break;
    }
    case 'finalBreak':
      return { lines: ls, finalBreak: !doc.finalBreak };
  }
  return { lines: ls, finalBreak: doc.finalBreak };
}

const render = (doc: Doc, eol: string): string =>
  doc.lines.map((l, i) => (i < doc.lines.length - 1 || doc.finalBreak ? l + eol : l)).join('');

/** before → (the agent's edits) → after → (the user's edits) → current; sometimes the user undoes it all by hand. */
const texts = fc
  .record({
    before: lines,
    finalBreak: fc.boolean(),
    eol: fc.constantFrom('\n', '\r\n'),
    agent: fc.array(edit, { minLength: 1, maxLength: 3 }),
    user: fc.array(edit, { maxLength: 3 }),
    undone: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  })
  .map(({ before, finalBreak, eol, agent, user, undone }) => {
    const start: Doc = { lines: before, finalBreak };
    const afterDoc = agent.reduce(applyEdit, start);
    const currentDoc = undone ? start : user.reduce(applyEdit, afterDoc);
    return { before: render(start, eol), after: render(afterDoc, eol), current: render(currentDoc, eol) };
  });

// ---- the reference: the rule, as plainly as it can be written -----------------------------------

interface Hunk {
  start: number;
  end: number;
  text: string;
}

/** The rule's granularities: lines (with their breaks), then words, then characters; a CRLF is never split. */
const LEVELS: ((text: string) => string[])[] = [
  (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [],
  (text) => text.match(/\r\n|[\p{L}\p{N}_]+|[^\S\r\n]+|[\s\S]/gu) ?? [],
  (text) => text.match(/\r\n|[\s\S]/gu) ?? [],
];

type Reading = (base: string[], other: string[]) => Hunk[];

/** lcs[i][j]: the length of the longest common subsequence of a[i..] and b[j..]. */
function lcsTable(a: readonly string[], b: readonly string[]): number[][] {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  return lcs;
}

/**
 * Another minimal reading, off a plain longest-common-subsequence table, which takes a token out
 * of `base` rather than into it when both are as short: where a change can be read two ways (a
 * repeated line), it often reads it the other way than the merge does.
 */
const tableReading: Reading = (a, b) => {
  const lcs = lcsTable(a, b);
  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  let offset = 0;
  for (let i = 0, j = 0; i < a.length || j < b.length;) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      offset += a[i++].length;
      j++;
      open = undefined;
      continue;
    }
    if (!open) hunks.push((open = { start: offset, end: offset, text: '' }));
    if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) open.end = offset += a[i++].length;
    else open.text += b[j++];
  }
  return hunks;
};

/**
 * The rule's "meet": a shared character, an insertion strictly inside the other, two insertions at
 * one point; touching, inside a line, or after a line left without a break.
 */
function meet(x: Hunk, y: Hunk, inLine: boolean): boolean {
  const xEmpty = x.start === x.end;
  const yEmpty = y.start === y.end;
  if (xEmpty && yEmpty) return x.start === y.start;
  if (xEmpty && y.start < x.start && x.start < y.end) return true;
  if (yEmpty && x.start < y.start && y.start < x.end) return true;
  if (x.start < y.end && y.start < x.end) return true;
  const runsOn = (first: Hunk) => inLine || (first.text !== '' && !first.text.endsWith('\n'));
  return (x.end === y.start && runsOn(x)) || (y.end === x.start && runsOn(y));
}

/** `base` with hunks (sorted, apart) applied. */
function splice(base: string, hunks: readonly Hunk[]): string {
  let out = '';
  let at = 0;
  for (const h of hunks) {
    out += base.slice(at, h.start) + h.text;
    at = h.end;
  }
  return out + base.slice(at);
}

/** The revert of `base` → `agent` out of `base` → `user` at a granularity and finer, or `undefined`: a conflict. */
function referenceRevert(read: Reading, user: string, base: string, agent: string, level = 0): string | undefined {
  const tokens = LEVELS[level];
  const hunks = [
    ...read(tokens(base), tokens(user)).map((h) => ({ ...h, user: true })),
    ...read(tokens(base), tokens(agent)).map((h) => ({ ...h, user: false })),
  ];
  // each hunk's group: the smallest index it reaches through hunks of the other side that meet
  const group = hunks.map((_, i) => i);
  for (let moved = true; moved;) {
    moved = false;
    for (let i = 0; i < hunks.length; i++)
      for (let j = 0; j < hunks.length; j++)
        if (hunks[i].user !== hunks[j].user && meet(hunks[i], hunks[j], level > 0) && group[j] < group[i]) {
          group[i] = group[j];
          moved = true;
        }
  }
  const merged: Hunk[] = [];
  for (const id of new Set(group)) {
    const members = hunks.filter((_, i) => group[i] === id).sort((x, y) => x.start - y.start);
    const start = Math.min(...members.map((h) => h.start));
    const end = Math.max(...members.map((h) => h.end));
    const users = members.filter((h) => h.user);
    const agents = members.filter((h) => !h.user);
    const side = (hs: Hunk[]) => splice(base.slice(0, end), hs).slice(start);
    const [u, a, b] = [side(users), side(agents), base.slice(start, end)];
    let text: string | undefined;
    if (agents.length === 0) text = u;
    else if (users.length === 0 || u === a) text = a;
    else if (users.every((x) => x.text === '' && agents.some((y) => y.start <= x.start && x.end <= y.end))) text = a;
    else if (level === 0 || (level === 1 && [u, a, b].every((t) => LEVELS[1](t).length <= 1)))
      text = referenceRevert(read, u, b, a, level + 1);
    if (text === undefined) return undefined;
    merged.push({ start, end, text });
  }
  return splice(
    base,
    merged.sort((x, y) => x.start - y.start || x.end - y.end),
  );
}

// ---- the certificate of a clean merge -------------------------------------------------------------

const isSubsequence = (short: string, long: string): boolean => {
  let i = 0;
  for (const c of long) if (i < short.length && short[i] === c) i++;
  return i === short.length;
};

const sides = (pieces: readonly Piece[], side: 'user' | 'agent' | 'merged'): Hunk[] =>
  pieces.map((p) => ({ start: p.start, end: p.end, text: p[side] ?? '' }));

function assertCertificate(current: string, after: string, before: string, result: string): void {
  const pieces = revertPieces(current, after, before);
  // in order and apart; two insertions at one point may follow each other when a coarser reading
  // put them there (a line the user replaced, then lines the revert puts back after it)
  for (let i = 1; i < pieces.length; i++) assert.ok(pieces[i - 1].end <= pieces[i].start, 'pieces in order, apart');
  // (a) the user's whole change is in the pieces, and (b) so is the agent's: outside them all three texts agree
  assert.equal(splice(after, sides(pieces, 'user')), current, 'the pieces hold the whole change the user made since');
  assert.equal(splice(after, sides(pieces, 'agent')), before, "the pieces hold the agent's whole change");
  for (const p of pieces) {
    const base = after.slice(p.start, p.end);
    const why =
      p.merged === undefined
        ? undefined
        : p.agent === base && p.merged === p.user
          ? 'only the user changed it: kept'
          : p.user === base && p.merged === p.agent
            ? 'only the agent changed it: taken out'
            : p.user === p.agent && p.merged === p.user
              ? 'both made the same change'
              : p.merged === p.agent && isSubsequence(p.user, base)
                ? 'the user only deleted some of what the agent wrote'
                : undefined;
    assert.ok(why, `a piece the rule does not allow: ${JSON.stringify(p)}`);
  }
  assert.equal(result, splice(after, sides(pieces, 'merged')), "the result is `after` with each piece's merged text, nothing else");
}

// ---- the properties ------------------------------------------------------------------------------

const counts = { cases: 0, merged: 0, conflicts: 0, otherReadingMerges: 0 };

suite('merge properties (fast-check): a revert keeps what the user wrote and takes out the agent change', () => {
  suiteTeardown(() => {
    console.log(
      `      merge property: ${counts.cases} generated cases (${counts.merged} merged, ${counts.conflicts} conflicts, ` +
        `${counts.otherReadingMerges} of which the other reading of a repeated line would have merged)`,
    );
  });

  test(`${RUNS} generated revisions: a merge keeps every user change and takes out the whole agent change; a conflict is a real overlap`, function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(texts, ({ before, after, current }) => {
        counts.cases++;
        const merged = revertChange(current, after, before, LABELS);
        const reference = referenceRevert(readChange, current, after, before);
        if (merged.kind === 'clean') {
          counts.merged++;
          assertCertificate(current, after, before, merged.text);
          assert.equal(merged.text, reference, 'the reference, reading the changes the same way, merges them the same');
          return;
        }
        counts.conflicts++;
        // (e) reading the changes the same way, the reference finds they meet where no rule lets them
        assert.equal(reference, undefined, `a conflict the reference merges: ${JSON.stringify(reference)}`);
        if (referenceRevert(tableReading, current, after, before) !== undefined) counts.otherReadingMerges++;
        const last = current.split('\n').length - (current.endsWith('\n') ? 1 : 0);
        for (const span of merged.lines) assert.ok(1 <= span.start && span.start <= span.end && span.end <= Math.max(last, 1));
        assert.match(merged.marked, /^<<<<<<< current\n[\s\S]*^=======\n[\s\S]*^>>>>>>> reverted\n/m);
      }),
      { numRuns: RUNS },
    );
  });

  test("the merge's reading of a change is a minimal diff: its hunks give the other text, and change no more than a longest common subsequence leaves", () => {
    // one-character tokens, so that counting characters counts tokens
    const tokens = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 12 });
    fc.assert(
      fc.property(tokens, tokens, (base, other) => {
        counts.cases++;
        const hunks = readChange(base, other);
        assert.equal(splice(base.join(''), hunks), other.join(''));
        const changed = hunks.reduce((n, h) => n + (h.end - h.start) + h.text.length, 0);
        assert.equal(changed, base.length + other.length - 2 * lcsTable(base, other)[0][0]);
      }),
      { numRuns: RUNS / 4 },
    );
  });

  test('(c) a file that still holds what the agent left gets its text from before, byte for byte', () => {
    fc.assert(
      fc.property(texts, ({ before, after }) => {
        counts.cases++;
        assert.deepEqual(revertChange(after, after, before, LABELS), { kind: 'clean', text: before });
      }),
      { numRuns: RUNS / 4 },
    );
  });

  test('(d) an edit that changed nothing leaves the current text as it is', () => {
    fc.assert(
      fc.property(texts, ({ after, current }) => {
        counts.cases++;
        assert.deepEqual(revertChange(current, after, after, LABELS), { kind: 'clean', text: current });
      }),
      { numRuns: RUNS / 4 },
    );
  });
});
