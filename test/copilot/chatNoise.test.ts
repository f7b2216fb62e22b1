// What the chat shows the USER under a guarded tool call, in the real workbench under Copilot's agent
// loop (issue 14 item 7, "no noise in the chat"). Without details of our own, VS Code builds an
// input/output section from the result's parts and shows its JSON part under every call as an
// attachment named `file.bin` (docs/research-guard-by-default.md §4). A call that went through carries
// `toolResultDetails` (src/tools/invocation.ts `detailsOf`): the file it read or wrote, as a link, and
// no attachment. A refusal or an error keeps VS Code's section, so the user reads its text there. The
// model still gets only the text parts, and vscode.lm.invokeTool callers still get the JSON part.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { agentTurn, driverAvailable, makeFileAt, READ, REPLACE, resultsOf, safeJson, ui, userEdit, waitFor, WRITE } from './agent';
import { copilotSuiteHooks } from './suite';
import { BLOCKED } from './turns';

interface ToolRow {
  /** the row's rendered text (the progress line, and the file links when the row has them) */
  text: string;
  /** the file links under the row: name and lines, e.g. `long.txt:11-20` */
  links: string[];
  /** attachments (kind data) of the row, by aria-label */
  attachments: string[];
}

interface ResponseDom {
  text: string;
  fileBin: number;
  topLevelGroups: number;
  rows: ToolRow[];
}

/** The response's rendered text stops changing (two looks 100 ms apart agree): an expansion has been drawn. */
async function renderingSettled(): Promise<void> {
  let last = -1;
  await waitFor(
    async () => {
      const now = (await ui({ action: 'eval', js: `document.querySelector('.chat-most-recent-response')?.innerHTML.length ?? 0` }))
        .value as number;
      const same = now === last;
      last = now;
      return same;
    },
    'the response to finish drawing',
    10000,
    100,
  );
}

/** The last response in the chat view, its steps and tool rows expanded, read from the rendered DOM. */
async function lastResponseDom(): Promise<ResponseDom> {
  await vscode.commands.executeCommand('workbench.action.chat.open');
  for (const selector of [
    '.chat-most-recent-response summary.completed-response-summary',
    '.chat-most-recent-response .chat-thinking-box .chat-used-context-label a.monaco-button',
  ]) {
    await ui({ action: 'click', selector, timeout: 2000 });
    await renderingSettled();
  }
  // every file-link list under a call: expand it (a collapsed list renders no rows)
  await ui({
    action: 'eval',
    js: `(() => {
      for (const e of document.querySelectorAll('.chat-most-recent-response .chat-tool-invocation-part .chat-used-context-label .monaco-button[aria-expanded="false"]')) e.click();
      // a refusal's or an error's input/output section: its title opens it
      for (const e of document.querySelectorAll('.chat-most-recent-response .chat-tool-invocation-part .chat-confirmation-widget-title')) e.click();
      return true;
    })()`,
  });
  await waitFor(
    async () =>
      (
        await ui({
          action: 'count',
          selector: '.chat-most-recent-response .chat-tool-invocation-part .chat-used-context-label .monaco-button[aria-expanded="false"]',
        })
      ).count === 0,
    'every file-link list of the response expanded',
    10000,
    100,
  );
  await renderingSettled();
  const answer = await ui({
    action: 'eval',
    js: `(() => {
      const r = document.querySelector('.chat-most-recent-response');
      if (!r) return null;
      const all = [...r.querySelectorAll('*')];
      const mentions = (e) => (e.getAttribute('aria-label') || '').includes('file.bin') || [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes('file.bin'));
      return {
        text: r.innerText,
        html: r.outerHTML,
        fileBin: all.filter(mentions).length,
        topLevelGroups: r.querySelectorAll('.chat-collapsible-top-level-resource-group').length,
        rows: [...r.querySelectorAll('.chat-tool-invocation-part')].map((e) => ({
          text: e.innerText,
          // a file link: its name and the lines after it ("long.txt:11-20")
          links: [...e.querySelectorAll('.monaco-list-row')].map((l) => (l.querySelector('.label-name')?.textContent ?? '') + (l.querySelector('.label-suffix')?.textContent ?? '')),
          attachments: [...e.querySelectorAll('[aria-label^="Attached"]')].map((a) => a.getAttribute('aria-label')),
        })),
      };
    })()`,
  });
  assert.ok(answer.value, `the chat view shows a response: ${safeJson(answer)}`);
  const { html, ...dom } = answer.value as ResponseDom & { html: string };
  if (process.env.RUN_DIR) {
    fs.writeFileSync(path.join(process.env.RUN_DIR, 'chat-noise-response.html'), html);
    fs.writeFileSync(path.join(process.env.RUN_DIR, 'chat-noise-dom.json'), JSON.stringify(dom, null, 1));
  }
  return dom;
}

suite('chat noise: what the chat shows under a guarded tool call', function () {
  copilotSuiteHooks();

  test('no file.bin under a call that went through (reads, write, replace): each links the file and lines it touched; a refusal or an error shows its text; the model gets the same text parts', async function () {
    if (!driverAvailable()) this.skip();
    const notes = makeFileAt('noise/notes.md', '# notes\n\n- one\n');
    const long = makeFileAt('noise/long.txt', Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const doc = await vscode.workspace.openTextDocument(notes.uri);
    const turn = await agentTurn(
      'noise',
      [
        // refused, never read (two text parts: the headline and the current content)
        { tool: WRITE, input: { filePath: notes.rel, content: '# notes\n' } },
        // allowed (the refusal counted as a read): lines 3–4 of the new text
        { tool: REPLACE, input: { filePath: notes.rel, oldString: '- one', newString: '- one\n- two' } },
        { tool: READ, input: { filePath: notes.rel } },
        { tool: READ, input: { filePath: long.rel, offset: 11, limit: 10 } },
        async () => {
          // the user changes line 4 in the editor (not saved); the model replaces from its old copy: refused, changed
          await userEdit(doc, '- two', '- two (the user)');
          return { tool: REPLACE, input: { filePath: notes.rel, oldString: '- one', newString: '- uno' } };
        },
        // a new file
        { tool: WRITE, input: { filePath: 'noise/new.txt', content: 'new\n' } },
        // an error: nothing touched
        { tool: REPLACE, input: { filePath: notes.rel, oldString: 'not in the file', newString: 'x' } },
        { text: 'Done.' },
      ],
      'Tidy the notes.',
    );

    // what the model received: text parts only, as before (the details never reach it)
    const ours = resultsOf(turn);
    assert.deepStrictEqual(
      ours.map((r) => r.name),
      [WRITE, REPLACE, READ, READ, REPLACE, WRITE, REPLACE],
      safeJson(ours.map((r) => [r.name, r.text.slice(0, 100)])),
    );
    const [blind, replaced, read, ranged, stale, created, noMatch] = ours;
    for (const r of [blind, stale]) assert.ok(r.text.startsWith(BLOCKED), r.text);
    for (const r of [replaced, read, ranged, created]) assert.doesNotMatch(r.text, /BLOCKED|ERROR/, r.text);
    assert.match(noMatch.text, /^ERROR \(no-match\)/, noMatch.text);
    assert.deepStrictEqual([...new Set(ours.flatMap((r) => r.content.map((c) => c.type)))], ['text'], 'the model gets text parts only');

    const dom = await lastResponseDom();
    const shot = await ui({ action: 'screenshot', name: 'chat-noise' });
    assert.ok(shot.ok, safeJson(shot));
    assert.strictEqual(dom.rows.length, 7, safeJson(dom.rows));
    const okRows = [1, 2, 3, 5].map((i) => dom.rows[i]);
    const shownRows = [0, 4, 6].map((i) => dom.rows[i]);
    for (const row of okRows) assert.deepStrictEqual(row.attachments, [], `no attachment under a call that went through: ${safeJson(row)}`);
    // each call that went through links its file (with the lines, when not the whole file)
    assert.deepStrictEqual(
      okRows.map((r) => r.links.join(' | ')),
      ['notes.md:3-4', 'notes.md', 'long.txt:11-20', 'new.txt'],
      safeJson(dom.rows),
    );
    // the refusals and the error: their text, for the user to read (VS Code adds its attachment there);
    // the narrow output wraps it, with no-break spaces
    const shown = shownRows.map((r) => r.text.replace(/\s+/g, ' '));
    assert.match(shown[0], /BLOCKED: nothing was written\. You have not read noise\/ ?notes\.md/, shown[0]);
    assert.match(shown[1], /BLOCKED: nothing was written\. noise\/ ?notes\.md changed since you last read it/, shown[1]);
    assert.match(shown[2], /ERROR \(no-match\)/, shown[2]);
    assert.strictEqual(dom.topLevelGroups, shownRows.length, `an attachment group only under the refusals and the error:\n${dom.text}`);
  });

  test('vscode.lm.invokeTool callers still get the JSON part (ResultData) after the text', async () => {
    const f = makeFileAt('noise/plain.txt', 'plain\n');
    const result = await vscode.lm.invokeTool(READ, { input: { filePath: f.rel }, toolInvocationToken: undefined });
    const data = result.content.filter((p) => p instanceof vscode.LanguageModelDataPart);
    assert.strictEqual(data.length, 1, 'one JSON part');
    const json = JSON.parse(new TextDecoder().decode(data[0].data)) as { status: string; path: string };
    assert.match(data[0].mimeType, /json/, data[0].mimeType);
    assert.strictEqual(json.status, 'ok');
    assert.strictEqual(json.path, f.rel);
    assert.ok(result.content[0] instanceof vscode.LanguageModelTextPart, 'the text comes first');
  });
});
