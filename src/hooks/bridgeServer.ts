// The extension's end of the hooks bridge: a local socket (a named pipe on Windows) that only this
// user can open, in a fresh private folder, answering only requests that carry this window's
// secret. The secret and the address reach the hook script through the extension host's
// environment, which Copilot's hook commands inherit; neither is ever written into the workspace.
// No `vscode` here: it is tested in plain Node.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../core/ports';
import { type BridgeReply, ENV, HEADER, MAX_REQUEST_BYTES, type MissedCall } from './bridgeProtocol';

/** Answers one hook payload with what the script should print ('' = no objection). */
export type HookHandler = (payload: string) => Promise<string>;

/** A connection that sends nothing for this long is dropped. */
const IDLE_MS = 10_000;

export class BridgeServer {
  private readonly server: net.Server;
  private readonly sweep: NodeJS.Timeout;

  private constructor(
    readonly address: string,
    readonly secret: string,
    /** the private folder: the socket and the missed-calls file live in it */
    readonly folder: string,
    private readonly handle: HookHandler,
    private readonly log: Logger,
  ) {
    // half-open: the script ends its side once it has sent the input, and still reads our answer
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.serve(socket));
    // the script notes calls it had to let through unanswered; log them as soon as we can
    this.sweep = setInterval(() => this.reportMissed(), 30_000);
    this.sweep.unref();
  }

  get missedFile(): string {
    return path.join(this.folder, 'missed.jsonl');
  }

  /** The environment the hook script needs to reach this server. */
  get environment(): Record<string, string> {
    return { [ENV.socket]: this.address, [ENV.secret]: this.secret, [ENV.missed]: this.missedFile };
  }

  static async start(handle: HookHandler, log: Logger): Promise<BridgeServer> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-edit-guard-'));
    fs.chmodSync(folder, 0o700);
    const secret = crypto.randomBytes(32).toString('hex');
    const address =
      process.platform === 'win32' ? `\\\\.\\pipe\\agent-edit-guard-${crypto.randomBytes(12).toString('hex')}` : path.join(folder, 'bridge.sock');
    const bridge = new BridgeServer(address, secret, folder, handle, log);
    await new Promise<void>((resolve, reject) => {
      bridge.server.once('error', reject);
      bridge.server.listen(address, () => {
        bridge.server.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') fs.chmodSync(address, 0o600);
    bridge.server.on('error', (e) => log.error(`hooks bridge: ${e.message}`));
    return bridge;
  }

  private serve(socket: net.Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        this.log.warn(`hooks bridge: dropped a request over ${MAX_REQUEST_BYTES} bytes; the tool call was let through`);
        socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => void this.answer(socket, Buffer.concat(chunks)));
  }

  private async answer(socket: net.Socket, request: Buffer): Promise<void> {
    const reply = (r: BridgeReply): void => {
      socket.end(JSON.stringify(r));
    };
    const newline = request.indexOf(0x0a);
    const header = newline < 0 ? '' : request.subarray(0, newline).toString('utf8');
    if (!this.authentic(header)) {
      this.log.warn('hooks bridge: refused a request without this window\'s secret');
      return reply({ error: 'unauthorized' });
    }
    this.reportMissed();
    try {
      reply({ stdout: await this.handle(request.subarray(newline + 1).toString('utf8')) });
    } catch (e) {
      // the gate never fails closed on its own bugs (rule 7)
      this.log.error(`hooks bridge: the hook was let through after an internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      reply({ stdout: '' });
    }
  }

  private authentic(header: string): boolean {
    const expected = Buffer.from(`${HEADER} ${this.secret}`);
    const given = Buffer.from(header);
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
        this.log.warn(`hooks bridge: a ${m.event ?? 'hook'}${m.tool ? ` of ${m.tool}` : ''} at ${new Date(m.at).toISOString()} was let through unchecked: ${m.why}`);
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
