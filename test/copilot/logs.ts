// The logs of a Copilot-suite run, as tests read them: our extension's ("Agent Edit Guard") and Copilot
// Chat's own (its main log, and the Hooks log with one Running/Input/Completed record per hook).
import * as fs from 'fs';
import { guardLogFile, logFilesNamed } from '../integration/reliabilityHelpers';

export function guardLog(): string {
  const file = guardLogFile();
  return file ? fs.readFileSync(file, 'utf8') : '';
}

/** One of Copilot Chat's logs of this run (under the run's logs folder, HOME here), '' when not found. */
export function copilotLog(name: 'GitHub Copilot Chat.log' | 'GitHub Copilot Chat Hooks.log'): string {
  return logFilesNamed(name, [process.env.HOME ?? ''])
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
}

/** The logs as they are now; `since()` gives what each gained after. */
export function logMark() {
  const at = {
    guard: guardLog().length,
    copilot: copilotLog('GitHub Copilot Chat.log').length,
    hooks: copilotLog('GitHub Copilot Chat Hooks.log').length,
  };
  return {
    since: () => ({
      guard: guardLog().slice(at.guard),
      copilot: copilotLog('GitHub Copilot Chat.log').slice(at.copilot),
      hooks: copilotLog('GitHub Copilot Chat Hooks.log').slice(at.hooks),
    }),
  };
}
