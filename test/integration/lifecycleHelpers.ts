// Helpers that make VS Code's document lifecycle happen on purpose in the real host: a document
// dropped (and later opened again as a new object), a disk change VS Code has not loaded yet, a
// keystroke at a chosen moment of an agent's write. Real VS Code API and Node's fs only.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { docFor, fileRef, makeFile, type TestFile, uniquePath, waitFor } from './helpers';

/**
 * VS Code keeps a document an extension opened (and no editor shows) for about three minutes, or
 * until some 50 others were opened since (measured: the 57th). Opening throwaway files drops it now.
 * Returns how many had to be opened.
 */
export async function evictDocument(f: TestFile, maxOpens = 300): Promise<number> {
  // an editor showing the document keeps it open: close those tabs only (closing others could drop a
  // dirty document's unsaved changes, which is not what is being tested)
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === f.uri.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs);
  let closed = !docFor(f);
  const listener = vscode.workspace.onDidCloseTextDocument((d) => {
    if (d.uri.toString() === f.uri.toString()) closed = true;
  });
  let opened = 0;
  try {
    const folder = uniquePath('fillers', '');
    for (; opened < maxOpens && !closed; opened++) {
      const filler = fileRef(`${folder}/f${opened}.txt`);
      fs.mkdirSync(fileRef(folder).abs, { recursive: true });
      fs.writeFileSync(filler.abs, `filler ${opened}\n`);
      await vscode.workspace.openTextDocument(filler.uri);
    }
    await waitFor(() => closed, `VS Code to drop the document of ${f.rel}`, 5000);
  } finally {
    listener.dispose();
  }
  assert.ok(!docFor(f), `${f.rel} is no longer among the open documents`);
  return opened;
}

/** Another program writes the file; VS Code is not waited for (its document loads it 70–150 ms later). */
export function writeBehindVsCode(f: TestFile, contents: string | Buffer): void {
  fs.writeFileSync(f.abs, contents);
}

/** Waits until the open document of `f` holds `text` (VS Code loaded the disk change). */
export async function waitForLoad(f: TestFile, text: string): Promise<void> {
  await waitFor(() => docFor(f)?.getText() === text, `VS Code to load the disk change of ${f.rel}`, 5000);
}

/**
 * A file whose document VS Code holds, clean, with the file's text; `shown`: in an editor too, as a file the user
 * types into is (a clean file no editor shows is written to the disk, past its document: rule 15).
 */
export async function openClean(
  prefix: string,
  contents: string | Buffer,
  opts: { shown?: boolean } = {},
): Promise<{ f: TestFile; doc: vscode.TextDocument }> {
  const f = makeFile(prefix, contents);
  const doc = await vscode.workspace.openTextDocument(f.uri);
  if (opts.shown) await vscode.window.showTextDocument(doc, { preview: false });
  assert.ok(!doc.isDirty);
  return { f, doc };
}

/**
 * Runs `typed` as a user's keystroke the moment the agent's edit reaches the document (its text
 * first satisfies `agentEditLanded`): after the edit lands and before anything the tool does next.
 * Resolves with whether VS Code accepted the keystroke.
 */
export function typeWhenAgentEditLands(
  doc: vscode.TextDocument,
  agentEditLanded: (text: string) => boolean,
  typed: (doc: vscode.TextDocument) => vscode.WorkspaceEdit,
): Promise<boolean> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== doc || !agentEditLanded(doc.getText())) return;
      listener.dispose();
      // sent at once, from the change event: it reaches VS Code before the tool's next request
      void Promise.resolve(vscode.workspace.applyEdit(typed(doc))).then(resolve, () => resolve(false));
    });
    setTimeout(() => {
      listener.dispose();
      resolve(false);
    }, 10_000);
  });
}

/** An insertion at the end of the document, as a keystroke. */
export function insertAtEnd(doc: vscode.TextDocument, text: string): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, doc.positionAt(doc.getText().length), text);
  return edit;
}
