// Calls of our guarded tools that another agent's hook announced before they ran. The Copilot harness
// runs our tools in the extension host with no chat or turn the extension host can name (its
// `chatRequestId` is never set, its chat resource only sometimes, and is not the id its hooks use), but
// its hooks see each call first, with the harness's own chat id: the hook router announces the call here,
// and the tool, when it runs, takes its chat and turn from the announcement of the same tool with the
// same input. An announcement not taken within a minute is forgotten (the harness's hook times out, or
// the tool was not run).
import { BoundedMap } from '../core/boundedMap';

/** How long an announcement waits for its tool. */
const WAIT_MS = 60_000;
const MAX_WAITING = 1000;

export interface ExpectedChat {
  session: string;
  turn: string | undefined;
}

/** JSON with object keys sorted: one input, one text, whichever order its keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class ExpectedCalls {
  private readonly waiting = new BoundedMap<string, Array<ExpectedChat & { at: number }>>(MAX_WAITING);

  constructor(private readonly now: () => number = Date.now) {}

  /** A hook saw `tool` (our tool id) about to run with `input`, in this chat and turn. */
  announce(tool: string, input: unknown, chat: ExpectedChat): void {
    const key = `${tool}\n${canonical(input)}`;
    const fresh = (this.waiting.get(key) ?? []).filter((c) => this.now() - c.at < WAIT_MS);
    this.waiting.set(key, [...fresh, { ...chat, at: this.now() }]);
  }

  /** The chat and turn of a call of `tool` with `input` that a hook announced, oldest first; taken once. */
  take(tool: string, input: unknown): ExpectedChat | undefined {
    const key = `${tool}\n${canonical(input)}`;
    const fresh = (this.waiting.get(key) ?? []).filter((c) => this.now() - c.at < WAIT_MS);
    const [first, ...rest] = fresh;
    if (rest.length) this.waiting.set(key, rest);
    else this.waiting.delete(key);
    return first && { session: first.session, turn: first.turn };
  }
}
