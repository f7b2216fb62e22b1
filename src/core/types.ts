// Shared vocabulary of the gate. Names follow docs/design.md §Names and §Surfaces.

/**
 * A tool as the agent calls it: one of ours (toolIds.ts), or another agent's file tool that an
 * adapter puts behind the same gate (the core knows nothing of those; the adapter names them).
 */
export type ToolName = string;

/** How a mark came to be: the agent read the file, was shown it by a refusal, or wrote it itself. */
export type MarkOrigin = 'read' | 'refusal' | 'write';

/** `editGuard.ownWriteKeepsMark`: how long the agent's own write counts as having seen the file. */
export type OwnWritePolicy = 'sameTurn' | 'never' | 'always';

/**
 * `editGuard.readKeepsMark`: how long a read (or a refusal's view) counts as having seen the file —
 * `sameTurn` for where a chat's context is summarised without a signal (docs/compaction.md).
 */
export type ReadPolicy = 'always' | 'sameTurn';

/** Why the gate's decision (gate.ts) refuses a write. */
export type GateBlockReason = 'not-read' | 'changed' | 'own-write-expired' | 'read-expired';

/**
 * Why a refusal that shows the current text and stamps a mark (rule 6) was given: the gate's reasons,
 * and `inexact-match` (rule 12) — another agent's replace the gate allows, whose oldString is not in
 * the file as written, so its tool would match it approximately.
 */
export type RefusalReason = GateBlockReason | 'inexact-match';

/**
 * Why a write was refused: the refusals of rule 6, `duplicate` (rule 11) for a write the gate allows,
 * `unsaved-in-editor` (rule 13): an agent that writes the disk itself, past the editor, about to
 * change a file whose editor buffer holds the user's unsaved changes, and `write-in-flight` (rule 14):
 * another chat's write to the file was let through and had not landed when this call could wait no longer.
 */
export type BlockReason = RefusalReason | 'duplicate' | 'unsaved-in-editor' | 'write-in-flight';

export type ErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'no-match'
  | 'ambiguous'
  | 'outside-workspace'
  | 'protected'
  | 'binary'
  | 'too-large'
  | 'untrusted'
  /** the edit is in the editor, unsaved, beside the user's typing, and the file on disk moved meanwhile: not on disk */
  | 'kept-in-editor'
  | 'internal';

/** Lines of a text, 1-based and inclusive. */
export interface LineSpan {
  start: number;
  end: number;
}

/** The JSON part of every tool result (`LanguageModelDataPart.json`). */
export interface ResultData {
  status: 'ok' | 'blocked' | 'error';
  tool: ToolName;
  path: string;
  uri?: string;
  reason?: BlockReason;
  code?: ErrorCode;
  message: string;
  turn?: string;
  /** write/replace: the agent's change was saved to disk. */
  saved?: boolean;
  /** write/replace: the document held the user's unsaved changes, so the write was left unsaved too. */
  keptUnsaved?: boolean;
  created?: boolean;
  formatterChanged?: boolean;
  replacements?: number;
  matches?: number;
  /**
   * write/replace: the lines of the new text the change covers; blocked `changed` (with a diff): the
   * lines that changed since the version the chat saw. 1-based, inclusive; absent when it is the
   * whole file.
   */
  changedLines?: LineSpan;
  /** blocked `duplicate` (rule 11): where the block the write would repeat already stands in the current text. 1-based, inclusive. */
  duplicateLines?: LineSpan;
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  truncated?: boolean;
  /** Rule 10: files this chat read that changed since. */
  staleFiles?: string[];
  /** Rule 7: the gate failed internally and let the write through. */
  failOpen?: boolean;
}

/** What a tool returns before the adapter turns it into a `LanguageModelToolResult`. */
export interface ToolOutcome {
  text: string;
  data: ResultData;
  /**
   * The start of `text` that must reach the model whatever happens to the rest (a refusal's
   * headline): sent as a text part of its own, because Copilot replaces each part over 8 KB with a
   * pointer to a file.
   */
  lead?: string;
}

/** One agent edit in the edit record (editRecord.ts); here, beside the other shared types, so that revert.ts needs no import of its owner. */
export interface RecordedEdit {
  /** Unique within the workspace's record. */
  id: string;
  /** Order of landing, across reloads. */
  seq: number;
  session: string;
  turn?: string;
  tool: ToolName;
  /** Whose own tool made it (an agent's id); absent for our guarded tools, and in edits recorded before the field */
  agent?: string;
  uri: string;
  /** The text's hash before the edit; absent when the edit created the file. */
  beforeHash?: string;
  afterHash: string;
  at: number;
  /** The edit was saved to disk (not left in a buffer with unsaved changes). */
  saved: boolean;
  /** The edit deleted the file (`afterHash` is then the empty text's). */
  deleted?: true;
  /** When the user reverted it. */
  revertedAt?: number;
}
