// The tools' input checks are compiled from package.json's inputSchema: the committed
// src/tools/inputValidators.generated.ts is what `npm run schemas` writes now, and the checks follow
// the schema (a schema changed without regenerating fails here).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkInput } from '../../src/tools/input';
import { TOOL_IDS } from '../../src/core/toolIds';

const root = path.resolve(__dirname, '../../..');

suite('tool input checks', () => {
  test('src/tools/inputValidators.generated.ts is what `npm run schemas` would write now', function () {
    this.timeout(30000);
    const now = execFileSync(process.execPath, [path.join(root, 'scripts', 'inputValidators.mjs'), '--stdout'], {
      cwd: root,
      encoding: 'utf8',
    });
    const committed = readFileSync(path.join(root, 'src', 'tools', 'inputValidators.generated.ts'), 'utf8');
    assert.equal(committed, now, "run `npm run schemas`: the validators differ from package.json's inputSchema");
  });

  test("each field is checked as the schema declares it, the first problem in the schema's order, null taken as absent", () => {
    const read = (input: Record<string, unknown>) => checkInput(TOOL_IDS.read, { filePath: 'a.txt', ...input });
    assert.deepEqual(read({ offset: 3, limit: null }), { ok: true, value: { filePath: 'a.txt', offset: 3 } });
    assert.deepEqual(read({ offset: 0 }), { ok: false, message: 'offset must be at least 1, got 0.' });
    assert.deepEqual(read({ offset: 1.5, limit: 'x' }), { ok: false, message: 'offset must be a whole number, got 1.5.' });
    const replace = (input: Record<string, unknown>) => checkInput(TOOL_IDS.replace, { filePath: 'a.txt', ...input });
    assert.deepEqual(replace({ oldString: 1, newString: 'b' }), { ok: false, message: 'oldString must be a string, got 1.' });
    assert.deepEqual(replace({ old_string: 'a', newString: 'b' }), {
      ok: false,
      message: 'oldString is missing. It is required. You passed "old_string": this tool calls it "oldString".',
    });
    assert.deepEqual(replace({ oldString: 'a', newString: null }), { ok: false, message: 'newString is missing. It is required.' });
    assert.deepEqual(replace({ oldString: 'a', newString: 'b', replaceAll: 'yes' }), {
      ok: false,
      message: 'replaceAll must be true or false, got "yes".',
    });
    const write = checkInput(TOOL_IDS.write, { filePath: 'a.txt', content: { text: 'x' } });
    assert.deepEqual(write, { ok: false, message: 'content must be a string, got an object.' });
  });
});
