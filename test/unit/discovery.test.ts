// How a hook started outside this window's extension host finds the window (src/hooks/discovery.ts,
// docs/design.md §Surfaces, hooks from anywhere): the entries' privacy, stale and reused processes,
// two windows on one folder, no window, and an entry that lies — through the entries' reader and
// through both real clients run as an agent runs them (sh -c, no address in the environment, HOME
// holding the entries), against a real bridge server.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { claudeHookEntries } from '../../src/agents/claudeCode/node/settings';
import { CLIENT_SCRIPT_NAME } from '../../src/hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME } from '../../src/hooks/command';
import {
  discoveryFolder,
  findWindow,
  parseEntry,
  processStart,
  entryText,
  removeStaleEntries,
  touchEntry,
  type WindowEntry,
  writeEntry,
} from '../../src/hooks/discovery';
import { ENV } from '../../src/hooks/protocol';
import { BridgeServer } from '../../src/hooks/server';
import { MemoryLog } from './memoryDocuments';

const DIST = path.resolve('dist');
const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim() || undefined;

/** A fresh OS home for one test: the entries live under it. */
const freshHome = () => fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-discovery-'));
const mode = (p: string) => fs.statSync(p).mode & 0o777;

function entry(overrides: Partial<WindowEntry> = {}): WindowEntry {
  return {
    address: '127.0.0.1:1',
    secret: 'a'.repeat(64),
    missed: '/nowhere/missed.jsonl',
    state: '/nowhere',
    pid: process.pid,
    start: processStart(process.pid),
    folders: ['/ws/one'],
    ...overrides,
  };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

suite('discovery: the windows’ entries', () => {
  test('an entry is private: the folder 0700, the file 0600, written whole; its text reads back', () => {
    const home = freshHome();
    try {
      const r = entry({ folders: ['/ws/one', '/ws/two with spaces=and equals'] });
      const file = writeEntry(r, home);
      assert.ok(file);
      assert.equal(mode(discoveryFolder(home)), 0o700);
      assert.equal(mode(file), 0o600);
      assert.deepEqual(parseEntry(fs.readFileSync(file, 'utf8')), r);
      assert.deepEqual(
        fs.readdirSync(discoveryFolder(home)).filter((f) => f.endsWith('.tmp')),
        [],
        'no half-written file is left',
      );
      // a folder someone made readable by others is made private again before a secret goes in
      fs.chmodSync(discoveryFolder(home), 0o755);
      writeEntry(r, home, file);
      assert.equal(mode(discoveryFolder(home)), 0o700);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('an entry whose process is gone, or whose pid now belongs to another process, is ignored and removed', () => {
    const home = freshHome();
    try {
      const gone = writeEntry(entry({ pid: deadPid(), folders: ['/ws'] }), home)!;
      const reused = writeEntry(entry({ start: processStart(process.pid) === '' ? 'x' : 'not-its-start', folders: ['/ws'] }), home)!;
      if (processStart(process.pid) !== '') {
        assert.equal(findWindow('/ws/a.txt', home), undefined, 'neither is a window');
      } else {
        assert.equal(findWindow('/ws/a.txt', home)?.pid, process.pid, 'where there is no /proc, a live pid is all there is to check');
      }
      removeStaleEntries(home);
      assert.equal(fs.existsSync(gone), false, "the dead window's entry goes");
      if (processStart(process.pid) !== '') assert.equal(fs.existsSync(reused), false, 'so does one whose pid was reused');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('the window whose folder holds the file: the deepest folder wins; of two windows on one folder, the one used last', () => {
    const home = freshHome();
    try {
      writeEntry(entry({ address: '127.0.0.1:1001', folders: ['/ws'] }), home)!;
      const a = writeEntry(entry({ address: '127.0.0.1:1002', folders: ['/ws/app', '/elsewhere'] }), home)!;
      const b = writeEntry(entry({ address: '127.0.0.1:1003', folders: ['/ws/app'] }), home)!;
      assert.equal(findWindow('/ws/readme.md', home)?.address, '127.0.0.1:1001');
      assert.equal(findWindow('/ws/app', home)?.address !== '127.0.0.1:1001', true, 'the folder itself counts as held');
      // a and b are on the same folder: the last touched (focused) wins
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(b, past, past);
      touchEntry(a);
      assert.equal(findWindow('/ws/app/src/x.ts', home)?.address, '127.0.0.1:1002');
      fs.utimesSync(a, past, past);
      touchEntry(b);
      assert.equal(findWindow('/ws/app/src/x.ts', home)?.address, '127.0.0.1:1003');
      assert.equal(findWindow('/ws-other/x.ts', home), undefined, 'a prefix of the name is not a folder that holds it');
      assert.equal(findWindow('/nowhere/x.ts', home), undefined, 'no window on the folder');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('no windows folder at all: no window, and nothing is made', () => {
    const home = freshHome();
    try {
      assert.equal(findWindow('/ws/a.txt', home), undefined);
      assert.equal(fs.existsSync(discoveryFolder(home)), false);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('an entry that is not one (missing fields, garbage) is no window', () => {
    assert.equal(parseEntry('address=127.0.0.1:1\nsecret=x\n'), undefined);
    assert.equal(parseEntry('\u0000garbage'), undefined);
    assert.deepEqual(parseEntry(entryText(entry()))?.folders, ['/ws/one']);
  });
});

interface Run {
  code: number | null;
  stdout: string;
}

/** An agent's hook command for `event` (Claude Code's entries), run as the agent runs it: sh -c, no address in the environment, HOME given. */
function runOutside(clients: HookClients, home: string, payload: string): Promise<Run> {
  const command = claudeHookEntries(clients).PreToolUse.hooks[0].command;
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const key of Object.values(ENV)) delete env[key];
  const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stdin.on('error', () => {});
  child.stdin.end(payload);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const edit = (file: string, cwd = '/') =>
  JSON.stringify({
    session_id: 's',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'a', new_string: 'b', replace_all: false },
  });

for (const bash of BASH ? [BASH, undefined] : [undefined]) {
  const clients: HookClients = {
    runtime: process.execPath,
    nodeClient: path.join(DIST, NODE_CLIENT_NAME),
    bash,
    bashClient: path.join(DIST, CLIENT_SCRIPT_NAME),
  };
  suite(`discovery: a hook started outside the window (${bash ? 'bash' : 'Node'} client)`, function () {
    this.timeout(20000);
    let home: string;
    let server: BridgeServer;
    let seen: string[];
    const ws = '/ws/discovered';
    setup(async function () {
      if (process.platform === 'win32') this.skip();
      home = freshHome();
      seen = [];
      server = await BridgeServer.start(
        async (agent, payload) => (seen.push(`${agent} ${JSON.parse(payload).tool_input.file_path}`), 'answer'),
        new MemoryLog(),
      );
      const env = server.environment;
      writeEntry(
        entry({ address: env[ENV.socket], secret: env[ENV.secret], missed: env[ENV.missed], state: env[ENV.state], folders: [ws] }),
        home,
      );
    });
    teardown(() => {
      server?.dispose();
      fs.rmSync(home, { recursive: true, force: true });
    });

    test("a call on a file in the window's folder reaches it, by an absolute path or one relative to the hook's cwd", async () => {
      assert.deepEqual(await runOutside(clients, home, edit(`${ws}/a.ts`)), { code: 0, stdout: 'answer' });
      assert.deepEqual(await runOutside(clients, home, edit('src/b.ts', ws)), { code: 0, stdout: 'answer' });
      assert.deepEqual(seen, [`claude-code ${ws}/a.ts`, 'claude-code src/b.ts']);
    });

    test('a call on a file in no window’s folder is let through at once, and reaches no window', async () => {
      assert.deepEqual(await runOutside(clients, home, edit('/elsewhere/a.ts')), { code: 0, stdout: '' });
      assert.deepEqual(seen, []);
    });

    test('no entry at all: the command exits at once, before any client starts', async () => {
      const empty = freshHome();
      try {
        assert.deepEqual(
          await runOutside({ ...clients, bashClient: '/no/client.sh', nodeClient: '/no/client.js' }, empty, edit(`${ws}/a.ts`)),
          {
            code: 0,
            stdout: '',
          },
        );
      } finally {
        fs.rmSync(empty, { recursive: true, force: true });
      }
    });

    test('an entry that lies — its secret not the window’s, or its port not the window’s — gets no answer: the call is let through', async () => {
      const env = server.environment;
      const liar = (overrides: Partial<WindowEntry>) =>
        writeEntry(
          entry({
            address: env[ENV.socket],
            secret: env[ENV.secret],
            missed: path.join(home, 'missed'),
            state: env[ENV.state],
            folders: [`${ws}/deeper`],
            ...overrides,
          }),
          home,
        )!;
      const wrongSecret = liar({ secret: 'b'.repeat(64) });
      assert.deepEqual(await runOutside(clients, home, edit(`${ws}/deeper/a.ts`)), { code: 0, stdout: '' });
      fs.rmSync(wrongSecret);
      const closed = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as net.AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      liar({ address: `127.0.0.1:${closed}` });
      assert.deepEqual(await runOutside(clients, home, edit(`${ws}/deeper/a.ts`)), { code: 0, stdout: '' });
      assert.deepEqual(seen, [], 'the window heard nothing from the lying entries');
      // each client noted why it let the call through, where that window would log it
      const missed = fs.readFileSync(path.join(home, 'missed'), 'utf8');
      assert.match(missed, /refused the request \(unauthorized\)/, missed);
      assert.match(missed, /could not reach the extension/, missed);
    });
  });
}
