// opencode as the shared suites drive it (test/shared/testAgent.ts): our plugin in its plugin folder, its tools as
// its model calls them (test/opencode/FACTS.md), against the scripted Chat Completions API.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import type { TestAgentFacts } from '../shared/testAgent';
import { describeOpencodeRun, makeOpencodeHome, runOpencode } from './opencode';
import { eventsTest } from './events';

/** The bundled plugin a file of ours requires (its `const plugin = "<path>"` line), as the file itself does. */
function requiredBy(file: string): unknown {
  const m = /^const plugin = (".*");$/m.exec(fs.readFileSync(file, 'utf8'));
  if (!m) throw new Error(`opencode's plugin: ${file} names no plugin`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(JSON.parse(m[1]) as string);
}

export const testAgent: TestAgentFacts = {
  cliPackage: 'opencode-ai',
  guardedBy: 'our plugin',
  failed: /^Error|could not find|not found|Found multiple matches/i,
  // `<path>…</path><type>file</type><content>` then `1: line` lines, then `(End of file - total N lines)`
  readText: (result) => {
    const content = /<content>\n([\s\S]*?)\n<\/content>/.exec(result)?.[1] ?? '';
    return `${content
      .split('\n')
      .flatMap((l) => /^\d+: ?(.*)$/.exec(l)?.slice(1, 2) ?? [])
      .join('\n')}\n`;
  },
  read: (file) => ({ tool: 'read', args: { filePath: file } }),
  replace: (file, old, replacement) => ({ tool: 'edit', args: { filePath: file, oldString: old, newString: replacement } }),
  write: (file, content) => ({ tool: 'write', args: { filePath: file, content } }),
  shell: (command) => ({ tool: 'bash', args: { command, description: 'as asked' } }),
  readsBeforeOverwrite: false,
  makeHome: makeOpencodeHome,
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
  run: runOpencode,
  describe: describeOpencodeRun,
  events: eventsTest,
  bench: {
    id: 'opencode',
    plugin: {
      name: "opencode's plugin",
      load(file) {
        // opencode imports the file (an ES module), which hands over the bundle's hooks for its folder
        const hooks = (
          requiredBy(file) as { opencodeHooks(ctx: object): Record<string, (input: object, output: object) => Promise<unknown>> }
        ).opencodeHooks({
          directory: os.homedir(),
        });
        const refused = (run: Promise<unknown>) =>
          run.then(
            () => false,
            () => true,
          );
        return {
          prompt: (chat) => hooks['chat.message']({ sessionID: chat }, { parts: [{ type: 'text', text: 'bench' }] }),
          beforeRead: (chat, file, call) =>
            refused(hooks['tool.execute.before']({ tool: 'read', sessionID: chat, callID: call }, { args: { filePath: file } })),
          afterRead: (chat, file, call) =>
            hooks['tool.execute.after']({ tool: 'read', sessionID: chat, callID: call, args: { filePath: file } }, {}),
          beforeEdit: (chat, file, call) =>
            refused(
              hooks['tool.execute.before'](
                { tool: 'edit', sessionID: chat, callID: call },
                { args: { filePath: file, oldString: 'x', newString: 'y' } },
              ),
            ),
          afterEdit: (chat, file, call) =>
            hooks['tool.execute.after'](
              { tool: 'edit', sessionID: chat, callID: call, args: { filePath: file, oldString: 'x', newString: 'y' } },
              {},
            ),
        };
      },
    },
  },
  leavesInFolder: '.opencode',
};
