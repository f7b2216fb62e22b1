// A local file compared and written in one step (Editor.writeFileIf for a `file:` URI), in plain Node so the unit
// tests run it on a real disk: nothing of this process runs between reading the file, comparing it and writing it.
import * as fs from 'node:fs';

/**
 * A local file written in place, if it holds what `holds` accepts: read, compared and written in one synchronous run,
 * so no await (and no other work of this process) comes between them. Its stat is taken again right before the
 * write: a file another program changed while the comparison ran is not written. The file is cut to the new length
 * before the bytes go in: a line another program appends (O_APPEND) in that instant lands after them, not under
 * them. In place, as VS Code saves: a program that holds the file open (a logger) keeps writing to it. What remains
 * is another program's write between that last stat and the cut: microseconds (docs/reliability.md).
 */
export function writeLocalFileIf(file: string, bytes: Uint8Array, holds: (current: Uint8Array) => boolean): boolean {
  const fd = fs.openSync(file, 'r+');
  try {
    const before = fs.fstatSync(fd);
    const current = fs.readFileSync(fd);
    if (!holds(current)) return false;
    const now = fs.fstatSync(fd);
    if (now.size !== before.size || now.mtimeMs !== before.mtimeMs || now.size !== current.length) return false;
    fs.ftruncateSync(fd, bytes.length);
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}
