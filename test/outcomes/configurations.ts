// A configuration an agent runs the scenarios in — what its tools are called and what their results
// say — and Copilot's three: its built-in tools (unguarded, or behind the hooks bridge), or the guarded
// tools of the Guarded agent.
import { GUARDED_AGENT, READ, REPLACE, WRITE } from '../copilot/agent';
import { BLOCKED, DENIED } from '../copilot/turns';
import { appendAsReplace, type Edit, heredoc, patchPart, wholePatch } from './edits';
import { textOfRead } from './shown';

export interface Call {
  tool: string;
  input: Record<string, unknown>;
}

/** A file as the calls name it: Copilot's tools take absolute paths, the guarded tools workspace-relative ones. */
export interface FileRef {
  rel: string;
  abs: string;
}

/** One edit of a batch, with the copy it was made from. */
export interface PlannedEdit {
  file: FileRef;
  copy: string | undefined;
  edit: Edit;
}

/** What a tool result means to the agent. */
export type CallOutcome = 'done' | 'refused' | 'failed';

export interface Configuration {
  id: string;
  /** the tables' name for it */
  label: string;
  /** the extension stands in front of the agent's writes */
  guarded: boolean;
  read(file: FileRef, lines?: { start: number; count: number }): Call;
  /**
   * The calls of one model response for a batch of edits: each edit its own call, or (`patch`) the
   * edits of several files in one call where the tool set has one.
   */
  edits(batch: PlannedEdit[], shape: 'calls' | 'patch'): Call[];
  /**
   * A call the agent's own tool refuses by itself though the gate lets it through (the scenario's `slip`): its replace
   * of `quote`, which stands more than once in the file, by `replacement` — or, where the tool would take that call
   * (Codex's patch applies at the first match), one it fails another way, named in the agent's entry.
   */
  slip(file: FileRef, copy: string, quote: string, replacement: string): Call;
  /**
   * The call of the agent's shell tool that writes `text` over the whole file (the scenario's `shell`: a rewrite from
   * its copy), the command a heredoc built from the text (edits.ts `heredoc`: every agent's shell here takes one).
   */
  shell(file: FileRef, text: string): Call;
  /** The call of the agent's shell tool that runs `command` as it stands (the scenario's `script`: `sh '<script>'`). */
  run(command: string): Call;
  /** scenarios this configuration does not run, each with the reason the tables show */
  cannot?: Record<string, string>;
  /** the scenarios' reads of a large file that overflow the context are made (Copilot compacts it then; nothing would here) */
  overflows: boolean;
  /** what a result of the agent's tools means */
  outcomeOf(result: string): CallOutcome;
  /** the file's text a read's result showed */
  textOfRead(result: string): string;
}

/** A Copilot configuration: how the chat runs it. */
export interface CopilotConfiguration extends Configuration {
  /** chat.open's mode: Copilot's agent mode, or the Guarded agent */
  mode: string;
  /** editGuard.guardCopilotTools on: Copilot runs the hooks file's commands */
  bridge: boolean;
}

/** What a result of Copilot's tools, or of the guarded tools, means. */
export function copilotOutcomeOf(text: string): CallOutcome {
  if (text.startsWith(BLOCKED) || DENIED.test(text)) return 'refused';
  // our tools' errors, and Copilot's replace that found its quote more than once
  if (/^ERROR\b/i.test(text) || /^String replacement failed\b/.test(text)) return 'failed';
  return 'done';
}

const builtinEdit = ({ file, copy, edit }: PlannedEdit): Call => {
  switch (edit.kind) {
    case 'create':
      return { tool: 'create_file', input: { filePath: file.abs, content: edit.text } };
    case 'append':
      return { tool: 'replace_string_in_file', input: { filePath: file.abs, ...appendAsReplace(copy ?? '', edit.text) } };
    case 'replace':
      return { tool: 'replace_string_in_file', input: { filePath: file.abs, oldString: edit.oldString, newString: edit.newString } };
  }
};

/**
 * Copilot's terminal tool, in agent mode and under the Guarded agent (its `execute` tool set): the command runs in a
 * terminal of the window. The gate sees it only through Copilot's hooks file (rule 16), which the Guarded agent's
 * configuration (the bridge off) does not have: there its terminal is not guarded, and the shell scenarios are not run.
 */
const runInTerminal = (command: string, explanation = 'Run the command.'): Call => ({
  tool: 'run_in_terminal',
  input: { command, explanation, isBackground: false },
});
const rewriteInTerminal = (file: FileRef, text: string): Call => runInTerminal(heredoc(file.abs, text), 'Write the file.');

const builtinTools = {
  overflows: true,
  shell: rewriteInTerminal,
  run: (command: string) => runInTerminal(command),
  // replace_string_in_file refuses a quote it finds more than once ("Multiple exact matches found")
  slip: (file: FileRef, _copy: string, quote: string, replacement: string): Call => ({
    tool: 'replace_string_in_file',
    input: { filePath: file.abs, oldString: quote, newString: replacement },
  }),
  outcomeOf: copilotOutcomeOf,
  textOfRead,
  read: (file: FileRef, lines = { start: 1, count: 500 }): Call => ({
    tool: 'read_file',
    input: { filePath: file.abs, startLine: lines.start, endLine: lines.start + lines.count - 1 },
  }),
  edits(batch: PlannedEdit[], shape: 'calls' | 'patch'): Call[] {
    if (shape === 'calls') return batch.map(builtinEdit);
    const input = wholePatch(batch.map((p) => patchPart(p.file.abs, p.copy, p.edit)));
    return [{ tool: 'apply_patch', input: { explanation: 'Apply the change to each file.', input } }];
  },
};

const guardedEdit = ({ file, edit }: PlannedEdit): Call => {
  switch (edit.kind) {
    case 'create':
      return { tool: WRITE, input: { filePath: file.rel, content: edit.text } };
    case 'append':
      return { tool: WRITE, input: { filePath: file.rel, content: edit.text, append: true } };
    case 'replace':
      return { tool: REPLACE, input: { filePath: file.rel, oldString: edit.oldString, newString: edit.newString } };
  }
};

/** Copilot's, the unguarded one first. */
export const COPILOT_CONFIGURATIONS: CopilotConfiguration[] = [
  { id: 'baseline', label: 'Copilot, unguarded', guarded: false, mode: 'agent', bridge: false, ...builtinTools },
  { id: 'hooks', label: 'its tools behind the hooks', guarded: true, mode: 'agent', bridge: true, ...builtinTools },
  {
    id: 'guarded',
    label: 'the Guarded agent',
    guarded: true,
    mode: GUARDED_AGENT,
    bridge: false,
    overflows: true,
    outcomeOf: copilotOutcomeOf,
    textOfRead,
    shell: rewriteInTerminal,
    run: (command) => runInTerminal(command),
    // the limit docs/agents.md states: its terminal is guarded only with Copilot's tools behind the hooks
    cannot: Object.fromEntries(
      ['shell-rewrite', 'shell-under-unsaved'].map((id) => [
        id,
        "its terminal (`run_in_terminal`) is guarded only with Copilot's tools behind the hooks",
      ]),
    ),
    read: (file, lines) => ({
      tool: READ,
      input: lines ? { filePath: file.rel, offset: lines.start, limit: lines.count } : { filePath: file.rel },
    }),
    // no patch tool: the edits of a patch are one call per file, in one response
    edits: (batch) => batch.map(guardedEdit),
    // our replace answers ERROR (ambiguous) for a quote it finds more than once
    slip: (file, _copy, quote, replacement) => ({ tool: REPLACE, input: { filePath: file.rel, oldString: quote, newString: replacement } }),
  },
];
