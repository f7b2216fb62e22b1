#!/usr/bin/env node
// Runs an extension's mocha suite inside a real VS Code extension host, offline:
// code-server (VS Code 1.139.1 on Node 24, installed by install.sh) + headless Debian chromium
// driven by playwright-core. Configured by environment (see run-integration.sh):
//   EXT_DIR          extension under development (the only extensionDevelopmentPath that loads)
//   EXT_TESTS        module exporting run(), loaded by the extension host
//   WORKSPACE        folder to open (a fresh copy per run)
//   RUN_DIR          fresh per-run folder: HOME, TMPDIR, XDG_*, config, user data, extensions, logs
//   PREINSTALL_EXTS  ':'-separated test-only extensions copied into the fresh --extensions-dir
//   SETTINGS_FILE    user settings.json to seed (optional)
//   SHOTS_DIR        where DRIVER screenshots go (default $RUN_DIR/shots)
//   PORT             code-server port (default: a free one)
//   EDITGUARD_IDLE_LIMIT_MS  how long the run may go without a sign of progress (a test ending, a line
//                    from the extension host) before the driver calls the host stuck (default 10 min: see IDLE_LIMIT_MS)
//   SERVERS_ENTRY    a Node module forked before code-server starts (argv: the run folder) and stopped after it;
//                    once it listens it sends { env }: variables for code-server's environment only (the
//                    harness suite's proxy and scripted model, test/harness/node/servers.ts)
//   EDITGUARD_HOST_DIR, NODE24, CS_ENTRY, CHROMIUM   where the host is; VERBOSE=1 for every log line
// The tests ask for UI actions by logging `DRIVER:{json}` (see test/integration/ui.ts); the answer is
// written to $EDITGUARD_ACK_DIR/<id>.json. Exit code: the extension host's test exit code, 2 for an
// infrastructure error or a stuck host; then $RUN_DIR/host-end.json says why in one line, for the summary.
// start.js reuses the exported helpers to start code-server for a person.
'use strict';
const { spawn } = require('child_process');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const fs = require('fs');
const util = require('util');
const { hostPaths } = require('./paths');

const env = process.env;
const log = (...a) => console.log('[driver]', ...a);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * How long code-server may take to answer and the workbench page to load: ~1 s and ~3 s on a quiet
 * machine; Playwright's own 30 s was reached once with both cores busy (load average 17). A bound far
 * above both, so only a host that never comes up reaches it.
 */
const PAGE_LOAD_LIMIT_MS = 5 * 60 * 1000;

function waitHttp(url, ms) {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const once = () =>
      http
        .get(url, (r) => {
          r.resume();
          resolve(r.statusCode);
        })
        .on('error', () => (Date.now() > end ? reject(new Error('code-server not up: ' + url)) : setTimeout(once, 250)));
    once();
  });
}

/** Makes the run folder: user settings, test-only extensions (VS Code registers them on first start). */
function prepareRunDir(runDir, { preinstall = [], settingsFile } = {}) {
  for (const d of ['tmp', 'acks', 'extensions', path.join('user-data', 'User')]) fs.mkdirSync(path.join(runDir, d), { recursive: true });
  for (const e of preinstall) {
    const pj = JSON.parse(fs.readFileSync(path.join(e, 'package.json'), 'utf8'));
    fs.cpSync(e, path.join(runDir, 'extensions', `${pj.publisher}.${pj.name}-${pj.version}`), { recursive: true });
  }
  if (settingsFile) fs.copyFileSync(settingsFile, path.join(runDir, 'user-data', 'User', 'settings.json'));
}

/** Environment that keeps every file the host and browser write (config, logs, sockets, crash dumps) in the run folder. */
function isolatedEnv(runDir, extra = {}) {
  return {
    ...env,
    HOME: runDir,
    TMPDIR: path.join(runDir, 'tmp'),
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg-cache'),
    XDG_RUNTIME_DIR: path.join(runDir, 'tmp'),
    ...extra,
  };
}

/**
 * Starts code-server in its own process group (so stopServer can end it and every child: extension host,
 * pty host, file watcher). Resolves once /healthz answers; rejects if it dies or never comes up.
 */
async function startCodeServer({ runDir, port, isoEnv, extraArgs = [], echo = !!env.VERBOSE }) {
  const { node24, csEntry } = hostPaths();
  for (const f of [node24, csEntry]) if (!fs.existsSync(f)) throw new Error(`${f} missing: run scripts/host/install.sh`);
  const server = spawn(
    node24,
    [
      csEntry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--config',
      path.join(runDir, 'config.yaml'),
      '--user-data-dir',
      path.join(runDir, 'user-data'),
      '--extensions-dir',
      path.join(runDir, 'extensions'),
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      // the built workbench honours extensionDevelopmentPath/extensionTestsPath in the URL's `payload` only with this
      '--vscode-option',
      'enable-smoke-test-driver',
      ...extraArgs,
    ],
    { env: isoEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  fs.writeFileSync(path.join(runDir, 'code-server.pid'), String(server.pid));
  const serverLog = fs.createWriteStream(path.join(runDir, 'code-server.log'));
  let failed;
  server.failed = new Promise((resolve) => {
    failed = resolve;
  });
  for (const s of [server.stdout, server.stderr])
    s.on('data', (d) => {
      serverLog.write(d);
      if (echo) process.stdout.write('[code-server] ' + d);
      // e.g. the wrong Node major: "error CodeServerRouteWrapper: ... does not provide an export named ..."
      if (/\berror\s+CodeServerRouteWrapper/.test(String(d))) failed('code-server: ' + String(d).trim().split('\n')[0]);
    });
  server.on('exit', (c, sig) => failed(`code-server exited (${c ?? sig}); see ${path.join(runDir, 'code-server.log')}`));
  await Promise.race([
    waitHttp(`http://127.0.0.1:${port}/healthz`, PAGE_LOAD_LIMIT_MS),
    server.failed.then((why) => {
      throw new Error(why);
    }),
  ]);
  return server;
}

/** Forks SERVERS_ENTRY and resolves with its { env } message; its output goes to <run>/servers.log. */
function startServers(entry, runDir) {
  const logFile = path.join(runDir, 'servers.log');
  const out = fs.openSync(logFile, 'a');
  const child = require('child_process').fork(entry, [runDir], { stdio: ['ignore', out, out, 'ipc'] });
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // not left behind: the run ends here
      reject(new Error(`${entry} did not say it was ready within 30 s; see ${logFile}`));
    }, 30000);
    child.once('message', (m) => {
      clearTimeout(timer);
      child.on('exit', (c, sig) => log(`the servers exited (${c ?? sig}) during the run; see ${logFile}`));
      resolve({ child, env: (m && m.env) || {} });
    });
    child.once('exit', (c, sig) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${c ?? sig}) before it was ready; see ${logFile}`));
    });
  });
}

async function stopServers(servers) {
  const child = servers && servers.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function stopServer(server) {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {}
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {} // stragglers of the group
}

/** The workbench URL; payload = [[key, value], ...] (the workbench reads it into a Map: one value per key). */
function workbenchUrl(port, folder, payload) {
  const q = `folder=${encodeURIComponent(folder)}` + (payload ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : '');
  return `http://127.0.0.1:${port}/?${q}`;
}
const remoteUri = (port, p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;

function launchBrowser(isoEnv) {
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: env.CHROMIUM || '/usr/bin/chromium',
    env: isoEnv,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--disable-default-apps',
    ],
  });
}

// ---- UI actions the tests ask for ----
// A second window on the same workspace (its own extension host, the same workspace storage), for a
// test that needs a window that starts after its own: openWindow, reloadWindow, closeWindow; any
// other action with `window: 'second'` acts on it. `logs` answers a window's newest console lines (its
// workbench and, in a development window, its extension host), for a test that timed out to show.
const windows = { second: undefined };
const LOG_LINES_KEPT = 200;
const consoleLines = new WeakMap();
/** Keeps the page's newest console lines (timestamped), for the `logs` action. */
function keepConsole(page) {
  const lines = [];
  consoleLines.set(page, lines);
  page.on('console', (m) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} [${m.type()}] ${m.text().slice(0, 500)}`);
    if (lines.length > LOG_LINES_KEPT) lines.shift();
  });
}
async function actOnWindows(browser, url, page, a, shotsDir) {
  switch (a.action) {
    case 'openWindow':
      if (!windows.second) {
        windows.second = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        keepConsole(windows.second);
      }
      await windows.second.goto(url, { timeout: PAGE_LOAD_LIMIT_MS });
      return { ok: true };
    case 'reloadWindow':
      if (!windows.second) throw new Error('no second window');
      await windows.second.reload();
      return { ok: true };
    case 'closeWindow':
      if (windows.second) await windows.second.close();
      windows.second = undefined;
      return { ok: true };
  }
  if (a.window === 'second' && !windows.second) throw new Error('no second window');
  return act(a.window === 'second' ? windows.second : page, a, shotsDir);
}

const safeName = (s) => String(s || 'shot').replace(/[^\w.-]+/g, '_');
async function act(page, a, shotsDir) {
  const base = a.within ? page.locator(a.within).first() : page;
  const target = () => (a.role ? base.getByRole(a.role, { name: a.name, exact: !!a.exact }) : base.locator(a.selector));
  const loc = () => (a.nth === -1 ? target().last() : target().nth(a.nth || 0));
  const timeout = a.timeout || 10000;
  switch (a.action) {
    case 'screenshot': {
      fs.mkdirSync(shotsDir, { recursive: true });
      const file = path.join(shotsDir, safeName(a.name) + '.png');
      if (a.selector) await loc().screenshot({ path: file, timeout });
      else await page.screenshot({ path: file, fullPage: false });
      return { ok: true, path: file };
    }
    // `dispatch`: the click event sent to the element itself, for a control a hover may lie over (a notification's
    // button under the status bar's hover, which stays while the mouse rests where a closed view left it)
    case 'click':
      if (a.dispatch) await loc().dispatchEvent('click', undefined, { timeout });
      else await loc().click({ timeout });
      return { ok: true };
    case 'hover':
      await loc().hover({ timeout });
      return { ok: true };
    case 'text':
      return { text: await loc().innerText({ timeout }) };
    case 'count':
      return { count: await target().count() };
    case 'press':
      await page.keyboard.press(a.key);
      return { ok: true };
    case 'type':
      if (a.selector || a.role) await loc().click({ timeout });
      await page.keyboard.type(a.text, { delay: a.delay || 0 });
      return { ok: true };
    // the text in one input event, as a paste: no auto-closed brackets or quotes
    case 'insert':
      if (a.selector || a.role) await loc().click({ timeout });
      await page.keyboard.insertText(a.text);
      return { ok: true };
    case 'eval':
      return { value: await page.evaluate(a.js) };
    case 'buttons':
      return {
        buttons: await base.locator(a.selector || 'a.monaco-button, .monaco-button, button').evaluateAll((els) =>
          els
            .filter((e) => e.offsetParent)
            .map((e) => (e.getAttribute('aria-label') || e.innerText || '').trim())
            .filter(Boolean),
        ),
      };
    case 'html':
      return { html: await loc().evaluate((e) => e.outerHTML, undefined, { timeout }) };
    case 'logs':
      return { lines: (consoleLines.get(page) ?? []).slice(-(a.lines || 40)) };
    case 'viewport':
      await page.setViewportSize({ width: a.width || 1400, height: a.height || 900 });
      return { ok: true };
    default:
      throw new Error('unknown action ' + a.action);
  }
}

// workbench log lines that are not about the tests (the extension host's console comes through the same channel)
const NOISE =
  /^(\[(AgentHost|ChatModelSelection|AccountPolicyGate|reconnection-grace-time|Service Worker)|Resolving connection|Resolved connection|Creating a socket|Updating additional builtin|getaddrinfo ENOTFOUND|\[Extension Host\] (Debugger|For help, see)|Started local extension host|Timed out waiting for authentication provider|%c)/;

/**
 * The driver bounds a run by its progress, never by its total time (a suite grows with every issue, and
 * a busy machine runs it slower): while tests keep ending or the extension host keeps talking, the run
 * goes on; each test is bounded by its own mocha timeout, each wait inside it by its own limit. Ten
 * minutes of silence is far above any single bound in the suites (the longest, a Copilot suite's setup,
 * is 4 minutes), so only a host that is truly stuck reaches it.
 */
const IDLE_LIMIT_MS = 10 * 60 * 1000;

/** Why a run ended without its tests' own exit code: one line, written for the summary (`summarize`). */
const hostEndFile = (runDir) => path.join(runDir, 'host-end.json');
function noteHostEnd(runDir, why) {
  try {
    fs.writeFileSync(hostEndFile(runDir), JSON.stringify({ why }));
  } catch {}
}

async function main() {
  const runDir = path.resolve(env.RUN_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-run-')));
  const shotsDir = path.resolve(env.SHOTS_DIR || path.join(runDir, 'shots'));
  const idleLimitMs = Number(env.EDITGUARD_IDLE_LIMIT_MS || IDLE_LIMIT_MS);
  let lastSign = Date.now();
  const port = Number(env.PORT) || (await freePort());
  const ackDir = path.join(runDir, 'acks');
  let server,
    servers,
    browser,
    code = 2,
    page,
    secondUrl;
  const t0 = Date.now();
  let finishing = false;
  const finish = async (c) => {
    if (finishing) return;
    finishing = true;
    if (c !== 0 && page)
      await page.screenshot({ path: path.join(runDir, 'final.png') }).then(
        () => log('screenshot of the page at the end:', path.join(runDir, 'final.png')),
        () => {},
      );
    if (browser) await browser.close().catch(() => {});
    await stopServer(server);
    await stopServers(servers);
    process.exit(typeof c === 'number' ? c : 2);
  };
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.on(sig, () => {
      log('interrupted');
      finish(130);
    });
  try {
    for (const k of ['EXT_DIR', 'EXT_TESTS', 'WORKSPACE']) if (!env[k]) throw new Error(`set ${k}`);
    prepareRunDir(runDir, {
      preinstall: (env.PREINSTALL_EXTS || '')
        .split(':')
        .filter(Boolean)
        .map((p) => path.resolve(p)),
      settingsFile: env.SETTINGS_FILE,
    });
    const isoEnv = isolatedEnv(runDir, { EDITGUARD_ACK_DIR: ackDir, EDITGUARD_SHOTS_DIR: shotsDir });
    process.env.TMPDIR = isoEnv.TMPDIR; // Playwright puts the browser profile in this process's temp folder
    if (env.SERVERS_ENTRY) {
      servers = await startServers(path.resolve(env.SERVERS_ENTRY), runDir);
      log(`servers up (${env.SERVERS_ENTRY}); for code-server: ${Object.keys(servers.env).join(' ')}`);
    }
    server = await startCodeServer({ runDir, port, isoEnv: servers ? { ...isoEnv, ...servers.env } : isoEnv });
    log(`code-server up on port ${port} after ${Date.now() - t0} ms`);
    browser = await launchBrowser(isoEnv);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let resolveDone;
    const done = new Promise((r) => {
      resolveDone = r;
    });
    await page.exposeFunction('codeAutomationExit', (c) => resolveDone(c));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      lastSign = Date.now();
      const line = util.format(...(args || []));
      const m = /DRIVER:(\{.*\})/.exec(line);
      if (m) {
        let a;
        try {
          a = JSON.parse(m[1]);
        } catch {
          log('bad DRIVER line', line.slice(0, 200));
          return;
        }
        const ts = Date.now();
        actOnWindows(browser, secondUrl, page, a, shotsDir)
          .then(
            (r) => r,
            (e) => ({ error: String((e && e.message) || e).split('\n')[0] }),
          )
          .then((r) => {
            if (env.VERBOSE || r.error) log(`action ${JSON.stringify(a)} -> ${JSON.stringify(r).slice(0, 400)} (${Date.now() - ts} ms)`);
            // write then rename: the test polls for the file and must never read half of it
            const f = path.join(ackDir, safeName(a.id) + '.json');
            fs.writeFileSync(f + '.tmp', JSON.stringify(r));
            fs.renameSync(f + '.tmp', f);
          });
        return;
      }
      if (env.VERBOSE || !NOISE.test(line)) console.log(`[host:${type}]`, line);
    });
    keepConsole(page);
    if (env.VERBOSE) page.on('console', (m) => console.log('[browser]', m.text().slice(0, 2000)));
    page.on('pageerror', (e) => console.log('[pageerror]', e.message));
    page.on('crash', () => {
      log('page crashed');
      noteHostEnd(runDir, 'the workbench page crashed');
      resolveDone(2);
    });
    const url = workbenchUrl(port, path.resolve(env.WORKSPACE), [
      ['extensionDevelopmentPath', remoteUri(port, env.EXT_DIR)],
      ['extensionTestsPath', remoteUri(port, env.EXT_TESTS)],
      ['skipWelcome', 'true'],
    ]);
    // the same workspace with the extension, without the tests
    secondUrl = workbenchUrl(port, path.resolve(env.WORKSPACE), [
      ['extensionDevelopmentPath', remoteUri(port, env.EXT_DIR)],
      ['skipWelcome', 'true'],
    ]);
    if (env.VERBOSE) log('opening', url);
    await page.goto(url, { timeout: PAGE_LOAD_LIMIT_MS });
    let timer;
    code = await Promise.race([
      done,
      server.failed.then((why) => {
        if (!finishing) {
          log(why);
          noteHostEnd(runDir, why);
        }
        return 2;
      }),
      new Promise((r) => {
        // a test record written is a sign of progress too (a quiet test logs nothing)
        const resultFile = env.EDITGUARD_RESULT_FILE;
        timer = setInterval(() => {
          const written = resultFile && fs.existsSync(resultFile) ? fs.statSync(resultFile).mtimeMs : 0;
          lastSign = Math.max(lastSign, written);
          if (Date.now() - lastSign < idleLimitMs) return;
          const why = `the extension host showed no progress for ${Math.round(idleLimitMs / 60000)} min (no test ended, no line logged): stopped as stuck`;
          log(why);
          noteHostEnd(runDir, why);
          r(2);
        }, 5000);
      }),
    ]);
    clearInterval(timer);
    log(`extension host exit code ${code}; ${Date.now() - t0} ms`);
  } catch (e) {
    log('error:', (e && e.stack) || e);
    noteHostEnd(runDir, `the driver failed: ${String((e && e.message) || e).split('\n')[0]}`);
    code = 2;
  }
  await finish(code);
}

/**
 * Prints one line per test from the record the test entry wrote (test/shared/mochaEntry.ts), then
 * "N passed, N failed" — with ", N not run" when tests the suite meant to run never ended. When the run
 * ended without a failing test to show for it (a host that went away, a stuck host, a driver error), one
 * line says why and names the last test that ran. Returns the exit code for the whole run: non-zero if
 * a test failed or never ran, none ran, or the host failed (rc).
 */
function summarize(resultFile, rc) {
  const suite = fs.existsSync(resultFile) ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : { expected: 0, records: [] };
  const rows = suite.records;
  const count = (state) => rows.filter((r) => r.state === state).length;
  console.log('');
  for (const r of rows) {
    if (r.state === 'skipped') continue;
    console.log(`${r.state === 'passed' ? 'PASS' : 'FAIL'} ${r.title}${r.ms !== undefined ? ` (${r.ms} ms)` : ''}`);
    if (r.err)
      console.log(
        r.err
          .split('\n')
          .filter((l) => l.trim())
          .slice(0, 5)
          .map((l) => '    ' + l)
          .join('\n'),
      );
  }
  const [passed, failed, skipped] = [count('passed'), count('failed'), count('skipped')];
  // a failed suiteSetup skips its suite's tests without a record: they never ran either
  const notRun = Math.max(0, suite.expected - passed - failed - skipped);
  if (skipped) console.log(`(${skipped} skipped)`);
  const endFile = path.join(path.dirname(resultFile), 'host-end.json');
  const end = fs.existsSync(endFile) ? JSON.parse(fs.readFileSync(endFile, 'utf8')).why : undefined;
  if (rc !== 0 && (end || failed === 0)) {
    const last = rows.filter((r) => r.state !== 'skipped').at(-1);
    const why = end ?? (rc === 2 ? 'the host stopped (see the [driver] lines above)' : `the test run ended with exit code ${rc}`);
    console.log(`stopped early: ${why}; last test that ran: ${last ? `"${last.title}"` : 'none'}`);
  }
  if (passed + failed === 0) console.log('no test ran');
  console.log(`${passed} passed, ${failed} failed${notRun ? `, ${notRun} not run` : ''}`);
  if (failed > 0) return 1;
  if (rc !== 0) return rc; // keeps 2 for a host error or a stuck host
  return passed === 0 || notRun > 0 ? 1 : 0;
}

module.exports = {
  summarize,
  hostPaths,
  freePort,
  waitHttp,
  prepareRunDir,
  isolatedEnv,
  startCodeServer,
  stopServer,
  workbenchUrl,
  remoteUri,
  launchBrowser,
};
if (require.main === module) {
  // `drive.js --summary <results.json> <exit code>`: the runners' closing report
  if (process.argv[2] === '--summary') process.exit(summarize(process.argv[3], Number(process.argv[4] || 0)));
  else main();
}
