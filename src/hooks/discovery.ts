// How a hook command finds this window's bridge when its environment does not say: an agent process
// that is not a child of this window's extension host — the Copilot harness (VS Code's Agent Host),
// Claude Code in an external terminal or as another program's child. Each window whose bridge runs
// keeps one file, its *window entry* ("entry", so it is not taken for the edit record), in a folder
// only this OS user can open (`~/.cache/agent-edit-guard/windows`, 0700; the entry 0600): its
// address, secret, process and workspace folders. A hook without an address in its environment
// reads the entries, skips those whose process is gone (or whose pid now belongs to
// another process), and talks to the window whose folder holds the file the call touches (else the
// hook's cwd): the deepest such folder, and among windows on the same folder the one used last (a
// window touches its entry when it gains focus). No entry, no match: the call is let through at once.
// The entry is removed when the window's bridge stops; one left by a crash is ignored (its process
// is gone) and removed by the next window that starts. The bash client reads the same entries
// (bashClient.ts); this module writes them and is the Node client's reader. Plain Node.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DISCOVERY_PATH, ENV, ENTRY_SUFFIX } from './protocol';

/** Where the entries are (protocol.ts DISCOVERY_PATH, under the OS home): the same for every process of this user on this machine. */
export const discoveryFolder = (home = os.homedir()) => path.join(home, ...DISCOVERY_PATH.split('/'));

/** One window's entry: what a hook command needs to reach it, and how to tell it is still there. */
export interface WindowEntry {
  /** `127.0.0.1:<port>` */
  address: string;
  secret: string;
  /** the bridge's private folder's files (protocol.ts ENV.missed, ENV.state) */
  missed: string;
  state: string;
  /** the extension host's pid, and its start time (Linux: /proc/<pid>/stat's 22nd field; '' where there is none) */
  pid: number;
  start: string;
  /** the window's workspace folders, absolute */
  folders: string[];
}

/** `key=value` lines, one folder per `folder=` line: what bash reads with `IFS== read` (no JSON parser there). */
export function entryText(r: WindowEntry): string {
  const lines = [
    `address=${r.address}`,
    `secret=${r.secret}`,
    `missed=${r.missed}`,
    `state=${r.state}`,
    `pid=${r.pid}`,
    `start=${r.start}`,
    ...r.folders.map((f) => `folder=${f}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function parseEntry(text: string): WindowEntry | undefined {
  const r: Partial<WindowEntry> & { folders: string[] } = { folders: [] };
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const [key, value] = [line.slice(0, eq), line.slice(eq + 1)];
    if (key === 'folder') r.folders.push(value);
    else if (key === 'pid') r.pid = Number(value);
    else if (key === 'address' || key === 'secret' || key === 'missed' || key === 'state' || key === 'start') r[key] = value;
  }
  const complete =
    r.address && r.secret && r.missed !== undefined && r.state !== undefined && Number.isSafeInteger(r.pid) && r.start !== undefined;
  return complete ? (r as WindowEntry) : undefined;
}

/** A process's start time, as the bash client reads it: what tells a live pid from a reused one. '' where /proc is not there. */
export function processStart(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count from after its last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** The entry of a window whose bridge has this environment (BridgeServer.environment), for this process. */
export function entryOf(environment: Readonly<Record<string, string>>, folders: string[], start = processStart(process.pid)): WindowEntry {
  return {
    address: environment[ENV.socket],
    secret: environment[ENV.secret],
    missed: environment[ENV.missed],
    state: environment[ENV.state],
    pid: process.pid,
    start,
    folders,
  };
}

/** Is the entry's process still the one that wrote it? */
export function alive(r: WindowEntry): boolean {
  try {
    process.kill(r.pid, 0);
  } catch {
    // gone, or (EPERM) a process of another user has the pid now
    return false;
  }
  return r.start === '' || processStart(r.pid) === r.start;
}

/** The folder, made private to this user if it is ours; undefined when it is not (another user's, or a link): no secret goes there. */
function privateFolder(folder: string): string | undefined {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(folder);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return undefined;
  if ((st.mode & 0o077) !== 0) fs.chmodSync(folder, 0o700);
  return folder;
}

/**
 * Writes this window's entry (replaced whole, by rename, never readable by others) and returns its
 * file; entries whose process is gone are removed on the way. Undefined when the folder is not this
 * user's own.
 */
export function writeEntry(entry: WindowEntry, home?: string, file?: string): string | undefined {
  const folder = privateFolder(discoveryFolder(home));
  if (!folder) return undefined;
  removeStaleEntries(home);
  const target = file ?? path.join(folder, `${entry.pid}-${crypto.randomBytes(6).toString('hex')}${ENTRY_SUFFIX}`);
  const tmp = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, entryText(entry), { mode: 0o600 });
  fs.renameSync(tmp, target);
  return target;
}

/** The window was used: among windows on the same folder, its entry is now the newest. */
export function touchEntry(file: string): void {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
  } catch {
    // gone: the next write makes it again
  }
}

export function removeEntry(file: string): void {
  fs.rmSync(file, { force: true });
}

/** Removes the entries whose process is gone (a window that crashed). */
export function removeStaleEntries(home?: string): void {
  for (const { file, entry } of readEntries(home)) if (!entry || !alive(entry)) removeEntry(file);
}

function readEntries(home?: string): Array<{ file: string; entry: WindowEntry | undefined; mtime: number }> {
  const folder = discoveryFolder(home);
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((n) => n.endsWith(ENTRY_SUFFIX));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(folder, name);
    try {
      const st = fs.lstatSync(file);
      if (!st.isFile() || (process.getuid && st.uid !== process.getuid())) return [];
      return [{ file, entry: parseEntry(fs.readFileSync(file, 'utf8')), mtime: st.mtimeMs }];
    } catch {
      return [];
    }
  });
}

/** Does `folder` hold `target` (the folder itself, or a path under it)? */
const holds = (folder: string, target: string) =>
  target === folder || target.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);

/**
 * The window a hook should reach for a call touching `target` (an absolute path: the file, else the
 * hook's cwd): of the live entries with a folder holding it, the one with the deepest such folder;
 * among those, the newest (the window used last).
 */
export function findWindow(target: string, home?: string): WindowEntry | undefined {
  let best: { entry: WindowEntry; depth: number; mtime: number } | undefined;
  for (const { entry, mtime } of readEntries(home)) {
    if (!entry || !alive(entry)) continue;
    const depth = Math.max(-1, ...entry.folders.filter((f) => holds(f, target)).map((f) => f.length));
    if (depth < 0) continue;
    if (!best || depth > best.depth || (depth === best.depth && mtime > best.mtime)) best = { entry, depth, mtime };
  }
  return best?.entry;
}
