// opencode (the `opencode-ai` CLI) as the gate sees it (test/opencode/FACTS.md). opencode has no command hooks:
// our plugin (plugin.ts, loaded into opencode's own process) sends each event the gate needs in the shape of VS
// Code's hook payloads, with opencode's tool names and every path resolved as opencode resolves it:
// `UserPromptSubmit` (`chat.message`), `ModelRequest` (`chat.params` of the chat's own agent),
// `PreToolUse` (`tool.execute.before`, which refuses by throwing), `PostToolUse` (`tool.execute.after`, only for a
// call that ran) and `PreCompact` (`experimental.session.compacting`). opencode runs one response's calls at
// once. It reads and writes the disk itself, past the editor.
import { SHELL_VERB, str, type TouchedFile } from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';
import { pluginAgentHooks } from '../../../hooks/pluginEvents';

/** The id its events are sent under. */
export const OPENCODE = 'opencode';

/**
 * `read{filePath, offset?, limit?}`, `edit{filePath, oldString, newString, replaceAll?}` (an empty `oldString`
 * makes the file), `write{filePath, content}`, and `apply_patch{patchText}` (offered instead of `edit` and `write`
 * to GPT models).
 */
export const FILE_TOOLS = ['read', 'edit', 'write', 'apply_patch'] as const;
/** `bash{command, workdir?}`: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'bash';
function touchedBy(tool: string, input: Record<string, unknown>): TouchedFile[] {
  if (tool === 'apply_patch') return filesOfPatch(str(input.patchText) ?? '');
  const file = str(input.filePath);
  if (file === undefined) return [];
  const quote = tool === 'edit' ? str(input.oldString) : undefined;
  // an edit quotes what it replaces (opencode matches a quote it does not find loosely: rule 12 holds it to the
  // file as written); a write, or an edit without a quote, makes the file or overwrites it
  return [quote !== undefined ? { path: file, intent: 'change', quotes: [quote] } : { path: file, intent: 'create' }];
}

/** The files a call of opencode's file tools touches. */
function filesOf(tool: string, input: Record<string, unknown>) {
  if (tool !== 'read') return { edit: touchedBy(tool, input) };
  const file = str(input.filePath);
  return { read: file === undefined ? [] : [file] };
}

/** opencode: it reads and writes the disk itself, its sessions are its own chats, and one response's calls run at once. */
export const opencodeAgent = pluginAgentHooks({
  id: OPENCODE,
  name: 'opencode',
  fileTools: FILE_TOOLS,
  shellTool: SHELL_TOOL,
  filesOf,
  verbs: { read: 'read', edit: 'edit', write: 'write', apply_patch: 'patch', [SHELL_TOOL]: SHELL_VERB },
});
/** The tools whose events the plugin sends. */
export const GATED_TOOLS = opencodeAgent.toolNames;
/** One event as plugin.ts sends it. */
export const parseOpencodeEvent = opencodeAgent.parse;
