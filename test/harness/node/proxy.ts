// The HTTP proxy code-server runs with (HTTPS_PROXY, for code-server's environment only): a CONNECT to one of
// the GitHub and Copilot API hosts (fakeGitHub.ts) is answered by a TLS server of this process, with the leaf
// certificate of the run's test CA (certs.ts), and each request in it goes to `serve`; a CONNECT to any other
// host is refused, so nothing leaves the machine. Every request is logged as a TrafficRecord.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TrafficRecord } from './protocol';

export interface Proxy {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): void;
}

export interface ProxyOptions {
  /** PEM */
  cert: string;
  key: string;
  intercepts(host: string): boolean;
  /** answers a request to an intercepted host, its body read; says how (for the log) */
  serve(host: string, req: http.IncomingMessage, res: http.ServerResponse, raw: string): TrafficRecord['answer'];
  onTraffic(record: TrafficRecord): void;
}

const hostOf = (hostHeader: string | undefined) => (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const handle = (host: string, req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      let answer: TrafficRecord['answer'];
      if (options.intercepts(host)) answer = options.serve(host, req, res, Buffer.concat(chunks).toString('utf8'));
      else {
        answer = 'refused';
        res.writeHead(403, { 'content-type': 'text/plain' }).end(`the harness proxy serves only the GitHub and Copilot APIs, not ${host}`);
      }
      options.onTraffic({ at: Date.now(), host, method: req.method ?? '', path, answer });
    });
  };

  const tlsServer = https.createServer({ cert: options.cert, key: options.key }, (req, res) => handle(hostOf(req.headers.host), req, res));
  tlsServer.on('tlsClientError', (err) =>
    options.onTraffic({ at: Date.now(), host: '(TLS)', method: 'CONNECT', path: String(err), answer: 'refused' }),
  );

  const proxy = http.createServer((req, res) => {
    // plain HTTP through a proxy: the request line holds the absolute URL
    let host = hostOf(req.headers.host);
    try {
      const url = new URL(req.url ?? '');
      host = url.hostname;
      req.url = url.pathname + url.search;
    } catch {}
    handle(host, req, res);
  });
  proxy.on('connection', track);
  proxy.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const host = hostOf(req.url);
    if (!options.intercepts(host)) {
      options.onTraffic({ at: Date.now(), host, method: 'CONNECT', path: req.url ?? '', answer: 'refused' });
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    tlsServer.emit('connection', socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close() {
      for (const s of sockets) s.destroy();
      proxy.close();
      tlsServer.close();
    },
  };
}
