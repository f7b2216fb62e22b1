// The claims of docs/security.md that no other test proves: the bridge listens on 127.0.0.1 alone,
// with a new secret per window; a request past the size limit, or a header line no client sends, is
// not answered as a hook; the bridge's private folder holds only markers this user can read, named
// so no chat id reaches outside it, and goes when the bridge stops; a missed call is noted without
// the call's content, in a file this user alone can read; and no window's entry is written into a
// folder that is not this user's own. (The other claims name their tests in docs/security.md.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { agentsWithEntries } from '../../src/agents/catalog';
import { CLIENT_SCRIPT_NAME } from '../../src/hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME } from '../../src/hooks/command';
import { discoveryFolder, type WindowEntry, writeEntry } from '../../src/hooks/discovery';
import { LOOPBACK, MAX_REQUEST_BYTES, PENDING_PREFIX, requestHeader, STATUS } from '../../src/hooks/protocol';
import { BridgeServer } from '../../src/hooks/server';
import { noteMissed } from '../../src/hooks/windowClient';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const portOf = (server: BridgeServer) => Number(server.address.split(':')[1]);

/** Sends `chunks` on one connection to `host:port` and collects what comes back until the connection closes; `error` names why it failed. */
function exchange(host: string, port: number, chunks: Array<string | Buffer>, end = true): Promise<{ reply: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host, port });
    let reply = '';
    let error: string | undefined;
    socket.on('data', (d) => (reply += d));
    // the server may drop the connection while we still write (EPIPE, ECONNRESET): that is an answer too
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ reply, error }));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (end) socket.end();
    });
  });
}

suite('security: the hooks bridge', function () {
  this.timeout(20000);
  let server: BridgeServer;
  let seen: string[];
  let log: MemoryLog;
  setup(async () => {
    seen = [];
    log = new MemoryLog();
    server = await BridgeServer.start(async (_agent, payload) => (seen.push(payload), 'answer'), log);
  });
  teardown(() => server?.dispose());

  const hook = (payload: string) => [requestHeader(server.secret, 'copilot', Buffer.byteLength(payload)), payload];

  test('it listens on 127.0.0.1 alone: the port is not reached through another address of this machine', async function () {
    // Linux routes all of 127.0.0.0/8 to the loopback interface: a server on every address would answer 127.0.0.2
    if (process.platform !== 'linux') this.skip();
    assert.equal(server.address, `${LOOPBACK}:${portOf(server)}`);
    assert.deepEqual(await exchange(LOOPBACK, portOf(server), hook('{}')), { reply: `${STATUS.ok}\nanswer`, error: undefined });
    const other = await exchange('127.0.0.2', portOf(server), hook('{}'));
    assert.equal(other.error, 'ECONNREFUSED');
    assert.deepEqual(seen, ['{}'], 'only the request to 127.0.0.1 arrived');
  });

  test("each window's secret is its own: 32 random bytes, new at every start", async () => {
    const other = await BridgeServer.start(async () => '', new MemoryLog());
    try {
      for (const s of [server.secret, other.secret]) assert.match(s, /^[0-9a-f]{64}$/);
      assert.notEqual(server.secret, other.secret);
      // one window's secret opens no other window
      const payload = '{}';
      const crossed = await exchange(LOOPBACK, portOf(other), [requestHeader(server.secret, 'copilot', 2), payload]);
      assert.equal(crossed.reply, `${STATUS.unauthorized}\n`);
    } finally {
      other.dispose();
    }
  });

  test('a request past the size limit is dropped unanswered, reaches no handler, and is logged; the next one is answered', async () => {
    const payload = Buffer.alloc(MAX_REQUEST_BYTES + 1024, 'x');
    const big = await exchange(LOOPBACK, portOf(server), [requestHeader(server.secret, 'copilot', payload.length), payload]);
    assert.equal(big.reply, '', 'no status line: the client lets the call through, as for no answer');
    assert.deepEqual(seen, []);
    assert.ok(
      log.lines.some((l) => l === `warn hooks bridge: dropped a request over ${MAX_REQUEST_BYTES} bytes; the tool call was let through`),
      log.lines.join('\n'),
    );
    assert.deepEqual((await exchange(LOOPBACK, portOf(server), hook('{"a":1}'))).reply, `${STATUS.ok}\nanswer`);
    assert.deepEqual(seen, ['{"a":1}']);
  });

  test('a first line longer than any header, without a line break, is refused at once, while the connection is still open', async () => {
    const r = await exchange(LOOPBACK, portOf(server), ['x'.repeat(1024)], false);
    assert.equal(r.reply, `${STATUS.unauthorized}\n`);
    assert.deepEqual(seen, []);
  });

  test("its private folder: 0700, a chat's marker 0600 and only inside it, whatever the chat id; gone when the bridge stops", function () {
    // Windows keeps no POSIX modes
    if (process.platform === 'win32') this.skip();
    assert.equal(mode(server.folder), 0o700);
    server.notePending('chat-1', true);
    const marker = path.join(server.folder, `${PENDING_PREFIX}chat-1`);
    assert.equal(mode(marker), 0o600);
    server.notePending('chat-1', false);
    assert.equal(fs.existsSync(marker), false);
    // a chat id comes from the agent's payload: one that names a path gets no marker at all
    const parent = path.dirname(server.folder);
    const before = fs.readdirSync(parent);
    for (const id of ['../escaped', '/tmp/escaped', 'a/../../escaped', 'a\nb']) server.notePending(id, true);
    assert.deepEqual(fs.readdirSync(server.folder), []);
    assert.deepEqual(fs.readdirSync(parent).sort(), before.sort());
    const folder = server.folder;
    server.dispose();
    assert.equal(fs.existsSync(folder), false);
  });
});

/** Every file under `dir`. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());

suite('security: files of the clients and the windows', () => {
  test("no agent's hook entries or plugin file hold the secret or the address, though the environment they are made in does", async function () {
    this.timeout(20000);
    const home = tempFolder('aeg-entries-home-');
    const ws = tempFolder('aeg-entries-ws-');
    const server = await BridgeServer.start(async () => '', new MemoryLog());
    const saved = { ...process.env };
    try {
      // as the window's bridge does (src/agents/bridge.ts): the extension host's environment holds the secret
      Object.assign(process.env, server.environment, { HOME: home });
      // the agents' own folder variables would lead out of this home
      for (const key of ['CODEX_HOME', 'PI_CODING_AGENT_DIR', 'CLINE_DIR', 'XDG_CONFIG_HOME']) delete process.env[key];
      const dist = path.join(home, 'extension', 'dist');
      const clients: HookClients = {
        runtime: process.execPath,
        nodeClient: path.join(dist, NODE_CLIENT_NAME),
        bash: '/bin/bash',
        bashClient: path.join(dist, CLIENT_SCRIPT_NAME),
      };
      const written = new Set<string>();
      for (const agent of agentsWithEntries()) {
        for (const placement of ['user', 'workspace'] as const) {
          const left = await agent.entries.sync({
            placement,
            clients,
            toolNames: agent.hooks.toolNames,
            folders: [ws],
            leftFolders: [],
            trusted: true,
            created: new Set<string>(),
            log: new MemoryLog(),
          });
          assert.deepEqual(left, [], `${agent.hooks.name} ${placement}`);
          for (const file of [...filesUnder(home), ...filesUnder(ws)]) {
            const text = fs.readFileSync(file, 'utf8');
            assert.ok(!text.includes(server.secret) && !text.includes(server.address), `${file} holds the secret or the address`);
            written.add(file);
          }
        }
      }
      assert.ok(written.size >= 2 * agentsWithEntries().length, `each agent wrote at both levels: ${[...written].join(', ')}`);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      server.dispose();
    }
  });

  test("a missed call is noted in a file this user alone can read, with the event and the tool, never the call's input", function () {
    if (process.platform === 'win32') this.skip();
    const dir = tempFolder('aeg-missed-');
    const file = path.join(dir, 'missed.jsonl');
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'create_file',
      tool_input: { filePath: '/ws/.env', content: 'API_KEY=secret-value' },
    });
    noteMissed(file, Buffer.from(payload), 'no answer');
    assert.equal(mode(file), 0o600);
    const note = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(note).sort(), ['at', 'event', 'tool', 'why']);
    assert.deepEqual([note.event, note.tool, note.why], ['PreToolUse', 'create_file', 'no answer']);
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /secret-value|\.env/);
  });

  test("no window entry is written where the entries' folder is not this user's own folder (a symbolic link to elsewhere)", function () {
    // a symbolic link needs a privilege there
    if (process.platform === 'win32') this.skip();
    const home = tempFolder('aeg-home-');
    const elsewhere = tempFolder('aeg-elsewhere-');
    const folder = discoveryFolder(home);
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    fs.symlinkSync(elsewhere, folder);
    const entry: WindowEntry = {
      address: '127.0.0.1:1',
      secret: 'a'.repeat(64),
      missed: '/nowhere/missed.jsonl',
      state: '/nowhere',
      pid: process.pid,
      start: '',
      folders: ['/ws'],
    };
    assert.equal(writeEntry(entry, home), undefined);
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'the secret went nowhere');
  });
});
