// The hooks bridge in plain Node: the real script (dist/hook-bridge.js, as Copilot runs it) against
// the real server. Security (only the secret is answered), fail-open within the bound, the miss
// noted for the extension's log, and the hooks file's commands.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ENV, HEADER } from '../../src/hooks/bridgeProtocol';
import { BridgeServer } from '../../src/hooks/bridgeServer';
import { hooksFileContent, isOurHooksFile, psQuote, shQuote } from '../../src/hooks/copilot/hooksFile';
import { MemoryLog } from './memoryDocuments';

const SCRIPT = path.resolve('dist/hook-bridge.js');
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stale"}}';

interface Run {
  code: number | null;
  stdout: string;
}

// How long the script takes in each case is measured by `npm run bench` (bench/host/hooks.ts, rows
// hook.*), not here: these tests assert what it does.
function runScript(env: Record<string, string | undefined>, stdin: string): Promise<Run> {
  const clean = { ...process.env };
  for (const key of Object.values(ENV)) delete clean[key];
  const child = spawn(process.execPath, [SCRIPT, 'PreToolUse'], { env: { ...clean, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const hookInput = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'replace_string_in_file', tool_input: { filePath: '/ws/a' } });

suite('hooks bridge: script ↔ extension', function () {
  this.timeout(20000);
  let server: BridgeServer | undefined;
  let seen: string[];
  let log: MemoryLog;
  setup(async () => {
    seen = [];
    log = new MemoryLog();
    server = await BridgeServer.start(async (payload) => {
      seen.push(payload);
      return DENY;
    }, log);
  });
  teardown(() => server?.dispose());

  test('the script forwards the hook input unchanged and prints the extension\'s answer', async () => {
    const r = await runScript(server!.environment, hookInput);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, DENY);
    assert.deepEqual(seen, [hookInput]);
  });

  test('the socket is private: its folder is the user\'s alone, and the socket too', function () {
    if (process.platform === 'win32') this.skip();
    assert.equal(fs.statSync(server!.folder).mode & 0o777, 0o700);
    assert.equal(fs.statSync(server!.address).mode & 0o077, 0);
    assert.ok(!JSON.stringify(hooksFileContent('/bin/node', SCRIPT)).includes(server!.secret), 'the hooks file has no secret');
  });

  test('a forged request without the secret is refused and never reaches the gate', async () => {
    const forged = async (header: string) => {
      const socket = net.createConnection(server!.address);
      let reply = '';
      socket.on('data', (d) => (reply += d));
      socket.end(`${header}\n${hookInput}`);
      await new Promise((resolve) => socket.on('close', resolve));
      return reply;
    };
    for (const header of [`${HEADER} wrong`, `${HEADER} ${server!.secret.slice(0, -1)}x`, HEADER, '', `${HEADER} ${server!.secret} extra`]) {
      assert.deepEqual(JSON.parse(await forged(header)), { error: 'unauthorized' }, header);
    }
    assert.deepEqual(seen, []);
    assert.ok(log.lines.some((l) => /refused a request without this window's secret/.test(l)));
    // the script with a wrong secret: allowed (nothing printed), and it says so where the extension logs it
    const r = await runScript({ ...server!.environment, [ENV.secret]: 'not-the-secret' }, hookInput);
    assert.equal(r.stdout, '');
    assert.equal(r.code, 0);
    server!.reportMissed();
    assert.ok(log.lines.some((l) => /PreToolUse of replace_string_in_file .* was let through unchecked: the extension refused the request \(unauthorized\)/.test(l)), log.lines.join('\n'));
  });

  test('no extension in this window: the script allows at once, without waiting for its bound or noting a miss', async () => {
    // a bound far beyond this suite's timeout: a script that waited for it would fail the test
    const missed = path.join(server!.folder, 'no-extension-missed.jsonl');
    const r = await runScript({ [ENV.boundMs]: String(60 * 60 * 1000), [ENV.missed]: missed }, hookInput);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(fs.existsSync(missed), false, 'nothing to note: there was no extension to ask');
    assert.deepEqual(seen, [], 'the running server was not asked');
  });

  test('extension unreachable (socket gone): the script allows, and the miss is logged once the extension can', async () => {
    const env = server!.environment;
    const r = await runScript({ ...env, [ENV.socket]: path.join(server!.folder, 'gone.sock') }, hookInput);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    server!.reportMissed();
    assert.ok(log.lines.some((l) => /was let through unchecked: could not reach the extension \(ENOENT\)/.test(l)), log.lines.join('\n'));
  });

  test('extension hung (never answers): the script asks, then allows when its bound runs out, and notes why', async () => {
    // what the hung end saw: the request, whole; it never answers and never closes the connection
    const received: string[] = [];
    const sockets: net.Socket[] = [];
    const hung = net.createServer({ allowHalfOpen: true }, (socket) => {
      sockets.push(socket);
      let request = '';
      socket.on('data', (d) => (request += d));
      socket.on('end', () => received.push(request));
    });
    const address = path.join(server!.folder, 'hung.sock');
    await new Promise<void>((resolve) => hung.listen(address, resolve));
    try {
      const r = await runScript({ ...server!.environment, [ENV.socket]: address, [ENV.boundMs]: '1500' }, hookInput);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
      assert.deepEqual(received, [`${HEADER} ${server!.secret}\n${hookInput}`], 'the script asked the hung end, once, with the whole input, before it gave up');
      // the note names the bound that let the call through (its timer's message): not an error, not an early give-up
      server!.reportMissed();
      assert.ok(log.lines.some((l) => /PreToolUse of replace_string_in_file .* was let through unchecked: no answer from the extension within 1500 ms/.test(l)), log.lines.join('\n'));
      assert.deepEqual(seen, [], 'the real server was not asked');
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });

  test('a handler error lets the call through and is logged (rule 7)', async () => {
    server!.dispose();
    server = await BridgeServer.start(async () => {
      throw new Error('boom');
    }, log);
    const r = await runScript(server.environment, hookInput);
    assert.equal(r.stdout, '');
    assert.ok(log.lines.some((l) => /let through after an internal error: Error: boom/.test(l)));
  });
});

suite('hooks file', () => {
  test('each event runs the script with the editor\'s runtime as Node, on POSIX and in PowerShell', () => {
    const file = JSON.parse(hooksFileContent("/opt/Code it's/code", '/ext/dist/hook-bridge.js'));
    assert.deepEqual(Object.keys(file.hooks), ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact']);
    const pre = file.hooks.PreToolUse[0];
    assert.equal(pre.type, 'command');
    assert.equal(pre.command, `'/opt/Code it'\\''s/code' '/ext/dist/hook-bridge.js' PreToolUse`);
    assert.equal(pre.windows, `& '/opt/Code it''s/code' '/ext/dist/hook-bridge.js' PreToolUse`);
    assert.deepEqual(pre.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.ok(pre.timeout > 4, 'Copilot waits longer than the script\'s own bound');
    assert.equal(shQuote("a'b"), `'a'\\''b'`);
    assert.equal(psQuote("a'b"), `'a''b'`);
  });

  test('the POSIX command really runs under /bin/sh with a path that needs quoting', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aeg quote's "));
    const script = path.join(dir, 'hook-bridge.js');
    fs.copyFileSync(SCRIPT, script);
    const { command } = JSON.parse(hooksFileContent(process.execPath, script)).hooks.PreToolUse[0];
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
    child.stdin.end(hookInput);
    const code = await new Promise((resolve) => child.on('close', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0);
  });

  test('only our own file is recognised as ours (so a user\'s hooks file is never replaced or removed)', () => {
    assert.equal(isOurHooksFile(hooksFileContent('/n', '/e/dist/hook-bridge.js'), 'hook-bridge.js'), true);
    assert.equal(isOurHooksFile('{"hooks":{"PreToolUse":[{"type":"command","command":"./lint.sh"}]}}', 'hook-bridge.js'), false);
    assert.equal(isOurHooksFile('not json', 'hook-bridge.js'), false);
    assert.equal(isOurHooksFile('{"hooks":{}}', 'hook-bridge.js'), false);
  });
});
