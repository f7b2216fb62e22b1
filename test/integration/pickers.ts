// The workbench's pickers as a user opens them, through the Playwright driver (ui.ts): shared by the
// contributions test (contributions.test.ts) and the pictures of docs/agents.md (scripts/screenshots/readme.ts),
// so the picture shows the picker the test checked, opened the same way.
import * as vscode from 'vscode';
import { waitFor } from './helpers';
import { ui, visibleText } from './ui';

const GROUP = 'Agent Edit Guard';
/** the picker lists tools by their reference names, with the user description */
const listsTheGuardedTools = (t: string) => /guardedRead/.test(t) && /guardedWrite/.test(t) && /guardedReplace/.test(t);

/**
 * Opens agent mode's tool picker with the Agent Edit Guard group expanded. Answers the picker's text
 * once it lists the three guarded tools, the picker left open; or `text: undefined` when it never did
 * in `attempts` openings (the picker closed), with `last` what it showed last.
 */
export async function openToolPickerAtOurGroup(attempts = 3): Promise<{ text: string | undefined; last: string }> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' });
  // The picker's tree fills in while tool sources load; a click that lands during a re-render
  // can leave it showing "0 Results" (seen once in CI). Such a picker is closed and opened again.
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    void vscode.commands.executeCommand('workbench.action.chat.configureTools');
    const picker = await waitFor(
      async () => {
        const t = await visibleText('.quick-input-widget');
        return t.includes(GROUP) ? t : undefined;
      },
      `the tool picker to list ${GROUP}`,
      8000,
      200,
    );
    // the extension's group holds the three tools: expand it (only if it is collapsed: a click toggles)
    if (!/guardedReplace/.test(picker)) {
      await ui({
        action: 'click',
        timeout: 3000,
        selector: `.quick-input-widget .monaco-list-row[aria-expanded="false"]:has-text("${GROUP}") .monaco-tl-twistie >> visible=true`,
      });
    }
    const text = await waitFor(
      async () => {
        const t = (last = await visibleText('.quick-input-widget'));
        return listsTheGuardedTools(t) ? t : undefined;
      },
      'the three guarded tools in the picker',
      5000,
      200,
    ).catch(() => undefined);
    if (text !== undefined) return { text, last };
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
  return { text: undefined, last };
}
