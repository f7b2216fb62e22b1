// The wire between a hook command (run by an agent for each hook event) and the extension: one local
// TCP connection per event, on 127.0.0.1 only. TCP rather than a Unix socket or a named pipe because
// the cheap client (bashClient.ts) is bash, whose `/dev/tcp` speaks only TCP; the secret, not the
// address, is what makes a request ours. The client sends one header line — the protocol, the
// window's secret, the agent whose hook entry ran (its id, from the command line), the name of the process
// that ran the hook where the client could read it (else `-`; a client of an earlier release leaves the word
// out) and the payload's length in bytes — then the hook's stdin unchanged; the extension answers with a status line and,
// after `ok`, exactly what the hook prints, then closes. Shared by both sides; no `vscode` here,
// because the node client runs in a plain Node process.

/** Where the running extension tells the hook command (through the extension host's environment, which hooks inherit) how to reach it. */
export const ENV = {
  /** `127.0.0.1:<port>` */
  socket: 'AGENT_EDIT_GUARD_SOCKET',
  secret: 'AGENT_EDIT_GUARD_SECRET',
  /** a file in the bridge's private folder where the client notes the calls it let through unanswered */
  missed: 'AGENT_EDIT_GUARD_MISSED',
  /** the bridge's private folder, where a marker says a chat has a tool call still to settle */
  state: 'AGENT_EDIT_GUARD_STATE',
  /** tests only: a shorter bound than `DEFAULT_BOUND_MS` */
  boundMs: 'AGENT_EDIT_GUARD_BOUND_MS',
} as const;

/** The first word of a request; a client of another version is refused, and lets its call through. */
export const HEADER = 'agent-edit-guard/3';

/** An agent's id as a hook command names it (`copilot`, `claude-code`): the first argument of either client. */
export const AGENT_ID = /^[a-z][a-z0-9-]{0,31}$/;

/** The status lines of a reply. */
export const STATUS = { ok: 'ok', unauthorized: 'unauthorized', malformed: 'malformed' } as const;

/** How long a client waits for the extension before it lets the call through (fail-open). */
export const DEFAULT_BOUND_MS = 4000;

/**
 * How long the gate may take over one event, waiting included (rule 14: a check waits for another chat's
 * write in flight): well inside the client's bound, so a check that cannot wait longer is refused by the
 * gate instead of let through by the client's timeout.
 */
export const ANSWER_WITHIN_MS = 3000;

/** The largest hook payload the extension reads (a `create_file` of a big file carries its content). */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** The bridge listens on the loopback interface only. */
export const LOOPBACK = '127.0.0.1';

export const requestHeader = (secret: string, agent: string, bytes: number, parent?: string) =>
  `${HEADER} ${secret} ${agent} ${headerWord(parent)} ${bytes}\n`;

/** The name of a hook's parent process as one word of the header: only these characters, `-` for none. */
export const headerWord = (name: string | undefined) => (name ? name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) : '') || '-';

/** The parent a header names (its fourth of five words), if any. */
export function parentOf(header: string): string | undefined {
  const words = header.split(' ');
  return words.length === 5 && words[3] !== '-' ? words[3] : undefined;
}

/**
 * A chat whose earlier tool call is not settled yet has a marker file `pending-<chat id>` in the
 * bridge's folder; while it has none, an event of a tool the gate does not need changes nothing,
 * so the bash client drops it without asking. Only ids of these characters get a marker (the client
 * reads the id with the same class); any other chat's events are always sent.
 */
export const PENDING_PREFIX = 'pending-';
export const MARKABLE_CHAT_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** `127.0.0.1:<port>` → its parts; undefined when the value is not one. */
export function parseAddress(address: string): { host: string; port: number } | undefined {
  const m = /^(127\.0\.0\.1):(\d{1,5})$/.exec(address);
  const port = m ? Number(m[2]) : 0;
  return m && port > 0 && port < 65536 ? { host: m[1], port } : undefined;
}

/**
 * Where a client without an address in its environment finds the windows' entries (under the OS
 * home; discovery.ts writes them, each client reads them), and an entry's file suffix.
 */
export const DISCOVERY_PATH = '.cache/agent-edit-guard/windows';
export const ENTRY_SUFFIX = '.window';

/** A line a client appends to the missed-calls file when it allowed a call without an answer. */
export interface MissedCall {
  at: number;
  event?: string;
  tool?: string;
  why: string;
}
