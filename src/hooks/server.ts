// The extension's end of the hooks bridge: a TCP listener on 127.0.0.1 (protocol.ts says why
// TCP), answering only requests that carry this window's secret; the missed-calls file lives in a
// fresh folder only this user can open. The secret and the address reach the hook command through
// the extension host's environment, which the agents' hook commands inherit, or — for an agent
// started outside the window — through this window's entry, a file only this user can read
// (discovery.ts); never through a hook entry or any file another user or agent's settings hold
// (docs/security.md). No `vscode` here: it is tested in plain Node.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../core/ports';
import type { HookOrigin } from './event';
import {
  AGENT_ID,
  ENV,
  HEADER,
  LOOPBACK,
  MARKABLE_CHAT_ID,
  MAX_REQUEST_BYTES,
  type MissedCall,
  parentOf,
  PENDING_PREFIX,
  STATUS,
} from './protocol';

/**
 * Answers one hook payload of an agent (its id, as the hook command named it) with what the hook should print ('' = no
 * objection); `origin`, what the client saw of the process that ran the hook.
 */
export type HookHandler = (agent: string, payload: string, origin: HookOrigin) => Promise<string>;

/** A connection that sends nothing for this long is dropped. */
const IDLE_MS = 10_000;
/** A header line longer than this is not ours. */
const MAX_HEADER_BYTES = 256;

export class BridgeServer {
  private readonly server: net.Server;
  private readonly sweep: NodeJS.Timeout;

  private constructor(
    readonly secret: string,
    /** the private folder: the missed-calls file lives in it */
    readonly folder: string,
    private readonly handle: HookHandler,
    private readonly log: Logger,
  ) {
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.serve(socket));
    // the clients note calls they had to let through unanswered; log them as soon as we can
    this.sweep = setInterval(() => this.reportMissed(), 30_000);
    this.sweep.unref();
  }

  /** `127.0.0.1:<port>` */
  get address(): string {
    const a = this.server.address() as net.AddressInfo;
    return `${LOOPBACK}:${a.port}`;
  }

  get missedFile(): string {
    return path.join(this.folder, 'missed.jsonl');
  }

  /** The environment a hook command needs to reach this server. */
  get environment(): Record<string, string> {
    return { [ENV.socket]: this.address, [ENV.secret]: this.secret, [ENV.missed]: this.missedFile, [ENV.state]: this.folder };
  }

  /**
   * Says (to the bash client, through a marker file) whether this chat has a tool call still to
   * settle; called before the answer that creates one goes out, so the chat's next event is sent.
   */
  notePending(chat: string, pending: boolean): void {
    if (!MARKABLE_CHAT_ID.test(chat)) return;
    const marker = path.join(this.folder, PENDING_PREFIX + chat);
    try {
      if (pending) fs.writeFileSync(marker, '', { mode: 0o600 });
      else fs.rmSync(marker, { force: true });
    } catch (e) {
      this.log.warn(`hooks bridge: could not ${pending ? 'write' : 'remove'} ${marker}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  static async start(handle: HookHandler, log: Logger): Promise<BridgeServer> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-edit-guard-'));
    fs.chmodSync(folder, 0o700);
    const secret = crypto.randomBytes(32).toString('hex');
    const bridge = new BridgeServer(secret, folder, handle, log);
    await new Promise<void>((resolve, reject) => {
      bridge.server.once('error', reject);
      bridge.server.listen(0, LOOPBACK, () => {
        bridge.server.off('error', reject);
        resolve();
      });
    });
    bridge.server.on('error', (e) => log.error(`hooks bridge: ${e.message}`));
    return bridge;
  }

  private serve(socket: net.Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    /** the payload's length, once the header line is in */
    let expected: number | undefined;
    let answered = false;
    const answer = (request: Buffer) => {
      if (answered) return;
      answered = true;
      void this.answer(socket, request);
    };
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES + MAX_HEADER_BYTES) {
        this.log.warn(`hooks bridge: dropped a request over ${MAX_REQUEST_BYTES} bytes; the tool call was let through`);
        socket.destroy();
        return;
      }
      chunks.push(chunk);
      if (expected === undefined) {
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const newline = head.indexOf(0x0a);
        if (newline < 0) {
          if (head.length > MAX_HEADER_BYTES) answer(head);
          return;
        }
        expected = newline + 1 + (lengthOf(head.subarray(0, newline).toString('utf8')) ?? 0);
      }
      // bash cannot half-close its end: the length in the header says when the payload is complete
      if (size >= expected) answer(Buffer.concat(chunks).subarray(0, expected));
    });
    socket.on('end', () => answer(Buffer.concat(chunks)));
  }

  private async answer(socket: net.Socket, request: Buffer): Promise<void> {
    const reply = (status: string, stdout = ''): void => {
      if (!socket.destroyed) socket.end(`${status}\n${stdout}`);
    };
    const newline = request.indexOf(0x0a);
    const header = newline < 0 ? '' : request.subarray(0, newline).toString('utf8');
    const length = lengthOf(header);
    if (!this.authentic(header)) {
      this.log.warn("hooks bridge: refused a request without this window's secret");
      return reply(STATUS.unauthorized);
    }
    const payload = request.subarray(newline + 1);
    const agent = agentOf(header);
    if (length === undefined || payload.length !== length || agent === undefined) {
      this.log.warn(`hooks bridge: a request said ${length ?? 'no'} bytes and carried ${payload.length}; let through`);
      return reply(STATUS.malformed);
    }
    try {
      const parent = parentOf(header);
      reply(STATUS.ok, await this.handle(agent, payload.toString('utf8'), parent !== undefined ? { parent } : {}));
    } catch (e) {
      // the gate never fails closed on its own bugs (rule 7)
      this.log.error(
        `hooks bridge: the hook was let through after an internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      reply(STATUS.ok);
    }
    // the answer is out: now the calls a client could not get answered before, if any, are logged
    this.reportMissed();
  }

  /** The header's protocol and secret, compared in constant time. */
  private authentic(header: string): boolean {
    const expected = Buffer.from(`${HEADER} ${this.secret}`);
    const given = Buffer.from(header.split(' ').slice(0, 2).join(' '));
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** Logs (and forgets) the calls the script let through because it could not get an answer. */
  reportMissed(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.missedFile, 'utf8');
      fs.rmSync(this.missedFile, { force: true });
    } catch {
      return;
    }
    for (const line of text.split('\n').filter(Boolean)) {
      try {
        const m = JSON.parse(line) as MissedCall;
        this.log.warn(
          `hooks bridge: a ${m.event ?? 'hook'}${m.tool ? ` of ${m.tool}` : ''} at ${new Date(m.at).toISOString()} was let through unchecked: ${m.why}`,
        );
      } catch {
        // a torn line: nothing to say about it
      }
    }
  }

  dispose(): void {
    clearInterval(this.sweep);
    this.reportMissed();
    this.server.close();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}

/** The agent a header line names (its third word), if it is an agent id. */
function agentOf(header: string): string | undefined {
  const agent = header.split(' ')[2];
  return agent !== undefined && AGENT_ID.test(agent) ? agent : undefined;
}

/** The payload length a header line names (its last word), if it names one. */
function lengthOf(header: string): number | undefined {
  const m = / (\d+)$/.exec(header);
  return m ? Number(m[1]) : undefined;
}
