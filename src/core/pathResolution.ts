// How a tool's `filePath` becomes a file (docs/design.md §Path policy): absolute, relative to a
// workspace folder, or a file:// URI; stray whitespace and control characters used only when a file
// really has them. Plain file-system paths; the adapter turns the result into a URI. What may then be
// done with the file is paths.ts.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATH } from './messages';
import type { ErrorCode } from './types';

export interface WorkspaceFolderInfo {
  name: string;
  fsPath: string;
}

export type ResolvedPath =
  { ok: true; fsPath: string; folder: WorkspaceFolderInfo | undefined; display: string } | { ok: false; code: ErrorCode; message: string };

function contains(folder: string, candidate: string): boolean {
  const rel = path.relative(folder, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The workspace folder a path lies in (the innermost one for nested folders). */
export function folderOf(fsPath: string, folders: readonly WorkspaceFolderInfo[]): WorkspaceFolderInfo | undefined {
  return folders.filter((f) => contains(f.fsPath, fsPath)).sort((a, b) => b.fsPath.length - a.fsPath.length)[0];
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
// eslint-disable-next-line no-control-regex -- matching control characters is what this is for
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
      message: PATH.outside(
        filePath,
        fsPath,
        folders.map((f) => f.fsPath),
      ),
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
