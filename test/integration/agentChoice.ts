// An agent's choice and offer as a user meets them (src/agents/registration.ts), driven through the
// rendered workbench: the same words for every agent, made of what its descriptor says is guarded.
// Written once for the agents' suites (copilotGuard, claudeGuard, codexGuard, and the Copilot suite's
// offer).
import * as vscode from 'vscode';
import * as assert from 'assert';
import { commandOf, type AgentDescriptor } from '../../src/hooks/agentDescriptor';
import { AGENTS } from '../../src/agents/catalog';
import { TEST_COMMANDS } from '../../src/commands';
import { notification, ui, waitFor } from './helpers';
import { visibleText } from './ui';

/** The agent of the list with this setting (the suites name an agent by its setting). */
export function agentWithSetting(setting: string): AgentDescriptor {
  const agent = AGENTS.find((a) => a.setting === setting && a.entries !== undefined);
  assert.ok(agent, `an agent with the setting ${setting}`);
  return agent;
}

/** Waits until the quick input shows `text`; returns all it shows. */
export async function quickInputShowing(text: string, what: string): Promise<string> {
  return waitFor(
    async () => {
      const t = await visibleText('.quick-input-widget');
      return t.includes(text) ? t : undefined;
    },
    what,
    5000,
    100,
  );
}

/** Picks an item of the open quick input by its words. */
export async function pick(words: string): Promise<void> {
  await ui({ action: 'type', text: words });
  await ui({ action: 'press', key: 'Enter' });
}

/**
 * The agent's choice as reached from the status bar's quick pick (its line there, then Enter): returns the
 * choice's text, after checking its line, its title and its three items.
 */
export async function choiceFromReadMarks(agent: AgentDescriptor): Promise<string> {
  void vscode.commands.executeCommand('editGuard.showReadMarks');
  const line = `Guard ${agent.guarded}…`;
  const marks = await quickInputShowing(line, `the read marks quick pick with ${line}`);
  assert.ok(marks.includes(line), marks);
  await pick(`Guard ${agent.guarded}`);
  const choice = await quickInputShowing('Turn on in this workspace only', 'the choice');
  assert.ok(choice.includes(`Guard ${agent.guarded}`), `the title names what is guarded: ${choice}`);
  assert.match(choice, /Turn on.*our entries at user level, in /s, choice);
  assert.ok(choice.includes(`hook entries in each folder's ${agent.entries?.folderFile}`), choice);
  return choice;
}

/** The agent's choice through its own command; `words` picked. */
export async function chooseThroughCommand(agent: AgentDescriptor, words: string): Promise<void> {
  void vscode.commands.executeCommand(commandOf(agent));
  await quickInputShowing('Turn off', 'the choice');
  await pick(words);
}

/** The agent's one-time offer shown again (as on a fresh profile); returns its text once it is up. */
export async function offerShown(agent: AgentDescriptor): Promise<string> {
  void vscode.commands.executeCommand(TEST_COMMANDS.offerAgain, agent.hooks.id);
  return notification(`guard ${agent.guarded} too`);
}

/**
 * Clicks *Turn on* in the agent's offer: the click sent to the button itself, since the status bar's hover can lie
 * over the notifications (a full run left it up over the notification centre, and a pointer click waited for ever).
 */
export async function turnOnInOffer(agent: AgentDescriptor): Promise<void> {
  const click = await ui({
    action: 'click',
    within: `.notification-list-item:has-text("guard ${agent.guarded} too") >> visible=true`,
    role: 'button',
    name: 'Turn on',
    exact: true,
    dispatch: true,
  });
  assert.ok(click.ok, JSON.stringify(click));
}
