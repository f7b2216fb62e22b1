// The wire between the hook script (run by Copilot for each hook event) and the extension: one local
// connection per event. The script sends a header line with the window's secret, then the hook's
// stdin unchanged; the extension answers with one JSON object and closes. Shared by both sides; no
// `vscode` here, because the script runs in a plain Node process.

/** Where the running extension tells the hook script (through the extension host's environment, which hooks inherit) how to reach it. */
export const ENV = {
  socket: 'AGENT_EDIT_GUARD_SOCKET',
  secret: 'AGENT_EDIT_GUARD_SECRET',
  /** a file in the bridge's private folder where the script notes the calls it let through unanswered */
  missed: 'AGENT_EDIT_GUARD_MISSED',
  /** tests only: a shorter bound than `DEFAULT_BOUND_MS` */
  boundMs: 'AGENT_EDIT_GUARD_BOUND_MS',
} as const;

export const HEADER = 'agent-edit-guard/1';

/** How long the script waits for the extension before it lets the call through (fail-open). */
export const DEFAULT_BOUND_MS = 4000;

/** The largest hook payload the extension reads (a `create_file` of a big file carries its content). */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export interface BridgeReply {
  /** what the script prints on its stdout for Copilot ('' = no objection) */
  stdout?: string;
  error?: 'unauthorized';
}

/** A line the script appends to the missed-calls file when it allowed a call without an answer. */
export interface MissedCall {
  at: number;
  event?: string;
  tool?: string;
  why: string;
}
