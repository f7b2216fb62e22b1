// Path policy: how a tool's `filePath` becomes a file, and which files are out of bounds.
// Works on plain file-system paths; the adapter turns the result into a URI.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import { Minimatch } from 'minimatch';
import { PATH } from './messages';
import type { ErrorCode } from './types';

export interface WorkspaceFolderInfo {
  name: string;
  fsPath: string;
}

export type ResolvedPath =
  | { ok: true; fsPath: string; folder: WorkspaceFolderInfo | undefined; display: string }
  | { ok: false; code: ErrorCode; message: string };

function contains(folder: string, candidate: string): boolean {
  const rel = path.relative(folder, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The workspace folder a path lies in (the innermost one for nested folders). */
export function folderOf(fsPath: string, folders: readonly WorkspaceFolderInfo[]): WorkspaceFolderInfo | undefined {
  return folders
    .filter((f) => contains(f.fsPath, fsPath))
    .sort((a, b) => b.fsPath.length - a.fsPath.length)[0];
}

/** How a path is shown to the model and the user: relative to its folder (`name/…` in multi-root). */
export function displayPath(fsPath: string, folders: readonly WorkspaceFolderInfo[]): string {
  const folder = folderOf(fsPath, folders);
  if (!folder) return fsPath;
  const rel = path.relative(folder.fsPath, fsPath).split(path.sep).join('/');
  return folders.length > 1 ? `${folder.name}/${rel}` : rel;
}

/**
 * Facts about the file system the policy needs, passed in by the adapter so this module stays
 * pure (and testable without a disk).
 */
export interface FileFacts {
  /** Something (file, folder, or link, even a dangling one) is at exactly this path. */
  exists(p: string): boolean;
  /** The path with every link resolved, or undefined if it does not resolve (missing, dangling, a loop). */
  realpath(p: string): string | undefined;
  /** A symbolic link's own text, or undefined if `p` is not a link. */
  readlink(p: string): string | undefined;
}

/** Whitespace a model leaves at the ends of a path by accident (copied from prose or a code block). */
const STRAY_EDGES = /^[ \t\r\n]+|[ \t\r\n]+$/g;
/** Control characters: in a name they are nearly always a mistake, and invisible in most places. */
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A URI scheme: two characters or more, so a Windows drive (`C:\x`, `C:/x`) is not one. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/** A string shown with its invisible characters spelled out (JSON quoting, DEL too). */
function visible(s: string): string {
  return JSON.stringify(s).replace(/\u007f/g, '\\u007f');
}

type Located = { ok: true; fsPath: string } | { ok: false; code: ErrorCode; message: string };

/** `text` (a path or a URI) as an absolute, normalised file-system path; no policy yet. */
function locate(text: string, folders: readonly WorkspaceFolderInfo[], exists: (p: string) => boolean): Located {
  const scheme = SCHEME.exec(text)?.[1];
  if (scheme !== undefined) {
    if (scheme.toLowerCase() === 'file') return fromFileUri(text);
    // a file whose name merely looks like a URI (`notes:2024.txt`) is still that file
    const relative = folders.length > 0 ? path.resolve(folders[0].fsPath, text) : undefined;
    if (relative !== undefined && exists(relative)) return { ok: true, fsPath: relative };
    return {
      ok: false,
      code: 'invalid-input',
      // `name:rest` may be a file name with a colon; `scheme://…` never is
      message: PATH.notAFileUri(visible(text), scheme, text.startsWith(`${scheme}://`) ? undefined : text),
    };
  }
  if (path.isAbsolute(text)) return { ok: true, fsPath: path.normalize(text) };
  if (folders.length === 0) {
    return { ok: false, code: 'invalid-input', message: PATH.noFolderForRelative(text) };
  }
  const [first, ...rest] = text.split(/[\\/]/);
  const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
  return { ok: true, fsPath: named ? path.resolve(named.fsPath, ...rest) : path.resolve(folders[0].fsPath, text) };
}

function fromFileUri(text: string): Located {
  const invalid = (why: string): Located => ({
    ok: false,
    code: 'invalid-input',
    message: PATH.badFileUri(visible(text), why),
  });
  // the URL parser silently drops tabs and newlines inside a URI: that would name another file
  if (CONTROL.test(text)) return invalid(PATH.uriControlChar);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid(PATH.uriUnparsable);
  }
  // `file://localhost/…` parses with an empty host; any other host is another machine (a UNC share on Windows)
  if (url.hostname !== '') return invalid(PATH.uriHost(url.hostname));
  try {
    return { ok: true, fsPath: path.normalize(fileURLToPath(url)) };
  } catch (e) {
    return invalid(`${e instanceof Error ? e.message : String(e)}.`);
  }
}

/**
 * Resolves `filePath`: absolute, or relative to the first workspace folder, or `folderName/…` in a
 * multi-root workspace, or a `file://` URI. `..` is normalised before the workspace check. Stray
 * whitespace at the ends, and control characters, are used only if a file really has them in its
 * name (`exists`); otherwise the trimmed path is used if it exists, else the call is refused, so
 * a typo never creates a look-alike file.
 */
export function resolveToolPath(
  filePath: unknown,
  folders: readonly WorkspaceFolderInfo[],
  allowOutsideWorkspace = false,
  exists: (p: string) => boolean = () => false,
): ResolvedPath {
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return { ok: false, code: 'invalid-input', message: PATH.missing };
  }
  if (filePath.includes('\0')) {
    return { ok: false, code: 'invalid-input', message: PATH.nul };
  }
  const located = chooseSpelling(filePath, folders, exists);
  if (!located.ok) return located;
  const fsPath = located.fsPath;
  const folder = folderOf(fsPath, folders);
  if (!folder && !allowOutsideWorkspace) {
    return {
      ok: false,
      code: 'outside-workspace',
      message: PATH.outside(filePath, fsPath, folders.map((f) => f.fsPath)),
    };
  }
  return { ok: true, fsPath, folder, display: displayPath(fsPath, folders) };
}

/** The path as given if a file has exactly that name; else the path without stray whitespace; else a refusal. */
function chooseSpelling(filePath: string, folders: readonly WorkspaceFolderInfo[], exists: (p: string) => boolean): Located {
  const exact = locate(filePath, folders, exists);
  const trimmed = filePath.replace(STRAY_EDGES, '');
  const odd = trimmed !== filePath || CONTROL.test(filePath);
  if (!odd || (exact.ok && exists(exact.fsPath))) return exact;
  if (trimmed !== filePath) {
    const clean = locate(trimmed, folders, exists);
    if (!clean.ok || exists(clean.fsPath)) return clean;
    const lead = /^[ \t\r\n]+/.exec(filePath)?.[0];
    const trail = /[ \t\r\n]+$/.exec(filePath)?.[0];
    const where = PATH.whereStray(lead && visible(lead), trail && visible(trail));
    return {
      ok: false,
      code: 'invalid-input',
      message: PATH.strayWhitespace(visible(filePath), where, visible(trimmed)),
    };
  }
  return exact.ok ? controlRefusal(filePath) : exact;
}

function controlRefusal(filePath: string): Located {
  const found = [...new Set(filePath.match(new RegExp(CONTROL.source, 'g')) ?? [])].map(visible).join(', ');
  return {
    ok: false,
    code: 'invalid-input',
    message: PATH.controlChar(visible(filePath), found),
  };
}

/** Links followed before giving up (a loop, or an absurd chain). */
const MAX_LINK_HOPS = 40;

/**
 * Where `fsPath` really leads: its realpath, or, for a file that does not exist yet, the realpath
 * of its nearest existing ancestor joined with the rest of the path. A dangling link is followed
 * through its text: writing through it would create its target.
 */
export function realTargetOf(fsPath: string, facts: Pick<FileFacts, 'realpath'> & Partial<Pick<FileFacts, 'readlink'>>, hops = 0): string {
  const rest: string[] = [];
  let probe = fsPath;
  for (;;) {
    const real = facts.realpath(probe);
    if (real !== undefined) return rest.length ? path.join(real, ...rest) : real;
    const link = facts.readlink?.(probe);
    if (link !== undefined && hops < MAX_LINK_HOPS) return realTargetOf(path.join(path.resolve(path.dirname(probe), link), ...rest), facts, hops + 1);
    const parent = path.dirname(probe);
    if (parent === probe) return fsPath; // nothing resolves: no link is known to be involved
    rest.unshift(path.basename(probe));
    probe = parent;
  }
}

export type PolicedPath =
  | {
      ok: true;
      /** The path as given (resolved, not canonicalised): what the tools open and show. */
      fsPath: string;
      /** Where it really leads, every link resolved. */
      realPath: string;
      folder: WorkspaceFolderInfo | undefined;
      display: string;
      /** The protected-file pattern the path, or its real target, matches: the user is asked first. */
      protectedBy: string | undefined;
      /** Set when only the real target matched `protectedBy`: the target, as shown. */
      protectedTarget: string | undefined;
    }
  | { ok: false; code: ErrorCode; message: string };

export interface PathPolicyOptions {
  folders: readonly WorkspaceFolderInfo[];
  allowOutsideWorkspace: boolean;
  /** The call changes the file (write, replace): `.git` and notebooks are out of bounds. */
  writes: boolean;
  facts: FileFacts;
  /** The protected-file patterns that apply to a file (a folder may have its own). */
  protectedFiles(fsPath: string): readonly string[];
}

/**
 * The whole path policy for one call. Every rule decides on the path as given AND on its real
 * target, so a link cannot carry a write into `.git`, a notebook, or outside the workspace, nor
 * read a protected file without the user's say; a link named like a protected file is asked about too.
 */
export function policeToolPath(filePath: unknown, options: PathPolicyOptions): PolicedPath {
  const { folders, facts } = options;
  const resolved = resolveToolPath(filePath, folders, options.allowOutsideWorkspace, facts.exists);
  if (!resolved.ok) return resolved;
  const { fsPath, display } = resolved;
  const realPath = realTargetOf(fsPath, facts);
  // the folders as the real target sees them (a folder opened through a link has another real path)
  const realFolders = folders.map((f) => ({ name: f.name, fsPath: facts.realpath(f.fsPath) ?? f.fsPath }));
  const realDisplay = displayPath(realPath, realFolders);
  // how a refusal that only the target earns names it
  const leadsTo = PATH.leadsTo(display, facts.readlink(fsPath) !== undefined, realDisplay);
  if (!options.allowOutsideWorkspace && !folderOf(realPath, realFolders)) {
    return { ok: false, code: 'outside-workspace', message: PATH.linkOutside(leadsTo) };
  }
  if (options.writes && isInsideGitFolder(fsPath)) {
    return { ok: false, code: 'protected', message: PATH.inGit(display) };
  }
  if (options.writes && isInsideGitFolder(realPath)) {
    return { ok: false, code: 'protected', message: PATH.linkInGit(leadsTo) };
  }
  if (options.writes && isNotebook(fsPath)) {
    return { ok: false, code: 'invalid-input', message: PATH.notebook(display) };
  }
  if (options.writes && isNotebook(realPath)) {
    return { ok: false, code: 'invalid-input', message: PATH.linkNotebook(leadsTo) };
  }
  const base = { ok: true as const, fsPath, realPath, folder: resolved.folder, display };
  const byPath = protectedPattern(fsPath, folders, options.protectedFiles(fsPath));
  if (byPath !== undefined) return { ...base, protectedBy: byPath, protectedTarget: undefined };
  // the target's patterns are those of the folder holding it, asked for by the folder's own path
  const realFolder = folderOf(realPath, realFolders);
  const folder = realFolder && folders[realFolders.indexOf(realFolder)];
  const target = realFolder && folder ? path.join(folder.fsPath, path.relative(realFolder.fsPath, realPath)) : realPath;
  const byTarget = protectedPattern(target, folders, options.protectedFiles(target));
  return { ...base, protectedBy: byTarget, protectedTarget: byTarget === undefined ? undefined : realDisplay };
}

/** Secrets and tooling state an agent should not touch without the user saying so. */
export const DEFAULT_PROTECTED_FILES = [
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/.npmrc',
  '**/.netrc',
  '**/.git-credentials',
  '**/.vscode/settings.json',
  '**/.github/hooks/**',
];

/** The first protected-file pattern `fsPath` matches (relative to its workspace folder), if any. */
export function protectedPattern(
  fsPath: string,
  folders: readonly WorkspaceFolderInfo[],
  patterns: readonly string[],
): string | undefined {
  const folder = folderOf(fsPath, folders);
  const rel = (folder ? path.relative(folder.fsPath, fsPath) : fsPath).split(path.sep).join('/');
  return patterns.find((p) => typeof p === 'string' && compiled(p).match(rel));
}

/** Compiled patterns: every tool call checks every pattern, twice (prepare and invoke). */
const matchers = new LRUCache<string, Minimatch>({ max: 256 });
function compiled(pattern: string): Minimatch {
  let m = matchers.get(pattern);
  if (!m) matchers.set(pattern, (m = new Minimatch(pattern, { dot: true, nocase: process.platform === 'win32' })));
  return m;
}

/** Anything inside a `.git` folder: the repository's own state, never an agent's to write. */
export function isInsideGitFolder(fsPath: string): boolean {
  return fsPath.split(/[\\/]/).includes('.git');
}

/** Jupyter notebooks: their text is JSON that editing as text can corrupt. */
export function isNotebook(fsPath: string): boolean {
  return /\.ipynb$/i.test(fsPath);
}
