// Path policy: how a tool's `filePath` becomes a file, and which files are out of bounds.
// Works on plain file-system paths; the adapter turns the result into a URI.
import * as path from 'node:path';
import { Minimatch } from 'minimatch';
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
 * Resolves `filePath`: absolute, or relative to the first workspace folder, or `folderName/…` in a
 * multi-root workspace. `..` is normalised before the workspace check.
 */
export function resolveToolPath(
  filePath: unknown,
  folders: readonly WorkspaceFolderInfo[],
  allowOutsideWorkspace = false,
): ResolvedPath {
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return { ok: false, code: 'invalid-input', message: 'filePath is missing or empty. Give the path of a file, absolute or relative to the workspace folder.' };
  }
  if (filePath.includes('\0')) {
    return { ok: false, code: 'invalid-input', message: 'filePath contains a NUL character, which no file name can hold.' };
  }
  let fsPath: string;
  if (path.isAbsolute(filePath)) {
    fsPath = path.normalize(filePath);
  } else {
    if (folders.length === 0) {
      return { ok: false, code: 'invalid-input', message: `No workspace folder is open, so the relative path "${filePath}" cannot be resolved. Use an absolute path.` };
    }
    const [first, ...rest] = filePath.split(/[\\/]/);
    const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
    fsPath = named ? path.resolve(named.fsPath, ...rest) : path.resolve(folders[0].fsPath, filePath);
  }
  const folder = folderOf(fsPath, folders);
  if (!folder && !allowOutsideWorkspace) {
    return {
      ok: false,
      code: 'outside-workspace',
      message: `"${filePath}" resolves to ${fsPath}, which is outside the workspace folders (${folders.map((f) => f.fsPath).join(', ') || 'none open'}). Only files inside the workspace can be read or changed.`,
    };
  }
  return { ok: true, fsPath, folder, display: displayPath(fsPath, folders) };
}

/**
 * Symbolic links must not smuggle a workspace path outside: `realpath` (the adapter's, on the
 * file system) of the file — or of its nearest existing ancestor, for a file not yet created —
 * must lie inside the real path of a workspace folder.
 */
export function escapesThroughLink(
  fsPath: string,
  folders: readonly WorkspaceFolderInfo[],
  realpath: (p: string) => string | undefined,
): string | undefined {
  let probe = fsPath;
  let real = realpath(probe);
  while (real === undefined && path.dirname(probe) !== probe) {
    probe = path.dirname(probe);
    real = realpath(probe);
  }
  if (real === undefined) return undefined;
  const inside = folders.some((f) => contains(realpath(f.fsPath) ?? f.fsPath, real));
  return inside ? undefined : real;
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
const matchers = new Map<string, Minimatch>();
function compiled(pattern: string): Minimatch {
  let m = matchers.get(pattern);
  if (!m) {
    if (matchers.size > 256) matchers.clear(); // settings changed many times: start over
    matchers.set(pattern, (m = new Minimatch(pattern, { dot: true, nocase: process.platform === 'win32' })));
  }
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
