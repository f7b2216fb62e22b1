// The contributions a user meets first, checked in the real workbench: the Guarded agent in the
// chat's agent picker, the three tools in the tool picker, the walkthrough, and the log command.
// The pictures of the pickers (docs/agents.md) are taken by `npm run screenshots` (scripts/screenshots/readme.ts), not here.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateExtension, expectStatus, makeFile, waitFor, WRITE, writeFile } from './helpers';
import { openToolPickerAtOurGroup } from './pickers';
import { driverAvailable, ui, visibleText } from './ui';

/** The extension host's own log of this run (HOME and the user-data dir are the run folder's). */
function extensionHostLogs(): string[] {
  const logs = path.join(process.env.HOME ?? '', 'user-data', 'logs');
  if (!fs.existsSync(logs)) return [];
  return fs
    .readdirSync(logs)
    .flatMap((session) => {
      const dir = path.join(logs, session);
      return fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((d) => d.startsWith('exthost'))
            .map((d) => path.join(dir, d))
        : [];
    })
    .flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => /exthost\.log$/.test(f))
        .map((f) => path.join(dir, f)),
    );
}

suite('contributions in the workbench', () => {
  test('the extension host logs no warning or error about this extension or its contributions', function () {
    const logs = extensionHostLogs();
    if (logs.length === 0) this.skip(); // only the code-server host keeps its log in the run folder
    const lines = logs.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'));
    assert.ok(
      lines.some((l) => l.includes('editguard.agent-edit-guard')),
      `the log mentions the extension's activation (${logs.join(', ')})`,
    );
    const problems = lines.filter(
      (l) => /\[(warning|error)\]/.test(l) && /editguard\.agent-edit-guard|guarded\.agent\.md|editGuard\./.test(l),
    );
    assert.deepStrictEqual(problems, []);
  });

  suiteSetup(async function () {
    if (!driverAvailable()) this.skip(); // reads the rendered page through the Playwright driver
    await activateExtension();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await ui({ action: 'press', key: 'Escape' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the Guarded agent is listed in the agent picker and can be selected', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' });
    // the click waits (up to its timeout) for the picker to show
    assert.ok(
      (
        await ui(
          { action: 'click', selector: '.interactive-input-part .chat-mode-picker-item a.action-label >> visible=true', timeout: 30000 },
          40000,
        )
      ).ok,
      'opened the agent picker',
    );
    const menu = await waitFor(
      async () => {
        const text = await visibleText('.monaco-menu, .action-widget, .context-view');
        return /Guarded/.test(text) ? text : undefined;
      },
      'the agent picker to list Guarded',
      5000,
      200,
    );
    assert.match(menu, /Agent/);
    await ui({ action: 'press', key: 'Escape' });

    await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'Guarded' });
    const label = await waitFor(
      async () => {
        const text = await visibleText('.interactive-input-part .chat-mode-picker-item .chat-input-picker-label');
        return text.includes('Guarded') ? text : undefined;
      },
      'the Guarded agent to be selected',
      5000,
      200,
    );
    assert.strictEqual(label.trim(), 'Guarded');
    await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' });
  });

  test('agent mode offers the three guarded tools in the tool picker', async () => {
    const { text, last } = await openToolPickerAtOurGroup();
    assert.ok(
      text !== undefined,
      `the three guarded tools never showed in the picker (3 attempts); it last showed: ${last.slice(0, 1500)}`,
    );
    assert.match(text, /guardedReplace\s*Replace exact text in a file the agent has seen/);
  });

  test('the walkthrough opens with its three steps', async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'editguard.agent-edit-guard#gettingStarted', false);
    const text = await waitFor(
      async () => {
        const t = await visibleText('.gettingStartedContainer');
        return /Get started with Agent Edit Guard/.test(t) ? t : undefined;
      },
      'the walkthrough page',
      8000,
      200,
    );
    for (const step of ['What the gate does', 'Pick the Guarded agent or the tools', 'Where blocked writes show up'])
      assert.ok(text.includes(step), step);
  });

  test('Agent Edit Guard: Show Log opens the extension log', async () => {
    // A line of this test's own to look for: the view shows the end of the log, and what other tests wrote
    // last (their blocked writes, an agent's hooks being written) changes whenever a suite is added.
    const f = makeFile('show-log', 'untouched\n');
    expectStatus(await writeFile(f.rel, 'never read\n'), 'blocked', { reason: 'not-read' });
    // the Output view wraps long lines (at a slash or a dot too), so the line is looked for with its whitespace removed
    const logged = `[info]blocked${WRITE}on${f.rel}:not-read`;
    await vscode.commands.executeCommand('editGuard.showLog');
    let last = '';
    await waitFor(
      async () => {
        last = await visibleText('.part.panel');
        return last.replace(/\s+/g, '').includes(logged);
      },
      `the log in the Output panel, ending with the blocked write to ${f.rel}`,
      8000,
      200,
    ).catch((e) => {
      throw new Error(`${e.message}; the panel showed: ${last.slice(-1500)}`);
    });
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });
});
