#!/usr/bin/env node
// `npm start`: a real VS Code (code-server, in your browser) with Agent Edit Guard loaded from this repo
// as the extension under development, the test-only @scripted agent installed, and a fresh copy of
// demo/ as the workspace. See demo/README.md for what to try. Ctrl-C stops it.
// Env: PORT (default: a free one), EDITGUARD_EXT_DIR (another extension folder), VERBOSE=1 (code-server log).
// `--check` (run by npm test): opens the URL in headless Chromium as a person would, waits for the
// extension's status bar item, saves a screenshot in the run folder, stops, and exits 0 — or 1 with why.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const host = require('./host/drive.js');

const repo = path.resolve(__dirname, '..');
const extDir = path.resolve(process.env.EDITGUARD_EXT_DIR || repo);

async function main() {
  execFileSync('bash', [path.join(repo, 'scripts', 'host', 'install.sh')], { stdio: 'inherit' });
  const entry = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8')).main;
  if (entry && !fs.existsSync(path.resolve(extDir, entry)) && !fs.existsSync(path.resolve(extDir, entry + '.js'))) {
    throw new Error(`${path.resolve(extDir, entry)} is missing: build first (node scripts/build.mjs)`);
  }

  fs.mkdirSync(path.join(repo, '.runs'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runDir = fs.mkdtempSync(path.join(repo, '.runs', `demo-${stamp}-`));
  const ws = path.join(runDir, 'ws');
  fs.cpSync(path.join(repo, 'demo'), ws, { recursive: true });
  host.prepareRunDir(runDir, {
    preinstall: [path.join(repo, 'test', 'scripted-agent')],
    settingsFile: path.join(repo, 'test', 'fixtures', 'user-settings.json'),
  });

  const port = Number(process.env.PORT) || (await host.freePort());
  const server = await host.startCodeServer({ runDir, port, isoEnv: host.isolatedEnv(runDir) });
  // code-server is in its own process group (so Ctrl-C in this terminal reaches only us): end it with us
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping code-server ...');
    await host.stopServer(server);
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('exit', () => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {}
  });
  server.failed.then((why) => {
    if (!stopping) {
      console.error(why);
      stop(1);
    }
  });

  // The payload URL parameter loads the extension under development; the built workbench honours it
  // only because code-server runs with --vscode-option enable-smoke-test-driver (see host/README.md).
  const url = host.workbenchUrl(port, ws, [
    ['extensionDevelopmentPath', host.remoteUri(port, extDir)],
    ['skipWelcome', 'true'],
  ]);
  console.log(
    [
      '',
      'Agent Edit Guard demo is running (VS Code 1.139 in code-server). Open this URL in a browser:',
      '',
      `  ${url}`,
      '',
      `(bound to 127.0.0.1 only; from another machine forward the port first, e.g. ssh -L ${port}:127.0.0.1:${port})`,
      `workspace: ${ws}  (a fresh copy of demo/; see its README.md)`,
      `run folder: ${runDir}`,
      'Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  if (process.argv.includes('--check')) await stop(await checkPage(url, runDir));
}

/** The page a person opens: the workbench loads and the extension's status bar item shows. */
async function checkPage(url, runDir) {
  const browser = await host.launchBrowser(host.isolatedEnv(runDir));
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url, { timeout: 5 * 60 * 1000 });
    const item = page.locator('.part.statusbar [id="editguard.agent-edit-guard.editGuard.readMarks"]');
    await item.waitFor({ state: 'visible', timeout: 60000 });
    const shot = path.join(runDir, 'start-check.png');
    await page.screenshot({ path: shot });
    console.log(
      `start check: the demo workbench loaded with Agent Edit Guard active (status bar: "${(await item.innerText()).trim()}"); screenshot ${shot}`,
    );
    return 0;
  } catch (e) {
    console.error('start check failed:', (e && e.message) || e);
    return 1;
  } finally {
    await browser.close().catch(() => {});
  }
}

main().catch((e) => {
  console.error('start failed:', (e && e.message) || e);
  process.exit(1);
});
