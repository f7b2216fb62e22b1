// The revert's merge, one behaviour per test (docs/design.md §Revert): changes of different lines
// merge whether or not they are next to each other, a line both sides changed is merged by words
// (characters within one word), and only a real overlap is a conflict.
import * as assert from 'node:assert/strict';
import { revertChange } from '../../src/core/merge';

const LABELS = { current: 'current', reverted: 'reverted' };

/** The agent's change taken out of `current`: before → after is the agent's edit. */
const revert = (current: string, after: string, before: string) => revertChange(current, after, before, LABELS);

suite('merge: changes of different lines', () => {
  test("the user's changes of the lines right above and below the agent's lines are kept, and the agent's lines come back", () => {
    const before = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n';
    const after = 'const a = 1;\nconst b = 20;\nconst c = 30;\nconst d = 4;\n'; // the agent changed lines 2–3
    const current = 'const a = 1; // user\nconst b = 20;\nconst c = 30;\nconst d = 4; // user\n';
    assert.deepEqual(revert(current, after, before), {
      kind: 'clean',
      text: 'const a = 1; // user\nconst b = 2;\nconst c = 3;\nconst d = 4; // user\n',
    });
  });

  test('a line the agent deleted comes back above the next line, which the user changed', () => {
    assert.deepEqual(revert('a\nb, changed by the user\n', 'a\nb\n', 'a\ndeleted by the agent\nb\n'), {
      kind: 'clean',
      text: 'a\ndeleted by the agent\nb, changed by the user\n',
    });
  });

  test('a CRLF file without a last line break keeps its line endings byte for byte', () => {
    assert.deepEqual(revert('one\r\nTWO\r\nthree\r\nfour, said the user', 'one\r\nTWO\r\nthree\r\nfour', 'one\r\ntwo\r\nthree\r\nfour'), {
      kind: 'clean',
      text: 'one\r\ntwo\r\nthree\r\nfour, said the user',
    });
  });

  test("lines of the agent's that the user deleted are no conflict: the revert takes out the rest", () => {
    assert.deepEqual(revert('a\nagent 1\nagent 3\nb\n', 'a\nagent 1\nagent 2\nagent 3\nb\n', 'a\nb\n'), { kind: 'clean', text: 'a\nb\n' });
  });

  test('a last line the user left without a break would run on into lines the revert puts back after it: a conflict', () => {
    const merged = revert('x\nY', 'x\ny\n', 'x\ny\nz\n');
    assert.equal(merged.kind, 'conflict');
    if (merged.kind === 'conflict') assert.deepEqual(merged.lines, [{ start: 2, end: 2 }]);
  });
});

suite('merge: insertions at the same place', () => {
  test("lines the user inserted right before or right after the agent's inserted lines stay, and the agent's go", () => {
    const after = 'a\nadded by the agent\nb\n';
    assert.deepEqual(revert('a\nadded by the user\nadded by the agent\nb\n', after, 'a\nb\n'), {
      kind: 'clean',
      text: 'a\nadded by the user\nb\n',
    });
    assert.deepEqual(revert('a\nadded by the agent\nadded by the user\nb\n', after, 'a\nb\n'), {
      kind: 'clean',
      text: 'a\nadded by the user\nb\n',
    });
  });

  test('the same line inserted by both: one copy stays, the one the user wrote', () => {
    assert.deepEqual(revert('a\nx\nx\nb\n', 'a\nx\nb\n', 'a\nb\n'), { kind: 'clean', text: 'a\nx\nb\n' });
  });

  test('a line the user inserted where the agent had deleted one is a conflict: which comes first would be a guess', () => {
    assert.deepEqual(revert('a\nadded by the user\nb\n', 'a\nb\n', 'a\ndeleted by the agent\nb\n'), {
      kind: 'conflict',
      lines: [{ start: 2, end: 2 }],
      marked: 'a\n<<<<<<< current\nadded by the user\n=======\ndeleted by the agent\n>>>>>>> reverted\nb\n',
    });
  });
});

suite('merge: a line both changed', () => {
  const before = 'const total = price * count;\n';
  const after = 'const total = price * quantity;\n'; // the agent changed one word

  test("the user's change of other words of the agent's line is kept, and the agent's word comes back", () => {
    assert.deepEqual(revert('const sum = price * quantity;\n', after, before), { kind: 'clean', text: 'const sum = price * count;\n' });
  });

  test('a change of the word the agent changed is a conflict over that line, with the markers', () => {
    assert.deepEqual(revert('const total = price * amount;\n', after, before), {
      kind: 'conflict',
      lines: [{ start: 1, end: 1 }],
      marked: '<<<<<<< current\nconst total = price * amount;\n=======\nconst total = price * count;\n>>>>>>> reverted\n',
    });
  });

  test("text typed right against the agent's change in a line is a conflict: it would run on into the text put back", () => {
    assert.equal(revert('const total = price * quantity2;\n', after, before).kind, 'conflict');
  });

  test('inside one word both changed, changes of characters apart from each other merge', () => {
    // the agent spelt colour, the user made it plural
    assert.deepEqual(revert('const colours = 1;\n', 'const colour = 1;\n', 'const color = 1;\n'), {
      kind: 'clean',
      text: 'const colors = 1;\n',
    });
  });

  test('a line where the user already undid the agent change by hand is no conflict, and their other change stays', () => {
    assert.deepEqual(revert('let x = 1; // user\nz\n', 'let y = 1;\nz\n', 'let x = 1;\nz\n'), {
      kind: 'clean',
      text: 'let x = 1; // user\nz\n',
    });
  });
});

suite('merge: bounds on its work', () => {
  const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => `${line(i)}\n`).join('');

  test('a change with more differences than the merge reads finely is read whole: a user edit outside it merges, one inside is a conflict', () => {
    // the agent reversed 1500 lines: thousands of differences among lines both texts hold
    const body = Array.from({ length: 1500 }, (_, i) => `line ${i}\n`);
    const before = `head\n${body.join('')}tail\n`;
    const after = `head\n${[...body].reverse().join('')}tail\n`;
    assert.deepEqual(revert(`${after}added by the user\n`, after, before), { kind: 'clean', text: `${before}added by the user\n` });
    assert.equal(revert(after.replace('line 700\n', 'line 700, changed by the user\n'), after, before).kind, 'conflict');
  });

  test('a long stretch both changed is a conflict without a second look at its words', () => {
    const before = lines(500, (i) => `line ${i} of a long stretch, and some words`);
    const after = lines(500, (i) => `line ${i} of a long stretch, and other words`); // the agent changed every line
    const current = after.replace('line 250 of', 'line 250 (user) of');
    assert.equal(revert(current, after, before).kind, 'conflict');
    // the same change in a short stretch merges by words
    const short = (text: string) => text.split('\n').slice(248, 253).join('\n');
    assert.equal(revert(short(current), short(after), short(before)).kind, 'clean');
  });
});
