// Cline (the `cline` CLI) as the gate sees it (test/cline/FACTS.md). A Cline plugin can refuse one tool call,
// its file hooks only the whole run, so our plugin (plugin.ts, loaded into Cline's plugin sandbox) sends each
// event the gate needs in the shape of VS Code's hook payloads, with Cline's tool names and every path resolved
// as Cline resolves it: `UserPromptSubmit` (`beforeRun`), `ModelRequest` (`beforeModel`), `PreToolUse`
// (`beforeTool`, which can skip the call), `PostToolUse` (`afterTool`) and `PreCompact` (its auto-compaction
// notice). Cline checks every call of a response before it runs the first, and a plugin's hook must answer
// within 3 s or the run fails. It reads and writes the disk itself, past the editor.
import { record, SHELL_VERB, str, type TouchedFile } from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';
import { pluginAgentHooks } from '../../../hooks/pluginEvents';

/** The id its events are sent under. */
export const CLINE = 'cline';

/**
 * `read_files{files: [{path, start_line?, end_line?}]}`; `editor{path, old_text?, new_text, insert_line?}` (a
 * replace, an insert before a line, or a new file: it never overwrites one); `apply_patch{input}` (OpenAI's patch
 * text, offered instead of `editor` to GPT and Codex models).
 */
export const FILE_TOOLS = ['read_files', 'editor', 'apply_patch'] as const;
/** `run_commands{commands}`: the files its commands write are checked as edits (rule 16). */
export const SHELL_TOOL = 'run_commands';
/** How long Cline lets a plugin's hook take before it fails the whole run (3 s), less the sandbox's own round trip. */
export const CLINE_HOOK_MS = 2500;

/** The files an `editor` call touches: the quote it replaces, or a line it inserts before (the file must exist), or a new file. */
function editorFile(input: Record<string, unknown>): TouchedFile | undefined {
  const file = str(input.path);
  if (file === undefined) return undefined;
  const quote = str(input.old_text);
  if (quote !== undefined) return { path: file, intent: 'change', quotes: [quote] };
  return typeof input.insert_line === 'number' ? { path: file, intent: 'change' } : { path: file, intent: 'create' };
}

/** The files a call of Cline's file tools touches. */
function filesOf(tool: string, input: Record<string, unknown>) {
  if (tool === 'read_files')
    return { read: (Array.isArray(input.files) ? input.files : []).map((f) => str(record(f)?.path)).filter((f) => f !== undefined) };
  return { edit: tool === 'editor' ? [editorFile(input)].filter((f) => f !== undefined) : filesOfPatch(str(input.input) ?? '') };
}

/**
 * Cline: it reads and writes the disk itself, its sessions are its own chats, it checks one response's calls
 * before running them, and its plugin's hook may take no longer than 3 s.
 */
export const clineAgent = pluginAgentHooks({
  id: CLINE,
  name: 'Cline',
  fileTools: FILE_TOOLS,
  shellTool: SHELL_TOOL,
  filesOf,
  verbs: { read_files: 'read', editor: 'edit', apply_patch: 'patch', [SHELL_TOOL]: SHELL_VERB },
  answerWithinMs: CLINE_HOOK_MS - 500,
});
/** The tools whose events the plugin sends. */
export const GATED_TOOLS = clineAgent.toolNames;
/** One event as plugin.ts sends it. */
export const parseClineEvent = clineAgent.parse;
