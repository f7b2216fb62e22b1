// What the user sees around the gate (docs/design.md §Surfaces; rule 8, diagnostics, live staleness): the gate
// toggle, diagnostics on blocked writes, the readMarks() API, the status bar and the commands.
import * as vscode from 'vscode';
import * as assert from 'assert';
import {
  activateExtension,
  api,
  cleanUp,
  diagnosticCode,
  DIAGNOSTIC_CODE,
  diskText,
  expectStatus,
  guardDiagnostics,
  makeFile,
  marksFor,
  newestMark,
  openInEditor,
  readFile,
  replaceString,
  setSetting,
  sha256,
  statusBarText,
  ui,
  userEdit,
  waitFor,
  writeFile,
} from './helpers';

/** Polls the rendered status bar until it matches. */
const statusBarMatching = (re: RegExp, what: string) =>
  waitFor(
    async () => {
      const text = await statusBarText();
      return re.test(text) ? text : undefined;
    },
    `status bar ${what} (${re})`,
    5000,
    100,
  );

suite('surfaces: gate toggle, diagnostics, API, status bar, commands', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(cleanUp);

  test('editGuard.enabled false: a write without a read passes; readMarks() and the status bar say off (rule 8)', async () => {
    await setSetting('enabled', false);
    const f = makeFile('f-gate-off', 'original\n');

    const out = await writeFile(f.rel, 'written with the gate off\n');
    expectStatus(out, 'ok');
    assert.strictEqual(diskText(f), 'written with the gate off\n', 'the write landed without a read');
    expectStatus(await replaceString(f.rel, 'gate off', 'guard off'), 'ok');
    assert.strictEqual(diskText(f), 'written with the guard off\n');

    assert.ok(!marksFor(f.uri).some((m) => m.origin === 'refusal'), 'nothing was refused, so no refusal mark');
    assert.strictEqual(guardDiagnostics(f.uri).length, 0, 'no diagnostics with the gate off');
    const bar = await statusBarMatching(/\boff\b/i, 'saying off');
    assert.doesNotMatch(bar, /\bread\b|\bstale\b/, `no mark counts while off: ${bar}`);

    // switching the gate back on gates again: this file was never read in this chat
    await setSetting('enabled', true);
    const gated = await writeFile(f.rel, 'blocked now\n');
    expectStatus(gated, 'blocked', { reason: ['not-read', 'own-write-expired'] });
    assert.strictEqual(diskText(f), 'written with the guard off\n');
    await statusBarMatching(/^\s*\d+ read\b/, 'counting marks again');
  });

  test('editGuard.toggleGate flips editGuard.enabled in the workspace settings and the status bar follows (rule 8)', async () => {
    const config = () => vscode.workspace.getConfiguration('editGuard', null).inspect<boolean>('enabled');
    const before = config()?.workspaceValue;
    try {
      await vscode.commands.executeCommand('editGuard.toggleGate');
      await waitFor(() => config()?.workspaceValue === false, 'workspace editGuard.enabled = false');
      await statusBarMatching(/\boff\b/i, 'saying off after toggle');

      const f = makeFile('f-toggle', 'x\n');
      expectStatus(await writeFile(f.rel, 'y\n'), 'ok');
      assert.strictEqual(diskText(f), 'y\n');

      await vscode.commands.executeCommand('editGuard.toggleGate');
      await waitFor(() => config()?.workspaceValue === true, 'workspace editGuard.enabled = true');
      await statusBarMatching(/\d+ read\b/, 'counting marks after the toggle back on');
      const g = makeFile('f-toggle-on', 'x\n');
      expectStatus(await writeFile(g.rel, 'y\n'), 'blocked', { reason: 'not-read' });
      assert.strictEqual(diskText(g), 'x\n');
    } finally {
      await vscode.workspace.getConfiguration('editGuard', null).update('enabled', before, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('a blocked write puts a Warning diagnostic on the changed lines; the next successful write of that chat clears it', async () => {
    const f = makeFile('g-diag', 'l1\nl2\nl3\nl4\nl5\n');
    expectStatus(await readFile(f.rel), 'ok');

    // the user changes line 4 and saves
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'l4', 'l4 edited by the user');
    assert.ok(await editor.document.save(), 'user save');
    assert.strictEqual(diskText(f), 'l1\nl2\nl3\nl4 edited by the user\nl5\n');

    const blocked = await replaceString(f.rel, 'l1', 'L1');
    expectStatus(blocked, 'blocked', { reason: 'changed' });

    const diags = await waitFor(() => {
      const d = guardDiagnostics(f.uri);
      return d.length > 0 ? d : undefined;
    }, 'the blocked-write diagnostic');
    for (const d of diags) {
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Warning, 'a Warning');
      assert.strictEqual(diagnosticCode(d), DIAGNOSTIC_CODE, 'code blocked-write');
      assert.strictEqual(d.range.start.line, 3, `on the changed line (line 4), got ${d.range.start.line + 1}`);
      assert.ok(
        d.range.end.line === 3 || (d.range.end.line === 4 && d.range.end.character === 0),
        `the range stays on the changed line: ${JSON.stringify(d.range)}`,
      );
      assert.match(d.message, /replace/i, `the message names the tool: ${d.message}`);
      assert.match(d.message, /changed/i, `the message gives the reason: ${d.message}`);
    }

    // the refusal stamped a mark: the retry passes and clears the diagnostic
    expectStatus(await replaceString(f.rel, 'l1', 'L1'), 'ok');
    assert.strictEqual(diskText(f), 'L1\nl2\nl3\nl4 edited by the user\nl5\n');
    await waitFor(() => guardDiagnostics(f.uri).length === 0, 'the diagnostic to be cleared by the successful write');
  });

  test('a not-read block puts the diagnostic at the start of the file; editGuard.clearReadMarks clears it', async () => {
    const f = makeFile('g-not-read', 'first\nsecond\n');
    const blocked = await writeFile(f.rel, 'x\n');
    expectStatus(blocked, 'blocked', { reason: 'not-read' });
    const diags = await waitFor(() => {
      const d = guardDiagnostics(f.uri);
      return d.length > 0 ? d : undefined;
    }, 'the not-read diagnostic');
    assert.strictEqual(diags.length, 1);
    assert.strictEqual(diags[0].range.start.line, 0, 'at the start of the file');
    assert.strictEqual(diagnosticCode(diags[0]), DIAGNOSTIC_CODE);
    assert.match(diags[0].message, /write/i, `names the tool: ${diags[0].message}`);
    assert.match(diags[0].message, /read/i, `gives the reason: ${diags[0].message}`);

    await vscode.commands.executeCommand('editGuard.clearReadMarks');
    await waitFor(() => guardDiagnostics(f.uri).length === 0, 'clearReadMarks to clear the diagnostic');
    assert.strictEqual(marksFor(f.uri).length, 0, 'clearReadMarks cleared the marks too');
    // with the marks gone the refusal mark is gone as well: a write is blocked again
    expectStatus(await writeFile(f.rel, 'x\n'), 'blocked', { reason: 'not-read' });
    assert.strictEqual(diskText(f), 'first\nsecond\n');
  });

  test('live staleness: readMarks() fresh flips to false right after a user edit, and back after revert; onDidChangeReadMarks fires', async () => {
    const f = makeFile('live-stale', 'stable\ntext\n');
    expectStatus(await readFile(f.rel), 'ok');
    const mark = newestMark(f.uri);
    assert.ok(mark, 'the read stamped a mark');
    assert.strictEqual(mark.fresh, true);
    assert.strictEqual(mark.hash, sha256('stable\ntext\n'));

    let events = 0;
    const sub = api().onDidChangeReadMarks(() => events++);
    try {
      const editor = await openInEditor(f);
      await userEdit(editor.document, 'stable', 'unstable');
      // no tool call in between: the staleness is live
      await waitFor(() => newestMark(f.uri)?.fresh === false, 'the mark to turn stale after the user edit');
      // told once the change's burst is over (src/core/afterAnswer.ts), not inside it
      await waitFor(() => events > 0, 'onDidChangeReadMarks to fire');

      await vscode.commands.executeCommand('workbench.action.files.revert');
      assert.strictEqual(editor.document.getText(), 'stable\ntext\n', 'reverted');
      await waitFor(() => newestMark(f.uri)?.fresh === true, 'the mark to be fresh again after the revert');
    } finally {
      sub.dispose();
    }
  });

  test("status bar: counts the current chat's read and stale marks, live; clearReadMarks empties readMarks()", async () => {
    await vscode.commands.executeCommand('editGuard.clearReadMarks');
    await waitFor(() => api().readMarks().length === 0, 'clearReadMarks to clear every mark');

    const f1 = makeFile('sb-one', 'one\n');
    const f2 = makeFile('sb-two', 'two\n');
    expectStatus(await readFile(f1.rel), 'ok');
    expectStatus(await readFile(f2.rel), 'ok');
    assert.strictEqual(api().readMarks().length, 2, 'two marks');

    const twoRead = await statusBarMatching(/\b2 read\b/, 'with 2 read');
    assert.doesNotMatch(twoRead, /\b[1-9]\d* stale\b/, `nothing stale yet: ${twoRead}`);

    const editor = await openInEditor(f2);
    await userEdit(editor.document, 'two', 'two, edited');
    await statusBarMatching(/\b1 stale\b/, 'with 1 stale (live, no tool call)');
  });

  test('editGuard.showReadMarks opens a quick pick listing the marked files', async () => {
    const f = makeFile('qp-listed', 'content\n');
    expectStatus(await readFile(f.rel), 'ok');
    const base = f.rel.split('/').pop()!;
    void vscode.commands.executeCommand('editGuard.showReadMarks');
    const text = await waitFor(
      async () => {
        const t = ((await ui({ action: 'text', selector: '.quick-input-widget', timeout: 1000 })) as { text?: string }).text ?? '';
        return t.includes(base) ? t : undefined;
      },
      `the quick pick to list ${base}`,
      5000,
      100,
    );
    assert.ok(text.includes(base));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
