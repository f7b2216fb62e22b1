// Copilot's own edits in the record of agent edits (docs/design.md §Edit record): with the hooks
// bridge on, a replace_string_in_file that lands is recorded under its chat and turn like a guarded
// edit, the user can revert it keeping a later change of their own, and Copilot's next edit from its
// old copy is denied, telling the model the user reverted it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentEditGuardApi } from '../../src/api';
import type { FileRevert } from '../../src/core/revert';
import { describeRun, runClaude } from '../claudeCode/claudeCli';
import { startFakeAnthropic } from '../claudeCode/fakeAnthropic';
import { AGENT_EDITS_VIEW_SELECTOR } from '../integration/helpers';
import { agentTurn, diskText, EXTENSION_ID, fakeModel, lastResult, makeFileAt, newChat, ui, waitFor, workspaceRoot } from './agent';
import { copilotSuiteHooks, withBridgeOn } from './suite';
import { DENIED } from './turns';

const api = () => vscode.extensions.getExtension<AgentEditGuardApi>(EXTENSION_ID)!.exports;

suite("Copilot's own edits in the edit record", function () {
  copilotSuiteHooks();
  withBridgeOn();

  test("a replace_string_in_file that lands is recorded; its revert keeps the user's later change; Copilot's next edit from its old copy is denied as reverted by the user", async () => {
    const f = makeFileAt('builtin/record.txt', 'one\ntwo\nthree\nfour\nfive\n');
    await newChat();
    await agentTurn(
      'builtin-record',
      [
        { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 5 } },
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'two\n', newString: 'TWO\n' } },
        { text: 'Done.' },
      ],
      'Upper-case the second line.',
      { model: fakeModel().MODELS.sonnet },
    );
    const doc = await vscode.workspace.openTextDocument(f.uri);
    assert.strictEqual(doc.getText(), 'one\nTWO\nthree\nfour\nfive\n');
    const edit = api()
      .editRecord()
      .find((e) => vscode.Uri.parse(e.uri).toString() === f.uri.toString());
    assert.ok(edit, 'the built-in edit is recorded');
    assert.strictEqual(edit.tool, 'replace_string_in_file');
    assert.match(edit.session, /^vscode-chat-session:\/\/local\//, 'under the chat that made it');

    // the user changes another line and saves; then reverts the agent's edit
    const change = new vscode.WorkspaceEdit();
    change.replace(f.uri, new vscode.Range(4, 0, 4, 4), 'five, by the user');
    assert.ok(await vscode.workspace.applyEdit(change));
    assert.ok(await doc.save());
    const [result] = (await vscode.commands.executeCommand<FileRevert[]>('editGuard.revertEdit', edit.id)) ?? [];
    assert.strictEqual(result?.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(f), 'one\ntwo\nthree\nfour\nfive, by the user\n');

    // the same chat edits again from its copy of the agent's version: denied, and told why
    let denied = '';
    await agentTurn(
      'builtin-after-revert',
      [
        { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'TWO\nthree\n', newString: 'TWO\nTHREE\n' } },
        (req) => {
          denied = lastResult(req).text;
          return { text: 'The user reverted my edit.' };
        },
      ],
      'Now upper-case the third line too.',
      { model: fakeModel().MODELS.sonnet },
    );
    assert.match(denied, DENIED, denied);
    assert.match(denied, /The user reverted your earlier edit of/, denied);
    assert.strictEqual(diskText(f), 'one\ntwo\nthree\nfour\nfive, by the user\n', 'nothing written');
  });

  test('the rendered Agent Edits view names each edit by its agent: a Copilot replace, a Claude Code edit', async () => {
    const viewText = async () => ((await ui({ action: 'text', selector: AGENT_EDITS_VIEW_SELECTOR, timeout: 2000 })).text ?? '') as string;
    const shownAs = async (label: RegExp, what: string) => {
      await vscode.commands.executeCommand('editGuard.showAgentEdits');
      return waitFor(async () => label.exec(await viewText())?.[0], `${what} in the rendered Agent Edits view`, 20000, 250);
    };

    const byCopilot = makeFileAt('builtin/labelled-copilot.txt', 'one\ntwo\n');
    await newChat();
    await agentTurn(
      'builtin-labelled',
      [
        { tool: 'read_file', input: { filePath: byCopilot.abs, startLine: 1, endLine: 2 } },
        { tool: 'replace_string_in_file', input: { filePath: byCopilot.abs, oldString: 'two\n', newString: 'TWO\n' } },
        { text: 'Done.' },
      ],
      'Upper-case the second line.',
      { model: fakeModel().MODELS.sonnet },
    );
    assert.match(await shownAs(/Copilot replace · [^·\n]+/, "Copilot's replace"), /^Copilot replace/);

    // Claude Code, its entries in this folder and its CLI started with this window's environment, as from a terminal here
    const config = vscode.workspace.getConfiguration('editGuard', null);
    const settings = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    const fake = await startFakeAnthropic();
    try {
      await config.update('guardClaudeCode', 'workspace', vscode.ConfigurationTarget.Workspace);
      await waitFor(() => fs.existsSync(settings), 'the Claude Code hook entries', 10000, 50);
      const byClaude = makeFileAt('builtin/labelled-claude.txt', 'alpha\nbeta\n');
      fake.script([
        { tool: 'Read', input: { file_path: byClaude.abs } },
        { tool: 'Edit', input: { file_path: byClaude.abs, old_string: 'beta', new_string: 'BETA' } },
        { text: 'Done.' },
      ]);
      const env = Object.fromEntries(
        Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('AGENT_EDIT_GUARD_') && e[1] !== undefined),
      );
      const run = await runClaude({ cwd: workspaceRoot(), prompt: 'Upper-case beta.', baseUrl: fake.url, env });
      assert.strictEqual(run.code, 0, describeRun(run));
      assert.strictEqual(diskText(byClaude), 'alpha\nBETA\n');
      assert.match(await shownAs(/Claude Code edit · [^·\n]+/, "Claude Code's edit"), /^Claude Code edit/);
      const text = await viewText();
      assert.doesNotMatch(text, /Copilot edit|\bEdit ·/, 'no edit is named by another agent, or by its bare tool name');
    } finally {
      await config.update('guardClaudeCode', undefined, vscode.ConfigurationTarget.Workspace);
      await fake.close();
    }
  });
});
