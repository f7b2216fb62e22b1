// Path policy (docs/design.md §Path policy): which files are out of bounds, decided on the path as
// given and on where it really leads (symbolic links), and which need the user's say.
import * as path from 'node:path';
import { BoundedMap } from './boundedMap';
import { Minimatch } from 'minimatch';
import { PATH } from './messages';
import { displayPath, type FileFacts, folderOf, resolveToolPath, type WorkspaceFolderInfo } from './pathResolution';
import type { ErrorCode } from './types';

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
    if (link !== undefined && hops < MAX_LINK_HOPS)
      return realTargetOf(path.join(path.resolve(path.dirname(probe), link), ...rest), facts, hops + 1);
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
export function protectedPattern(fsPath: string, folders: readonly WorkspaceFolderInfo[], patterns: readonly string[]): string | undefined {
  return firstPatternMatching(fsPath, folders, patterns);
}

/** The first of the glob `patterns` (as VS Code's settings write them: relative to the workspace folder) `fsPath` matches. */
export function firstPatternMatching(
  fsPath: string,
  folders: readonly WorkspaceFolderInfo[],
  patterns: readonly string[],
): string | undefined {
  const folder = folderOf(fsPath, folders);
  const rel = (folder ? path.relative(folder.fsPath, fsPath) : fsPath).split(path.sep).join('/');
  return patterns.find((p) => typeof p === 'string' && compiled(p).match(rel));
}

/** Compiled patterns: every tool call checks every pattern, twice (prepare and invoke). */
const matchers = new BoundedMap<string, Minimatch>(256);
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
