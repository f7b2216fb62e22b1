#!/usr/bin/env node
// The integration tests (out/test/integration, built by `node scripts/build.mjs --tests`) under
// @vscode/test-electron, for machines that can download VS Code (or have one: VSCODE_EXECUTABLE_PATH).
// Same test files, same test-only @scripted agent, same fixture workspace and user settings as
// scripts/host/run-integration.sh, which runs them offline in code-server instead.
// There is no Playwright driver here: ui() from test/integration/ui.ts throws, so tests that need
// the rendered page should check driverAvailable() and skip.
// Env: EDITGUARD_VSCODE_VERSION (default "stable"), VSCODE_EXECUTABLE_PATH, EDITGUARD_TEST_GREP.
// Linux without a display: xvfb-run -a npm run test:electron
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { runTests, TestRunFailedError } = require('@vscode/test-electron');
const { prepareRunDir, summarize } = require('./host/drive.js');

const repo = path.resolve(__dirname, '..');

async function main() {
  const extensionTestsPath = path.join(repo, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(extensionTestsPath)) {
    console.error(`missing ${extensionTestsPath}: run 'node scripts/build.mjs --tests' first`);
    return 2;
  }
  fs.mkdirSync(path.join(repo, '.runs'), { recursive: true });
  const runDir = fs.mkdtempSync(path.join(repo, '.runs', 'electron-'));
  const ws = path.join(runDir, 'ws');
  fs.cpSync(path.join(repo, 'test', 'fixtures', 'workspace'), ws, { recursive: true });
  prepareRunDir(runDir, {
    preinstall: [path.join(repo, 'test', 'scripted-agent')],
    settingsFile: path.join(repo, 'test', 'fixtures', 'user-settings.json'),
  });
  const resultFile = path.join(runDir, 'results.json');

  let rc = 0;
  try {
    await runTests({
      version: process.env.EDITGUARD_VSCODE_VERSION || 'stable',
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
      // the download is cached outside the repo, shared by every clone (like the code-server host)
      cachePath: path.join(os.homedir(), '.cache', 'agent-edit-guard', 'vscode-test'),
      timeout: 30000,
      extensionDevelopmentPath: repo,
      extensionTestsPath,
      extensionTestsEnv: { EDITGUARD_RESULT_FILE: resultFile, EDITGUARD_TEST_GREP: process.env.EDITGUARD_TEST_GREP || '' },
      launchArgs: [
        ws,
        `--user-data-dir=${path.join(runDir, 'user-data')}`,
        `--extensions-dir=${path.join(runDir, 'extensions')}`, // holds the copied test-only @scripted agent
        '--disable-workspace-trust',
        '--skip-welcome',
        '--disable-telemetry',
      ],
    });
  } catch (err) {
    if (err instanceof TestRunFailedError) {
      rc = err.code || 1;
    } else if (!process.env.VSCODE_EXECUTABLE_PATH && !fs.existsSync(resultFile)) {
      // nothing ran: the download (or the launch) failed
      console.error(
        [
          '',
          `Could not download or start VS Code for @vscode/test-electron: ${(err && err.message) || err}`,
          'This machine probably cannot reach the VS Code download servers (offline, proxy).',
          'Run the same tests offline instead: npm run test:integration  (code-server + Chromium)',
          'or point VSCODE_EXECUTABLE_PATH at an installed VS Code.',
        ].join('\n'),
      );
      return 2;
    } else {
      console.error(err);
      rc = 2;
    }
  }
  console.log(`run folder: ${runDir}`);
  return summarize(resultFile, rc);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
