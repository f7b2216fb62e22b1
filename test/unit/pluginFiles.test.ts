// The file of ours each agent with in-process plugins loads (pi's extension, Cline's and opencode's plugins): its text requires
// this install's bundled plugin and is told from a user's file of the same name; where each placement puts it and
// how it leaves (docs/design.md §Surfaces, src/hooks/filesOnDisk.ts `ownFiles`). One table, one row per agent; what
// is the agent's own (its folders, its plugin's events) is in its own test file (piExtension, clinePlugin, opencodePlugin).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clinePluginLoader, userPluginFile } from '../../src/agents/cline/node/pluginFile';
import { clinePluginFiles } from '../../src/agents/cline/node/pluginOnDisk';
import { opencodePluginLoader, userPluginFile as opencodeUserFile } from '../../src/agents/opencode/node/pluginFile';
import { opencodePluginFiles } from '../../src/agents/opencode/node/pluginOnDisk';
import { piExtensionLoader, userExtensionFile } from '../../src/agents/pi/node/extensionFile';
import { piExtensionFiles } from '../../src/agents/pi/node/extensionOnDisk';
import type { HookClients } from '../../src/hooks/command';
import type { CreatedFolders } from '../../src/hooks/agentDescriptor';
import type { PluginLoader } from '../../src/hooks/pluginLoader';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');
export const clients: HookClients = {
  runtime: process.execPath,
  nodeClient: path.join(DIST, 'hook-bridge.js'),
  bash: undefined,
  bashClient: path.join(DIST, 'hook-client.sh'),
};

interface PluginAgent {
  name: string;
  loader: PluginLoader;
  files: typeof piExtensionFiles;
  /** its bundle, dist/plugins/<folder>.js */
  agentFolder: string;
  userFile(home: string): string;
  /** the agent's own folder under the home, there before us */
  ownFolder: string;
  /** a user's own plugin file, of the agent's kind */
  theirs: string;
}

const AGENTS: PluginAgent[] = [
  {
    name: 'pi',
    loader: piExtensionLoader,
    files: piExtensionFiles,
    agentFolder: 'pi',
    userFile: userExtensionFile,
    ownFolder: '.pi/agent',
    theirs: 'export default function (pi) {}\n',
  },
  {
    name: 'Cline',
    loader: clinePluginLoader,
    files: clinePluginFiles,
    agentFolder: 'cline',
    userFile: userPluginFile,
    ownFolder: '.cline',
    theirs: "export default { name: 'mine', manifest: {} };\n",
  },
  {
    name: 'opencode',
    loader: opencodePluginLoader,
    files: opencodePluginFiles,
    agentFolder: 'opencode',
    userFile: opencodeUserFile,
    ownFolder: '.config/opencode',
    theirs: 'export const Mine = async () => ({});\n',
  },
];

for (const agent of AGENTS) {
  suite(`${agent.name}: the file of ours it loads`, () => {
    test(`it requires this install's plugin (dist/plugins/${agent.agentFolder}.js), by a name, and is told from a file of the user's by its first line`, () => {
      const text = agent.loader.text(clients);
      const plugin = path.join(DIST, 'plugins', `${agent.agentFolder}.js`);
      assert.ok(text.includes(`const plugin = ${JSON.stringify(plugin)};`), text);
      assert.ok(!text.includes(`require(${JSON.stringify(plugin)})`), 'no literal require: an agent that scans them would refuse the file');
      assert.ok(agent.loader.isOurs(text));
      assert.ok(!agent.loader.isOurs(agent.theirs));
      assert.ok(!agent.loader.isOurs(`// mine\n${text}`), 'our line anywhere but first is not ours');
    });
  });

  suite(`${agent.name}: the file of ours on disk, by placement`, () => {
    let root = '';
    let home = '';
    let ws = '';
    let created: Set<string>;
    const log = new MemoryLog();
    const createdFolders = (): CreatedFolders => created;
    const sync = (placement: 'off' | 'user' | 'workspace', trusted = true) =>
      agent.files.sync(placement, clients, [ws], log, { trusted, created: createdFolders(), home });
    const userFile = () => agent.userFile(home);
    const folderFile = () => agent.files.folderFile(ws);

    setup(() => {
      root = tempFolder('aeg-plugin-');
      home = path.join(root, 'home');
      ws = path.join(root, 'ws');
      fs.mkdirSync(path.join(home, ...agent.ownFolder.split('/')), { recursive: true });
      fs.mkdirSync(ws);
      created = new Set();
    });
    teardown(() => fs.rmSync(root, { recursive: true, force: true }));

    test(`user: our file in its user folder; off: it goes, with the folder we made; ${agent.name}'s own folder stays`, () => {
      assert.deepEqual(sync('user'), []);
      assert.ok(agent.loader.isOurs(fs.readFileSync(userFile(), 'utf8')));
      assert.ok(!fs.existsSync(folderFile()), 'nothing in the workspace');
      assert.deepEqual(sync('off'), []);
      assert.ok(!fs.existsSync(path.dirname(userFile())), 'its folder was made for our file alone');
      assert.ok(fs.existsSync(path.join(home, ...agent.ownFolder.split('/'))), `${agent.name}'s folder was there before us`);
    });

    test('workspace: in each folder; off takes out the file and every folder we made; an untrusted window writes nothing', () => {
      assert.deepEqual(sync('workspace', false), []);
      assert.deepEqual(fs.readdirSync(ws), []);
      assert.deepEqual(sync('workspace'), []);
      assert.ok(agent.loader.isOurs(fs.readFileSync(folderFile(), 'utf8')));
      assert.ok(!fs.existsSync(userFile()));
      assert.deepEqual(sync('off'), []);
      assert.deepEqual(fs.readdirSync(ws), [], 'the folders were ours: all gone');
    });

    test('a file of that name that is not ours is never written over nor removed, and is named', () => {
      fs.mkdirSync(path.dirname(userFile()), { recursive: true });
      fs.writeFileSync(userFile(), agent.theirs);
      const left = sync('user');
      assert.equal(left.length, 1);
      assert.equal(left[0].file, userFile());
      assert.match(left[0].reason, /not ours/);
      assert.deepEqual(sync('off'), []);
      assert.equal(fs.readFileSync(userFile(), 'utf8'), agent.theirs);
    });

    test("the uninstall script's part: our user-level file goes; a user's own beside it stays", () => {
      sync('user');
      fs.writeFileSync(path.join(path.dirname(userFile()), 'theirs.ts'), agent.theirs);
      agent.files.removeUserLevel(log, home);
      assert.deepEqual(fs.readdirSync(path.dirname(userFile())), ['theirs.ts']);
    });
  });
}
