// The hooks bridge in plain Node: the real hook commands (from hooksFileContent, run by /bin/sh as
// Copilot runs them) with each client — bash (dist/hook-client.sh) and Node (dist/hook-bridge.js) —
// against the real server. Security (only the secret is answered), fail-open within the bound, the
// miss noted for the extension's log, the events the bash client drops without asking, the hooks
// file's text, and removing our file (also as the uninstall script does).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { GATED_TOOL_NAMES } from '../../src/agents/copilot/node/events';
import { hooksFileContent, isOurHooksFile } from '../../src/agents/copilot/node/hooksFile';
import { removeOurHooksFile, userHooksFile, writeOurHooksFile } from '../../src/agents/copilot/node/hooksFileOnDisk';
import { CLIENT_SCRIPT_NAME } from '../../src/hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME, psQuote, shQuote } from '../../src/hooks/command';
import { ENV, HEADER, requestHeader, STATUS } from '../../src/hooks/protocol';
import type { HookOrigin } from '../../src/hooks/event';
import { BridgeServer } from '../../src/hooks/server';
import { hungListener, unusedLoopbackAddress } from '../shared/loopback';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');
const EMPTY_HOME = tempFolder('aeg-home-');
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stale"}}';
const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim() || undefined;

const clientsWith = (bash: string | undefined, dist = DIST): HookClients => ({
  runtime: process.execPath,
  nodeClient: path.join(dist, NODE_CLIENT_NAME),
  bash,
  bashClient: path.join(dist, CLIENT_SCRIPT_NAME),
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the hooks file's command for `event` as Copilot does: sh -c, the hook's env over ours, the payload on stdin. */
function runHook(clients: HookClients, env: Record<string, string | undefined>, payload: string, event = 'PreToolUse'): Promise<Run> {
  const entry = JSON.parse(hooksFileContent(clients)).hooks[event][0];
  const clean = { ...process.env };
  for (const key of Object.values(ENV)) delete clean[key];
  // a home of its own: no window's entry there (src/hooks/discovery.ts), unless a test puts one
  const child = spawn('/bin/sh', ['-c', entry.command], {
    env: { ...clean, HOME: EMPTY_HOME, ...env, ...entry.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // Copilot writes the payload with no error handler: a command that closes its stdin unread would break it
  let stdinError: Error | undefined;
  child.stdin.on('error', (e) => (stdinError = e));
  child.stdin.end(payload);
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      stdinError ? reject(new Error(`the command did not read its input: ${stdinError.message}`)) : resolve({ code, stdout, stderr }),
    ),
  );
}

/**
 * The name of the process that runs the hooks here (this one): what a client reads of its parent — the bash client
 * from /proc or, without it, with ps for Copilot's entries; the Node client only from /proc.
 */
function ranBy(client: 'bash client' | 'Node client'): string | undefined {
  try {
    return path.basename(fs.readFileSync(`/proc/${process.pid}/cmdline`, 'utf8').split('\0')[0]);
  } catch {
    if (client === 'Node client') return undefined;
    return path.basename(spawnSync('ps', ['-o', 'comm=', '-p', String(process.pid)], { encoding: 'utf8' }).stdout.trim()) || undefined;
  }
}

const payloadOf = (event: string, tool: string, input: object = { filePath: '/ws/a' }) =>
  JSON.stringify({ timestamp: '2026-12-01T00:00:00.000Z', hook_event_name: event, session_id: 's', tool_name: tool, tool_input: input });
const hookInput = payloadOf('PreToolUse', 'replace_string_in_file');

const CLIENTS = [
  { name: 'bash client', clients: clientsWith(BASH), available: BASH !== undefined },
  { name: 'Node client', clients: clientsWith(undefined), available: true },
];

for (const { name, clients, available } of CLIENTS) {
  suite(`hooks bridge: hook command ↔ extension (${name})`, function () {
    this.timeout(20000);
    let server: BridgeServer | undefined;
    let seen: string[];
    let origins: HookOrigin[];
    let log: MemoryLog;
    suiteSetup(function () {
      if (process.platform === 'win32' || !available) this.skip();
    });
    setup(async () => {
      seen = [];
      origins = [];
      log = new MemoryLog();
      server = await BridgeServer.start(async (_agent, payload, origin) => {
        seen.push(payload);
        origins.push(origin);
        return DENY;
      }, log);
    });
    teardown(() => server?.dispose());

    test("the command forwards the hook input unchanged and prints the extension's answer", async () => {
      const r = await runHook(clients, server!.environment, hookInput);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, DENY, '']);
      assert.deepEqual(seen, [hookInput]);
    });

    test('the extension learns which program ran the hook: its parent process, as the OS names it (the Copilot CLI from the harness)', async () => {
      await runHook(clients, server!.environment, hookInput);
      const parent = ranBy(name as 'bash client' | 'Node client');
      assert.deepEqual(origins, [parent !== undefined ? { parent } : {}]);
    });

    test('a large payload with multi-byte text arrives byte for byte', async () => {
      const big = payloadOf('PreToolUse', 'create_file', { filePath: '/ws/big', content: 'é€😀 line\n'.repeat(200_000) });
      const r = await runHook(clients, server!.environment, big);
      assert.equal(r.stdout, DENY);
      assert.equal(seen.length, 1);
      assert.ok(seen[0] === big, `the payload arrived changed (${seen[0]?.length} chars for ${big.length})`);
    });

    test('a forged request without the secret is refused and never reaches the gate', async () => {
      const forged = async (header: string) => {
        const socket = net.createConnection({ host: '127.0.0.1', port: Number(server!.address.split(':')[1]) });
        let reply = '';
        socket.on('data', (d) => (reply += d));
        socket.end(`${header}\n${hookInput}`);
        await new Promise((resolve) => socket.on('close', resolve));
        return reply;
      };
      const bytes = Buffer.byteLength(hookInput);
      for (const header of [
        `${HEADER} wrong copilot ${bytes}`,
        `${HEADER} ${server!.secret.slice(0, -1)}x copilot ${bytes}`,
        HEADER,
        '',
        `${HEADER}x ${server!.secret} copilot ${bytes}`,
        `agent-edit-guard/2 ${server!.secret} ${bytes}`,
      ]) {
        assert.equal(await forged(header), `${STATUS.unauthorized}\n`, header);
      }
      assert.deepEqual(seen, []);
      assert.ok(log.lines.some((l) => /refused a request without this window's secret/.test(l)));
      // the right secret with a length that does not match what came: not answered as a hook
      assert.equal(await forged(requestHeader(server!.secret, 'copilot', bytes + 5).trimEnd()), `${STATUS.malformed}\n`);
      assert.deepEqual(seen, []);
      // the command with a wrong secret: allowed (nothing printed), and it says so where the extension logs it
      const r = await runHook(clients, { ...server!.environment, [ENV.secret]: 'not-the-secret' }, hookInput);
      assert.deepEqual([r.code, r.stdout], [0, '']);
      server!.reportMissed();
      assert.ok(
        log.lines.some((l) =>
          /PreToolUse of replace_string_in_file .* was let through unchecked: the extension refused the request \(unauthorized\)/.test(l),
        ),
        log.lines.join('\n'),
      );
    });

    test('no extension in this window: the command allows at once, without waiting for its bound or noting a miss', async () => {
      // a bound far beyond this suite's timeout: a command that waited for it would fail the test
      const missed = path.join(server!.folder, 'no-extension-missed.jsonl');
      // larger than a pipe's buffer: a command that exited without reading it would close the pipe on the writer
      const big = payloadOf('PreToolUse', 'create_file', { filePath: '/ws/big', content: 'x'.repeat(1 << 20) });
      const r = await runHook(clients, { [ENV.boundMs]: String(60 * 60 * 1000), [ENV.missed]: missed }, big);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.equal(fs.existsSync(missed), false, 'nothing to note: there was no extension to ask');
      assert.deepEqual(seen, [], 'the running server was not asked');
    });

    test('the extension uninstalled (its client gone): the command allows at once, and says nothing', async () => {
      const gone = clientsWith(clients.bash, path.join(os.tmpdir(), 'aeg-uninstalled', 'dist'));
      const r = await runHook(gone, server!.environment, hookInput);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.deepEqual(seen, []);
    });

    test('extension unreachable (nothing listens): the command allows, and the miss is logged once the extension can', async () => {
      const r = await runHook(clients, { ...server!.environment, [ENV.socket]: await unusedLoopbackAddress() }, hookInput);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      server!.reportMissed();
      assert.ok(
        log.lines.some((l) => /PreToolUse of replace_string_in_file .* was let through unchecked: could not reach the extension/.test(l)),
        log.lines.join('\n'),
      );
    });

    test('extension hung (never answers): the command asks, then allows when its bound runs out, and notes why', async () => {
      // what the hung end saw: the request, whole; it never answers and never closes the connection
      let received = '';
      const hung = await hungListener((d) => (received += d));
      try {
        const address = hung.address;
        const r = await runHook(clients, { ...server!.environment, [ENV.socket]: address, [ENV.boundMs]: '1500' }, hookInput);
        assert.deepEqual([r.code, r.stdout], [0, '']);
        assert.equal(
          received,
          `${requestHeader(server!.secret, 'copilot', Buffer.byteLength(hookInput), ranBy(name as 'bash client' | 'Node client'))}${hookInput}`,
          'the command asked the hung end, once, with the whole input and the process that ran it, before it gave up',
        );
        // the note names the bound that let the call through: not an error, not an early give-up
        server!.reportMissed();
        assert.ok(
          log.lines.some((l) =>
            /PreToolUse of replace_string_in_file .* was let through unchecked: no answer from the extension within 1500 ms/.test(l),
          ),
          log.lines.join('\n'),
        );
        assert.deepEqual(seen, [], 'the real server was not asked');
      } finally {
        hung.close();
      }
    });

    test('a handler error lets the call through and is logged (rule 7)', async () => {
      server!.dispose();
      server = await BridgeServer.start(async () => {
        throw new Error('boom');
      }, log);
      const r = await runHook(clients, server.environment, hookInput);
      assert.equal(r.stdout, '');
      assert.ok(log.lines.some((l) => /let through after an internal error: Error: boom/.test(l)));
    });
  });
}

suite('hooks bridge: two windows, one hooks file', function () {
  this.timeout(20000);
  test("each window's hook commands reach that window's extension only: the file is shared, the address and secret are not", async function () {
    if (process.platform === 'win32' || !BASH) this.skip();
    const seen: Record<string, string[]> = { a: [], b: [] };
    const start = (w: 'a' | 'b') => BridgeServer.start(async (_agent, p) => (seen[w].push(p), `answer of ${w}`), new MemoryLog());
    const [a, b] = [await start('a'), await start('b')];
    try {
      const clients = clientsWith(BASH);
      const fromA = await runHook(clients, a.environment, hookInput);
      const fromB = await runHook(clients, b.environment, hookInput);
      assert.deepEqual([fromA.stdout, fromB.stdout], ['answer of a', 'answer of b']);
      assert.deepEqual([seen.a.length, seen.b.length], [1, 1]);
      // a window's secret opens no other window's bridge
      const crossed = await runHook(clients, { ...a.environment, [ENV.secret]: b.secret }, hookInput);
      assert.equal(crossed.stdout, '');
      assert.deepEqual([seen.a.length, seen.b.length], [1, 1]);
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});

suite('hooks bridge: events the bash client answers itself', function () {
  this.timeout(20000);
  let server: BridgeServer | undefined;
  let seen: string[];
  const clients = clientsWith(BASH);
  suiteSetup(function () {
    if (process.platform === 'win32' || !BASH) this.skip();
  });
  setup(async () => {
    seen = [];
    server = await BridgeServer.start(async (_agent, payload) => {
      seen.push(payload);
      return '';
    }, new MemoryLog());
  });
  teardown(() => server?.dispose());

  test("an event of a tool that touches no file is dropped while its chat has nothing to settle; the file tools' and the terminal's events are sent", async () => {
    const listing = [payloadOf('PreToolUse', 'list_dir', { path: '/ws' }), payloadOf('PostToolUse', 'list_dir', { path: '/ws' })];
    await runHook(clients, server!.environment, listing[0]);
    await runHook(clients, server!.environment, listing[1], 'PostToolUse');
    assert.deepEqual(seen, [], 'list_dir, nothing pending: nothing for the gate');
    const sent = [
      payloadOf('PreToolUse', 'read_file'),
      payloadOf('PostToolUse', 'read_file'),
      payloadOf('PreToolUse', 'replace_string_in_file'),
      payloadOf('PostToolUse', 'copilot_applyPatch'),
      // the terminal's commands may write files (rule 16)
      payloadOf('PreToolUse', 'run_in_terminal', { command: 'ls' }),
      payloadOf('PostToolUse', 'run_in_terminal', { command: 'ls' }),
      payloadOf('PreToolUse', 'copilot_runInTerminal', { command: 'ls' }),
    ];
    for (const p of sent) await runHook(clients, server!.environment, p, JSON.parse(p).hook_event_name);
    assert.deepEqual(seen, sent);
  });

  test("while the chat has a call to settle (the gate's marker), its next event of any tool is sent: it settles the earlier edit before the tool runs", async () => {
    server!.notePending('s', true);
    const before = payloadOf('PreToolUse', 'list_dir', { path: '/ws' });
    await runHook(clients, server!.environment, before);
    assert.deepEqual(seen, [before]);
    // another chat has nothing to settle
    const other = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'other-chat', tool_name: 'list_dir', tool_input: {} });
    await runHook(clients, server!.environment, other);
    assert.deepEqual(seen, [before]);
    server!.notePending('s', false);
    await runHook(clients, server!.environment, before);
    assert.deepEqual(seen, [before], 'settled: dropped again');
    // a chat id the marker cannot name is always sent
    const odd = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'a/b c', tool_name: 'list_dir', tool_input: {} });
    await runHook(clients, server!.environment, odd);
    assert.deepEqual(seen, [before, odd]);
  });

  test('a tool name that appears only inside the input does not count; a payload whose tool cannot be read is sent', async () => {
    const disguised = payloadOf('PostToolUse', 'grep_search', { query: '"tool_name":"read_file"' });
    server!.notePending('s', false);
    assert.ok(disguised.includes('\\"tool_name\\":\\"read_file\\"'), 'JSON escapes the quotes of a string value');
    await runHook(clients, server!.environment, disguised, 'PostToolUse');
    assert.deepEqual(seen, []);
    const spaced = JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'read_file' }, null, 1);
    await runHook(clients, server!.environment, spaced, 'PostToolUse');
    assert.deepEqual(seen, [spaced], 'not the compact form: sent, never dropped');
  });

  test('UserPromptSubmit and PreCompact are always sent', async () => {
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'hi' });
    const compact = JSON.stringify({ hook_event_name: 'PreCompact', session_id: 's', trigger: 'auto' });
    await runHook(clients, server!.environment, prompt, 'UserPromptSubmit');
    await runHook(clients, server!.environment, compact, 'PreCompact');
    assert.deepEqual(seen, [prompt, compact]);
  });
});

suite('hooks file', () => {
  const odd: HookClients = {
    runtime: "/opt/Code it's/code",
    nodeClient: '/ext/dist/hook-bridge.js',
    bash: '/bin/bash',
    bashClient: '/ext/dist/hook-client.sh',
  };

  test("each event runs a client only when a window may be listening (an address, or a window's entry); bash when there is bash, Node in PowerShell", () => {
    const whenListening = (client: string) =>
      `[ -f '${client}' ] && { [ -n "$${ENV.socket}" ] || { set -- "$HOME/.cache/agent-edit-guard/windows/"*.window; [ -e "$1" ]; }; } || exec cat >/dev/null;`;
    const file = JSON.parse(hooksFileContent(odd));
    assert.deepEqual(Object.keys(file.hooks), ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'PostToolUseFailure']);
    // a call the Copilot runtime's own tool failed: filtered like the other tool events
    assert.match(
      file.hooks.PostToolUseFailure[0].command,
      /'PostToolUseFailure' 'read_file' 'run_in_terminal' 'replace_string_in_file' .*'copilot_readFile' 'copilot_runInTerminal'/,
    );
    const pre = file.hooks.PreToolUse[0];
    assert.equal(pre.type, 'command');
    assert.equal(
      pre.command,
      `${whenListening('/ext/dist/hook-client.sh')} exec '/bin/bash' '/ext/dist/hook-client.sh' 'copilot' 'PreToolUse' ${GATED_TOOL_NAMES.map(shQuote).join(' ')}`,
    );
    assert.match(
      file.hooks.PostToolUse[0].command,
      /'PostToolUse' 'read_file' 'run_in_terminal' 'replace_string_in_file' .*'copilot_readFile' 'copilot_runInTerminal'/,
    );
    for (const event of ['UserPromptSubmit', 'PreCompact'])
      assert.match(file.hooks[event][0].command, new RegExp(`'${event}'$`), 'always sent');
    assert.equal(
      pre.windows,
      `if (-not $env:${ENV.socket} -and -not (Test-Path "$HOME\\.cache\\agent-edit-guard\\windows\\*.window")) { $null = [Console]::In.ReadToEnd(); exit 0 }; & '/opt/Code it''s/code' '/ext/dist/hook-bridge.js' copilot PreToolUse`,
    );
    assert.deepEqual(pre.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.ok(pre.timeout > 4, "Copilot waits longer than the client's own bound");
    const withoutBash = JSON.parse(hooksFileContent({ ...odd, bash: undefined })).hooks.PreToolUse[0];
    assert.equal(
      withoutBash.command,
      `${whenListening('/ext/dist/hook-bridge.js')} exec '/opt/Code it'\\''s/code' '/ext/dist/hook-bridge.js' 'copilot' 'PreToolUse'`,
    );
    assert.equal(shQuote("a'b"), `'a'\\''b'`);
    assert.equal(psQuote("a'b"), `'a''b'`);
  });

  test('the hooks file holds no secret and no address', async () => {
    const server = await BridgeServer.start(async () => '', new MemoryLog());
    try {
      const text = hooksFileContent(clientsWith(BASH));
      assert.ok(!text.includes(server.secret) && !text.includes(server.address));
      assert.equal(
        fs.statSync(server.folder).mode & 0o777,
        process.platform === 'win32' ? fs.statSync(server.folder).mode & 0o777 : 0o700,
        "the missed-calls folder is the user's alone",
      );
    } finally {
      server.dispose();
    }
  });

  test('the commands really run under /bin/sh with paths that need quoting', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aeg quote's "));
    for (const f of [NODE_CLIENT_NAME, CLIENT_SCRIPT_NAME]) fs.copyFileSync(path.join(DIST, f), path.join(dir, f));
    const server = await BridgeServer.start(async () => DENY, new MemoryLog());
    try {
      for (const bash of BASH ? [BASH, undefined] : [undefined]) {
        const r = await runHook(clientsWith(bash, dir), server.environment, hookInput);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, DENY, ''], bash ?? 'node');
      }
    } finally {
      server.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("only our own file is recognised as ours (so a user's hooks file is never replaced or removed)", () => {
    assert.equal(isOurHooksFile(hooksFileContent(odd)), true);
    assert.equal(isOurHooksFile(hooksFileContent({ ...odd, bash: undefined })), true);
    assert.equal(isOurHooksFile('{"hooks":{"PreToolUse":[{"type":"command","command":"./lint.sh"}]}}'), false);
    assert.equal(isOurHooksFile('not json'), false);
    assert.equal(isOurHooksFile('{"hooks":{}}'), false);
  });

  test('removing: ours goes, with the folders it left empty; a folder with other files and a file not ours stay', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-home-'));
    try {
      const file = userHooksFile(home);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, hooksFileContent(odd));
      assert.equal(removeOurHooksFile(file).removed, true);
      assert.deepEqual(fs.readdirSync(home), [], '~/.copilot/hooks and ~/.copilot were ours alone: gone');
      fs.mkdirSync(path.join(path.dirname(file)), { recursive: true });
      fs.mkdirSync(path.join(home, '.copilot', 'ide'));
      fs.writeFileSync(file, hooksFileContent(odd));
      assert.equal(removeOurHooksFile(file).removed, true);
      assert.deepEqual(fs.readdirSync(path.join(home, '.copilot')), ['ide'], "Copilot's own folder stays");
      const theirs = '{"hooks":{"PreToolUse":[{"type":"command","command":"./lint.sh"}]}}';
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, theirs);
      assert.equal(removeOurHooksFile(file).removed, false);
      assert.equal(fs.readFileSync(file, 'utf8'), theirs);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('a hooks file that cannot be read is left as it was: never written over, never removed, and said so', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-home-'));
    try {
      const file = userHooksFile(home);
      // a folder where the file should be: reading it fails with EISDIR, not ENOENT
      fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
      const log = new MemoryLog();
      const left = await writeOurHooksFile(file, hooksFileContent(odd), log, 0);
      assert.equal(left?.file, file);
      assert.match(left?.reason ?? '', /cannot be read/);
      assert.ok(fs.statSync(file).isDirectory() && fs.existsSync(path.join(file, 'inside')), 'nothing written over it');
      assert.equal(removeOurHooksFile(file, log).removed, false);
      assert.ok(fs.existsSync(path.join(file, 'inside')), 'nor removed');
      assert.ok(
        log.lines.some((l) => l.startsWith('warn') && l.includes(file)),
        log.lines.join('\n'),
      );
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('the uninstall script (dist/uninstall.js, as VS Code runs it) removes our user-level file only', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-home-'));
    const run = () =>
      spawnSync(process.execPath, [path.join(DIST, 'uninstall.js'), '--type=extension-post-uninstall'], {
        env: { ...process.env, HOME: home, USERPROFILE: home },
        encoding: 'utf8',
      });
    try {
      const file = userHooksFile(home);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, hooksFileContent(clientsWith(BASH)));
      const r = run();
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.existsSync(file), false, r.stdout);
      assert.match(r.stdout, /removed/);
      const theirs = '{"hooks":{}}';
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, theirs);
      assert.equal(run().status, 0);
      assert.equal(fs.readFileSync(file, 'utf8'), theirs);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
