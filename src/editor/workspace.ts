// The workspace as the path policy sees it: its folders on disk, and the file system's answers to
// the policy's questions, asked fresh on every call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileFacts, WorkspaceFolderInfo } from '../core/pathResolution';

export function workspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

export const diskFacts: FileFacts = {
  exists: (p) => {
    try {
      fs.lstatSync(p); // lstat: a dangling link is something too
      return true;
    } catch {
      return false;
    }
  },
  realpath: (p) => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return undefined;
    }
  },
  readlink: (p) => {
    try {
      return fs.readlinkSync(p);
    } catch {
      return undefined;
    }
  },
};

/**
 * A path as another agent's hook names it — absolute, or relative to the hook's `cwd` (else the first
 * workspace folder) — as a URI, and as the workspace shows it.
 */
export function fileOfAgentPath(filePath: string, cwd: string | undefined): { uri: string; path: string } {
  const base = cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const uri = vscode.Uri.file(path.resolve(base, filePath));
  return { uri: uri.toString(), path: vscode.workspace.asRelativePath(uri) };
}
