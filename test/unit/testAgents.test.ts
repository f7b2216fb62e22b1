// The convention the shared suites find the agents by (test/shared/testAgents.ts): an agent's test folder is named
// as its folder in src/agents and holds its testAgent.ts. A folder named otherwise would drop its agent from every
// shared suite without a word; this says so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENTS } from '../../src/agents/catalog';
import { TEST_AGENTS, testFolderOf } from '../shared/testAgents';

const repo = path.join(__dirname, '..', '..', '..');

suite('the test agents: found from the catalog by their folders', () => {
  test('each agent of the catalog has its folder in src/agents named as its test folder', () => {
    for (const agent of AGENTS) assert.ok(fs.existsSync(path.join(repo, 'src', 'agents', testFolderOf(agent))), testFolderOf(agent));
  });

  test('every testAgent.ts under test/ is found: its folder is an agent of the catalog', () => {
    // test/shared/testAgent.ts is the shape itself, no agent's
    const folders = fs
      .readdirSync(path.join(repo, 'test'))
      .filter((f) => f !== 'shared' && fs.existsSync(path.join(repo, 'test', f, 'testAgent.ts')));
    assert.deepEqual(
      folders.sort(),
      AGENTS.map(testFolderOf)
        .filter((f) => folders.includes(f))
        .sort(),
    );
    assert.equal(TEST_AGENTS.length, folders.length);
  });

  test("each test agent is its catalog agent: the same setting, and its name in the agent's hooks", () => {
    for (const agent of TEST_AGENTS) {
      const catalog = AGENTS.find((a) => a.hooks.name === agent.name);
      assert.ok(catalog, `${agent.name} is an agent of the catalog`);
      assert.equal(agent.setting, catalog.setting, agent.name);
    }
  });
});
