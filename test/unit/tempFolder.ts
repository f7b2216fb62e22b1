// A folder under the system's temporary folder that the test process removes as it exits: for a home a
// spawned client runs in, which no single test owns (a suite's constant, one per run of a command).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder named `<prefix>…`, removed when the process exits. */
export function tempFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
