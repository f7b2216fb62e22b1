// `editGuard.guardCodex` on disk: our hook entries in Codex's user hooks (`$CODEX_HOME/hooks.json`,
// `user`; CODEX_HOME defaults to ~/.codex) or in each workspace folder's project hooks
// (`.codex/hooks.json`, `workspace`), and nowhere else; with each, the trust Codex needs before it runs
// them, in the user's `$CODEX_HOME/config.toml` (hooks.ts). All these files are the user's too: only
// our groups and our trust lines are added or removed; a file we cannot read is left as it was, with a
// warning naming it; a file written is replaced by rename; a file we leave empty goes, and so does a
// `.codex` folder we made and left empty. A project's own trust (`[projects."<folder>"] trust_level`)
// is the user's decision in Codex: we only report a folder Codex does not trust, since Codex then
// reads none of its `.codex/` (docs/design.md §Surfaces, Codex's hook entries). No `vscode`: the
// uninstall script runs this in plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import type { HooksPlacement } from '../../../core/settings';
import type { CreatedFolders, FileLeft } from '../../../hooks/agentDescriptor';
import type { HookClients } from '../../../hooks/command';
import {
  addEntries,
  changeOrLeave,
  leftAlone,
  makeFolderOf,
  readIfThere,
  removeEntries,
  tidy,
  writeByRename,
} from '../../../hooks/filesOnDisk';
import { withOurGroups } from '../../../hooks/hookEntries';
import { CODEX_HOOK_EVENTS, codexHookEntries, type CodexHookEntries, projectTrusted, trustOfOurEntries, withOurTrust } from './hooks';

/** Codex's home: `$CODEX_HOME`, else `~/.codex` — as Codex resolves it (a link followed, as Codex canonicalizes it). */
export function codexHome(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const dir = env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex');
  return realIfThere(dir);
}
/** `~/.codex` (or CODEX_HOME) is there: Codex has run on this machine (or something made its folder). */
export const codexFolderExists = (home = codexHome()) => fs.existsSync(home);
export const userCodexHooksFile = (home = codexHome()) => path.join(home, 'hooks.json');
export const codexConfigFile = (home = codexHome()) => path.join(home, 'config.toml');
/** A workspace folder's project hooks, named as Codex names it in a trust key (the folder's real path). */
export const projectCodexHooksFile = (folder: string) => path.join(realIfThere(folder), '.codex', 'hooks.json');

function realIfThere(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** How the log names these files. */
const WHO = 'Codex hooks';

export interface CodexSyncResult {
  problems: FileLeft[];
  /** workspace folders that hold our entries but that Codex does not trust: it skips their hooks */
  untrustedFolders: string[];
}

export interface CodexSyncOptions {
  /** only a trusted workspace writes our entries (removing them is always allowed) */
  trusted: boolean;
  created?: CreatedFolders;
  /** Codex's home (tests); else CODEX_HOME or ~/.codex */
  home?: string;
  /** folders that left the workspace: ours come out of them, whatever the placement */
  leftFolders?: readonly string[];
}

/**
 * Brings the files in line with the setting: our entries where it says (`user`: the user hooks;
 * `workspace`: each folder's project hooks), removed from every other of these files, and the trust
 * lines in config.toml following them. In an untrusted window nothing is written, and the user-level
 * entries are left for the other windows.
 */
export function syncCodexHooks(
  placement: HooksPlacement,
  clients: HookClients,
  workspaceFolders: readonly string[],
  log: Logger,
  options: CodexSyncOptions,
): CodexSyncResult {
  const home = options.home ?? codexHome();
  const entries = codexHookEntries(clients);
  const trust = new TrustChange();
  const problems: FileLeft[] = [];
  const note = (p: FileLeft | undefined) => p && problems.push(p);
  const userFile = userCodexHooksFile(home);
  if (placement !== 'user') note(removeFrom(userFile, log, trust, options.created));
  else if (options.trusted) note(addTo(userFile, entries, log, trust, options.created));
  for (const folder of workspaceFolders) {
    const file = projectCodexHooksFile(folder);
    note(
      placement === 'workspace' && options.trusted
        ? addTo(file, entries, log, trust, options.created)
        : removeFrom(file, log, trust, options.created),
    );
  }
  for (const folder of options.leftFolders ?? []) note(removeFrom(projectCodexHooksFile(folder), log, trust, options.created));
  note(trust.apply(codexConfigFile(home), log, options.created));
  const untrustedFolders = placement === 'workspace' && options.trusted ? untrustedProjects(workspaceFolders, home) : [];
  for (const folder of untrustedFolders) {
    const real = realIfThere(folder);
    log.warn(
      `Codex hooks: Codex does not trust the project ${real}, so it reads none of its .codex/hooks.json: our entries there do not run until you trust it in Codex (it asks when it first runs there; [projects.${JSON.stringify(real)}] trust_level = "trusted" in ${codexConfigFile(home)}). Agent Edit Guard does not trust a project for you.`,
    );
  }
  return { problems, untrustedFolders };
}

/** The folders Codex does not trust as projects (config.toml as it is now): it reads none of their `.codex/`, our hooks there included. */
export function untrustedProjects(folders: readonly string[], home = codexHome()): string[] {
  const config = readQuietly(codexConfigFile(home));
  return folders.filter((folder) => !projectTrusted(config, realIfThere(folder)));
}

/** The trust lines one sync adds and takes out, written to config.toml once. */
class TrustChange {
  readonly want = new Map<string, string>();
  readonly drop = new Map<string, string>();
  readonly files: string[] = [];

  /** A hooks file went from `before` to `after`: its trust lines follow our entries in it. */
  note(file: string, before: string | undefined, after: string | undefined): void {
    this.files.push(file);
    for (const [k, v] of trustOfOurEntries(file, before)) this.drop.set(k, v);
    for (const [k, v] of trustOfOurEntries(file, after)) this.want.set(k, v);
  }

  apply(config: string, log: Logger, created?: CreatedFolders): FileLeft | undefined {
    for (const k of this.want.keys()) this.drop.delete(k);
    return changeOrLeave(config, WHO, log, () => {
      const existing = readIfThere(config);
      // nothing to write, and nothing of ours that could be there to take out
      if (this.want.size === 0 && (existing === undefined || (this.drop.size === 0 && !existing.includes(TRUST_MARK_TEXT)))) return;
      const edit = withOurTrust(existing, this.want, this.drop, this.files);
      if (!edit.ok) return leftAlone(config, WHO, `${edit.reason}; Codex skips our hooks until they are trusted`, log);
      if (edit.text === existing) return undefined;
      if (edit.text === undefined) {
        fs.rmSync(config);
        log.info(`Codex hooks: removed ${config}, which held only the trust of our entries`);
        // Codex's home, if our entries made it and nothing else is in it now
        if (created) tidy(path.dirname(config), created);
        return undefined;
      }
      makeFolderOf(config);
      writeByRename(config, edit.text);
      log.info(`Codex hooks: ${this.want.size ? 'trusted our entries' : 'took the trust of our entries out'} in ${config}, kept the rest`);
      return undefined;
    });
  }
}
const TRUST_MARK_TEXT = 'Agent Edit Guard';

/** Merges our entries into a hooks file (made, with its folder, if missing), the trust following; a file we cannot read is left alone. */
const addTo = (file: string, entries: CodexHookEntries, log: Logger, trust: TrustChange, created?: CreatedFolders) =>
  addEntries(
    file,
    WHO,
    (existing) => withOurGroups(existing, CODEX_HOOK_EVENTS, entries),
    log,
    created,
    (before, after) => trust.note(file, before, after),
  );

/** Takes our entries out of a hooks file, keeping the user's; the trust of ours that it held goes too. */
const removeFrom = (file: string, log: Logger, trust: TrustChange, created?: CreatedFolders) =>
  removeEntries(file, WHO, log, created, (before, after) => trust.note(file, before, after));

function readQuietly(file: string): string | undefined {
  try {
    return readIfThere(file);
  } catch {
    return undefined;
  }
}

/** The uninstall script's part for Codex: our entries and their trust leave Codex's user files, the user's own stay. */
export function removeUserLevelEntries(log: Logger, home?: string): void {
  const trust = new TrustChange();
  const problem = removeFrom(userCodexHooksFile(home ?? codexHome()), log, trust);
  if (!problem) trust.apply(codexConfigFile(home ?? codexHome()), log);
}
