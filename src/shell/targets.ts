// The files a shell command's write names, on the disk as it is before the command runs: a glob matched as
// bash would match it, a `cp`/`mv` onto a folder taken as the file it makes there, a folder itself dropped
// (`rm -r dir`: no one file's text for the gate to check; what went is seen after). Plain Node.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { ShellWrite } from './effects';

/**
 * The files `write` (its path made absolute: `file`) names, each absolute; `folder`: it names a folder too, whose files
 * the command may write without naming them (`rm -r dir`, `prettier --write .`).
 */
export function filesOnDisk(write: ShellWrite, file: string): { files: string[]; folder: boolean } {
  const found = write.glob ? matches(file) : [file];
  let folder = false;
  const files = found.flatMap((f) => {
    if (!isFolder(f)) return [f];
    if (!write.into) {
      folder = true;
      return [];
    }
    const into = write.into.map((name) => path.join(f, name));
    folder ||= into.some(isFolder);
    return into.filter((g) => !isFolder(g));
  });
  return { files, folder };
}

const isFolder = (f: string) => {
  try {
    return fs.statSync(f).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The paths a glob matches, segment by segment, as bash expands it: a leading dot only by a pattern that names it,
 * nothing when nothing matches (bash then passes the pattern itself, which names no file that exists).
 */
function matches(pattern: string): string[] {
  const { root } = path.parse(pattern);
  let found = [root];
  for (const segment of pattern
    .slice(root.length)
    .split(path.sep)
    .filter((s) => s !== '')) {
    if (!/[*?[]/.test(segment)) {
      found = found.map((f) => path.join(f, segment));
      continue;
    }
    found = found.flatMap((dir) => {
      try {
        return fs
          .readdirSync(dir)
          .filter((name) => minimatch(name, segment, { dot: segment.startsWith('.') }))
          .sort()
          .map((name) => path.join(dir, name));
      } catch {
        return [];
      }
    });
  }
  return found.filter((f) => fs.existsSync(f));
}
