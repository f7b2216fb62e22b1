// The shell reads the gate counts as a read of the whole file (rule 1, rule 16): the exact grammar of
// src/shell/effects.ts `readOfWords`, on the commands Codex's model sends (`nl -ba F | sed -n '1,120p'`) and on
// every near miss that must not count — a command taken for a read that showed something else would stamp a
// mark the model has not earned.
import * as assert from 'node:assert/strict';
import { shellEffects } from '../../src/shell/effects';
import { loadShellParser } from '../../src/shell/parser';

const readOf = (command: string) => shellEffects(command).read;

suite('the shell reads the gate counts', () => {
  suiteSetup(() => loadShellParser());

  test('the read grammar: these plain reads of one file, and nothing else', () => {
    const reads: Array<[string, string]> = [
      ['cat a.txt', 'a.txt'],
      ['cat -n a.txt', 'a.txt'],
      ["cat 'my file.txt'", 'my file.txt'],
      ['cat "dir/b c.md"', 'dir/b c.md'],
      ['nl -ba src/x.ts', 'src/x.ts'],
      ['nl -b a src/x.ts', 'src/x.ts'],
      ['nl x', 'x'],
      ["sed -n '1,200p' src/a.ts", 'src/a.ts'],
      ['sed -n 5,9p a', 'a'],
      ["sed -n '40p' a", 'a'],
      ["sed -n '10,$p' a", 'a'],
      ['head a.txt', 'a.txt'],
      ['head -n 20 a.txt', 'a.txt'],
      ['head -20 a.txt', 'a.txt'],
      ['head -n20 a.txt', 'a.txt'],
      ['tail -n +30 a.txt', 'a.txt'],
      ['tail -5 /abs/path/a.txt', '/abs/path/a.txt'],
      ["nl -ba a.ts | sed -n '1,80p'", 'a.ts'],
      ['cat a.ts | head -n 50', 'a.ts'],
      ['cat a.ts|tail -3', 'a.ts'],
      ['  cat a.txt  ', 'a.txt'],
    ];
    for (const [command, file] of reads) assert.equal(readOf(command), file, command);
    const notReads = [
      'cat a.txt b.txt', // several files
      'cat', // none
      'cat -', // stdin
      'cat a.txt > b.txt', // a redirection: a write
      'cat a.txt; rm a.txt',
      'cat a.txt && echo done',
      'cat a.txt || true',
      'cat $FILE',
      'cat "$FILE"',
      'cat `ls`',
      'cat $(ls)',
      'cat *.txt',
      'cat a?.txt',
      'cat ~/notes.txt',
      'cat a.txt 2>/dev/null',
      'cat -A a.txt',
      'head -c 100 a.txt',
      "sed -i 's/a/b/' a.txt",
      "sed -n '/x/p' a.txt",
      "sed -n '1,20p;30p' a.txt",
      "sed '1,20p' a.txt",
      'rg alpha a.txt',
      'grep -n alpha a.txt',
      'wc -l a.txt',
      'ls',
      'cat a.txt | grep x',
      'cat a.txt | head | tail',
      'cat a.txt | sh',
      "cat 'unclosed",
      "cat ''",
      "cat '|' head",
      'echo hi | cat',
      'cd sub && cat a.txt',
      'cat a.txt\ncat b.txt',
      "printf 'x' > a.txt",
    ];
    for (const command of notReads) assert.equal(readOf(command), undefined, command);
  });
});
