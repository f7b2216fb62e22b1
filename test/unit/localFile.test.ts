// A local file compared and written in one step (src/editor/localFile.ts), on the real disk: what the gate's write of
// a file no editor shows relies on (docs/design.md §Documents; docs/reliability.md, *Under load*).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeLocalFileIf } from '../../src/editor/localFile';
import { tempFolder } from './tempFolder';

const bytes = (text: string) => new TextEncoder().encode(text);
const holdsText = (text: string) => (current: Uint8Array) => Buffer.from(current).toString('utf8') === text;

suite('a local file compared and written in one step', () => {
  const file = (text: string) => {
    const f = path.join(tempFolder('aeg-local-file-'), 'f.txt');
    fs.writeFileSync(f, text);
    return f;
  };

  test('a file that holds something else is not written: false, every byte kept', () => {
    const f = file('START\nP-1\nEND\n');
    assert.equal(writeLocalFileIf(f, bytes('START\nG-1\nEND\n'), holdsText('START\nEND\n')), false);
    assert.equal(fs.readFileSync(f, 'utf8'), 'START\nP-1\nEND\n');
  });

  test('a file that holds the text compared is written in place (the same file, not a new one), shorter or longer', () => {
    const f = file('START\nEND\n');
    const inode = fs.statSync(f).ino;
    assert.equal(writeLocalFileIf(f, bytes('START\nG-1\nG-2\nEND\n'), holdsText('START\nEND\n')), true);
    assert.equal(fs.readFileSync(f, 'utf8'), 'START\nG-1\nG-2\nEND\n');
    assert.equal(writeLocalFileIf(f, bytes('S\n'), holdsText('START\nG-1\nG-2\nEND\n')), true);
    assert.equal(fs.readFileSync(f, 'utf8'), 'S\n');
    assert.equal(fs.statSync(f).ino, inode, 'in place, as VS Code saves');
  });

  test('another program that writes while the comparison runs: nothing written, its write kept', () => {
    const f = file('START\nEND\n');
    const written = writeLocalFileIf(f, bytes('START\nG-1\nEND\n'), (current) => {
      // the other program appends after the text was read, before the write (O_APPEND, as `echo >>` does)
      fs.appendFileSync(f, 'P-1\n');
      return Buffer.from(current).toString('utf8') === 'START\nEND\n';
    });
    assert.equal(written, false, 'the file moved under the comparison');
    assert.equal(fs.readFileSync(f, 'utf8'), 'START\nEND\nP-1\n');
  });

  test('a program that holds the file open (a logger, O_APPEND) keeps appending to it after the write, after its text', () => {
    const f = file('START\nEND\n');
    const logger = fs.openSync(f, 'a');
    try {
      fs.writeSync(logger, 'P-1\n');
      assert.equal(writeLocalFileIf(f, bytes('START\nG-1\nEND\nP-1\n'), holdsText('START\nEND\nP-1\n')), true);
      fs.writeSync(logger, 'P-2\n');
      assert.equal(
        fs.readFileSync(f, 'utf8'),
        'START\nG-1\nEND\nP-1\nP-2\n',
        'its next line lands after the new text, in the file it holds',
      );
    } finally {
      fs.closeSync(logger);
    }
  });
});
