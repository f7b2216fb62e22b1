// The harness suite's servers, one Node process for a run (out/test/harness/servers.js): scripts/host/drive.js
// forks it before code-server starts (SERVERS_ENTRY, set by scripts/host/run-harness.sh) and stops it after.
//   1. a test CA and leaf certificate for the GitHub and Copilot API hosts (certs.ts), in <run>/harness/ca;
//   2. the scripted model (scriptedModel.ts) and its control API, plain HTTP on 127.0.0.1;
//   3. the TLS-intercepting proxy (proxy.ts) answering as GitHub and the Copilot API (fakeGitHub.ts).
// When all listen it sends the driver { env }: the variables for code-server's environment alone (the proxy,
// the CA to trust, the model's control address for the tests). Logs: <run>/harness/traffic.jsonl (every request
// through the proxy) and model-requests.jsonl (every inference request, with its answer).
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { makeTestCa } from './certs';
import { INTERCEPTED_HOSTS, intercepted, route } from './fakeGitHub';
import { CONTROL, MODEL_URL_ENV, TrafficRecord } from './protocol';
import { startProxy } from './proxy';
import { ScriptedModel } from './scriptedModel';

async function main(runDir: string): Promise<void> {
  const dir = path.join(runDir, 'harness');
  fs.mkdirSync(dir, { recursive: true });
  const log = (name: string, value: unknown) => fs.appendFileSync(path.join(dir, name), JSON.stringify(value) + '\n');
  const ca = makeTestCa(path.join(dir, 'ca'), INTERCEPTED_HOSTS);

  const model = new ScriptedModel((rec) => {
    if (rec.answer) log('model-requests.jsonl', rec);
    else console.log(`[model] request ${rec.n} ${rec.path}${rec.tag ? ` of [[harness:${rec.tag}]] step ${rec.step}` : ''}`);
  });
  const traffic: TrafficRecord[] = [];

  const readBody = (req: http.IncomingMessage, then: (raw: string) => void) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => then(Buffer.concat(chunks).toString('utf8')));
  };
  // the control API, and the same inference endpoints without the proxy (for a look with curl)
  const control = http.createServer((req, res) =>
    readBody(req, (raw) => {
      if (model.control(req, res, raw)) return;
      if (req.url === CONTROL.traffic) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(traffic));
      } else if (req.method === 'POST' && /\/(chat\/completions|responses)$/.test((req.url ?? '').split('?')[0])) {
        model.inference(req, res, raw);
      } else res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const modelUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  const proxy = await startProxy({
    cert: fs.readFileSync(ca.leafCert, 'utf8'),
    key: fs.readFileSync(ca.leafKey, 'utf8'),
    intercepts: intercepted,
    serve(host, req, res, raw) {
      const how = route(host, req.method ?? '', req.url ?? '/');
      if (how === 'model') {
        model.inference(req, res, raw);
        return 'model';
      }
      res.writeHead(how.status, { 'content-type': 'application/json' }).end(JSON.stringify(how.body));
      return how.status;
    },
    onTraffic(record) {
      traffic.push(record);
      log('traffic.jsonl', record);
    },
  });

  const stop = () => {
    proxy.close();
    control.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // the driver is gone (killed): so is this run
  process.on('disconnect', stop);

  const loopback = '127.0.0.1,localhost';
  const env = {
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    https_proxy: proxy.url,
    http_proxy: proxy.url,
    NO_PROXY: loopback,
    no_proxy: loopback,
    NODE_EXTRA_CA_CERTS: ca.caCert,
    [MODEL_URL_ENV]: modelUrl,
  };
  console.log(`[servers] proxy ${proxy.url}, scripted model ${modelUrl}, test CA ${ca.caCert}`);
  if (process.send) process.send({ env });
}

const runDir = process.argv[2];
if (!runDir) {
  console.error('usage: servers.js <run folder>');
  process.exit(2);
}
main(path.resolve(runDir)).catch((err: unknown) => {
  console.error('[servers] could not start:', err);
  process.exit(1);
});
