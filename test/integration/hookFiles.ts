// The file side of an agent's hook entries, as the suites of Claude Code's and Codex's entries
// (claudeGuard.test.ts, codexGuard.test.ts) read it: the files under the OS home and the folder, our groups in
// them, and the setting turned back off until ours are gone.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { notification, waitFor } from './helpers';
import { guardLogFile } from './reliabilityHelpers';
import { driverAvailable } from './ui';

/** A group of hook commands of an agent's hooks file, as it holds ours. */
export type HookGroup = { matcher?: string; hooks: Array<{ command: string; timeout: number }> };

/** The file's text, or undefined when it is missing. */
export const readIfThere = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);

/** Writes the file, making its folder first. */
export const writeWithFolder = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

/** The file's groups of ours (their commands run one of our clients), by event; undefined when the file is missing or not JSON. */
export function ourGroups(file: string): Record<string, HookGroup[]> | undefined {
  try {
    const hooks = JSON.parse(readIfThere(file) ?? '').hooks ?? {};
    const out: Record<string, HookGroup[]> = {};
    for (const [event, groups] of Object.entries<Array<{ hooks?: Array<{ command?: string }> }>>(hooks)) {
      const mine = groups.filter((g) => g.hooks?.some((h) => /hook-(client\.sh|bridge\.js)/.test(h.command ?? '')));
      if (mine.length) out[event] = mine as never;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Waits until `probe` holds. */
export const until = (what: string, probe: () => boolean) => waitFor(() => probe() || undefined, what, 10000, 50);

/** The agent's setting off at both levels, until `gone` says our entries have left its files. */
export async function turnedOff(setting: string, gone: () => boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('editGuard', null);
  for (const target of [vscode.ConfigurationTarget.Global, vscode.ConfigurationTarget.Workspace])
    await config.update(setting, undefined, target);
  await until('our entries to be gone', gone);
}

/**
 * The setting turned on at user level over its user file `file` holding `malformed`, text that is not valid JSON:
 * the file is left as it was, a warning names it in the log and (where the UI driver runs) on screen, in the
 * notification that says `notice`; `meanwhile` checks the agent's other files; off leaves the file as it was too.
 */
export async function malformedLeftAsItWas(o: {
  setting: string;
  file: string;
  malformed: string;
  notice: string;
  meanwhile: () => void;
}): Promise<void> {
  const config = vscode.workspace.getConfiguration('editGuard', null);
  writeWithFolder(o.file, o.malformed);
  const logFile = guardLogFile();
  await config.update(o.setting, 'user', vscode.ConfigurationTarget.Global);
  const line = await waitFor(
    () => {
      const file = logFile ?? guardLogFile();
      return (
        file &&
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => /\[warning\]/.test(l) && l.includes(`left ${o.file} as it was: it is not valid JSON`))
      );
    },
    'a warning in the log naming the file',
    10000,
    100,
  );
  assert.ok(line);
  assert.strictEqual(readIfThere(o.file), o.malformed, 'untouched');
  o.meanwhile();
  if (driverAvailable()) {
    const shown = await notification(o.notice);
    assert.ok(shown.includes(path.basename(o.file)) && shown.includes('not valid JSON'), shown);
  }
  await config.update(o.setting, undefined, vscode.ConfigurationTarget.Global);
  // off takes our entries out in the same step that stops the bridge (nothing is logged for a file that holds none of ours)
  await waitFor(() => process.env.AGENT_EDIT_GUARD_SOCKET === undefined, 'the sync for off: the bridge stopped', 10000, 50);
  assert.strictEqual(readIfThere(o.file), o.malformed, 'not touched by off either');
}
