// Real chat turns that stop at a tool confirmation: start a @scripted turn, read the confirmation
// the user sees, wait for the turn to finish, forget earlier approvals. Shared by the suites of
// protected files (badInput.test.ts) and of links to protected files (pathsAsSent.test.ts).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { FAKE_MODEL_VENDOR, type ScriptedRequest, SCRIPTED_AGENT_ID, type ToolName, ui, waitFor } from './helpers';

export const CONFIRM = '.chat-confirmation-widget2 >> visible=true';

/**
 * The pending confirmation: its title and its visible message. In this layout (the confirmation
 * docked above the chat input) the title element is in the DOM (and the dialog's aria-label) but
 * not painted, so it is read from the HTML; the message is read as rendered text.
 */
export async function confirmationText(): Promise<{ title: string; message: string }> {
  const shown = (await ui({ action: 'text', selector: CONFIRM, timeout: 5000 })) as { text?: string; error?: string };
  assert.ok(!shown.error, `the confirmation is visible: ${shown.error}`);
  const html = (await ui({ action: 'html', selector: '.chat-confirmation-widget-container', nth: -1, timeout: 5000 })) as {
    html?: string;
    error?: string;
  };
  assert.ok(!html.error && html.html, `the confirmation's HTML: ${html.error}`);
  const titlePart = /chat-confirmation-widget-title[\s\S]*?<\/p>/.exec(html.html)?.[0] ?? '';
  const title = titlePart
    .replace(/<[^>]*>/g, '')
    .replace(/^[^>]*>/, '')
    .trim();
  return { title, message: shown.text ?? '' };
}

export function scriptedRequests(): ScriptedRequest[] {
  return vscode.extensions.getExtension<{ requests: ScriptedRequest[] }>(SCRIPTED_AGENT_ID)!.exports.requests;
}

/**
 * Starts a @scripted turn and resolves when it either finishes or stops at a confirmation
 * (workbench.action.chat.open with blockOnResponse answers { type: 'confirmation' } then).
 */
export async function startTurn(calls: Array<{ tool: ToolName; input: object }>): Promise<{ answer: unknown; before: number }> {
  const before = scriptedRequests().length;
  const answer = await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: '@scripted ' + JSON.stringify({ calls }),
    blockOnResponse: true,
    modelSelector: { vendor: FAKE_MODEL_VENDOR },
  });
  return { answer, before };
}

export async function turnDone(before: number): Promise<ScriptedRequest> {
  return waitFor(
    () => {
      const all = scriptedRequests();
      return all.length > before && all.at(-1)!.done ? all.at(-1) : undefined;
    },
    'the @scripted turn to finish',
    20_000,
  );
}

/**
 * "Chat: Reset Tool Confirmations": VS Code forgets every tool approval it remembers (the primary
 * button of a confirmation, which acceptTool presses, is "Allow in this Session" for the tool).
 */
export async function resetToolApprovals(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.resetTrustedTools');
  await vscode.commands.executeCommand('notifications.clearAll'); // its "reset" toast
}
