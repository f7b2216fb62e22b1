// The agents the shared suites drive, found, not listed: each agent of the catalog (src/agents/catalog.ts), in its
// order, whose test folder — named as its folder in src/agents, its hooks' id in camel case (`claude-code` →
// test/claudeCode) — holds a `testAgent.ts` (test/shared/testAgent.ts). A new agent is its src folder and its test
// folder; nothing shared names it.
import { AGENTS } from '../../src/agents/catalog';
import type { AgentDescriptor } from '../../src/hooks/agentDescriptor';
import type { TestAgent, TestAgentFacts } from './testAgent';

/** An agent's folder under test/ (and src/agents): its hooks' id in camel case. */
export const testFolderOf = (agent: AgentDescriptor) => agent.hooks.id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The entries a setting writes: those of the agent that owns it (the Copilot CLI runs Copilot's hooks file). */
const entriesOf = (setting: string) => AGENTS.find((a) => a.setting === setting && a.entries)?.entries;

/** The test agent in a folder, if it has one (the Copilot agents are driven through VS Code, not a CLI of theirs). */
function testAgentIn(folder: string): TestAgentFacts | undefined {
  try {
    // esbuild bundles every test/*/testAgent.ts this pattern matches; a folder that has none throws "not found"
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path made of the folder, which an import cannot take
    return (require(`../${folder}/testAgent.ts`) as { testAgent: TestAgentFacts }).testAgent;
  } catch (e) {
    if (/Module not found in bundle|Cannot find module/.test(String(e))) return undefined;
    throw e;
  }
}

/** Every agent with a test folder's `testAgent.ts`, in the catalog's order. */
export const TEST_AGENTS: readonly TestAgent[] = AGENTS.flatMap((agent) => {
  const facts = testAgentIn(testFolderOf(agent));
  if (!facts) return [];
  const folderEntries = facts.folderEntries ?? entriesOf(agent.setting)?.folderFile;
  if (!folderEntries) throw new Error(`${agent.hooks.name}: no entries of its own nor of its setting's agent`);
  return [{ ...facts, name: agent.hooks.name, setting: agent.setting, folderEntries }];
});

/** The test agent named `name` (one agent's facts that another's stand on: the Copilot harness runs on the Copilot CLI's runtime). */
export function testAgentNamed(name: string): TestAgent {
  const found = TEST_AGENTS.find((a) => a.name === name);
  if (!found) throw new Error(`no test/<agent>/testAgent.ts names ${name}`);
  return found;
}

/** Its user-level file of our entries (its settings file, or our plugin's file), as the catalog says. */
export function userFileOf(agent: TestAgent): string {
  const [file] = entriesOf(agent.setting)?.userFiles() ?? [];
  if (!file) throw new Error(`the catalog has no user file of ${agent.name}'s entries`);
  return file;
}
