// A throwaway certificate authority for one harness run, made at test time with the openssl CLI: the proxy
// (proxy.ts) terminates TLS for the GitHub and Copilot API hosts with a leaf certificate it signed. Only
// code-server's environment trusts it (NODE_EXTRA_CA_CERTS, set by servers.ts for code-server alone); the CA's
// key is deleted as soon as the leaf is signed, so nothing can be signed with it afterwards.
// openssl rather than an npm library: it is on every machine the host runs on (Debian), and the project
// keeps its dependencies to what the product and its build need.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface TestCa {
  /** the CA certificate (PEM): what NODE_EXTRA_CA_CERTS names */
  caCert: string;
  /** the leaf certificate and key (PEM) for the TLS server */
  leafCert: string;
  leafKey: string;
}

/** Makes the CA and a leaf certificate for `hosts` (wildcards allowed) in `dir`; valid for a day. */
export function makeTestCa(dir: string, hosts: string[]): TestCa {
  fs.mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // P-256 keys: made in milliseconds, and every TLS stack the runtime might use accepts them
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  openssl([
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-subj',
    '/CN=Agent Edit Guard harness test CA (one test run)',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  try {
    openssl([
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      file('leaf.key'),
      '-out',
      file('leaf.pem'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-subj',
      `/CN=${hosts[0]}`,
      '-addext',
      `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'keyUsage=critical,digitalSignature',
      '-addext',
      'extendedKeyUsage=serverAuth',
    ]);
  } finally {
    fs.rmSync(file('ca.key'), { force: true });
  }
  return { caCert: file('ca.pem'), leafCert: file('leaf.pem'), leafKey: file('leaf.key') };
}
