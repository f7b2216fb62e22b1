// Claude Code's hook entries on disk (src/agents/claudeCode/node/settingsOnDisk.ts): the three placements
// of editGuard.guardClaudeCode, files we cannot read, the folders we made, links and permissions, the
// uninstall script; and the entries' commands run as Claude Code runs them (/bin/sh -c, the payload on
// stdin) against the real bridge server.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLIENT_SCRIPT_NAME } from '../../src/hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME } from '../../src/hooks/command';
import { ENV } from '../../src/hooks/protocol';
import { BridgeServer } from '../../src/hooks/server';
import {
  claudeHookEntries,
  CLAUDE_HOOK_EVENTS,
  holdsOurHooks,
  isOurs,
  withOurHooks,
  withoutOurHooks,
} from '../../src/agents/claudeCode/node/settings';
import type { CreatedFolders } from '../../src/hooks/agentDescriptor';
import {
  addOurClaudeHooks,
  localClaudeSettingsFile,
  removeOurClaudeHooks,
  syncClaudeHooks,
  userClaudeSettingsFile,
} from '../../src/agents/claudeCode/node/settingsOnDisk';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');
const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim() || undefined;
const odd: HookClients = {
  runtime: "/opt/Code it's/code",
  nodeClient: '/ext/dist/hook-bridge.js',
  bash: '/bin/bash',
  bashClient: '/ext/dist/hook-client.sh',
};
const ENTRIES = claudeHookEntries(odd);
/** Our entries as a file holds them: each event's list of groups. */
const AS_LISTS = Object.fromEntries(CLAUDE_HOOK_EVENTS.map((e) => [e, [ENTRIES[e]]]));
/** A settings file of the user's: permissions, model, hooks of their own. */
const USERS = `${JSON.stringify({ permissions: { allow: ['Bash(npm run test:*)'] }, model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'npx block-rm', timeout: 5 }] }] } }, null, 2)}\n`;
const text = (edit: ReturnType<typeof withOurHooks>) => {
  assert.ok(edit.ok, `not ok: ${!edit.ok && edit.reason}`);
  return edit.text;
};
const parsed = (edit: ReturnType<typeof withOurHooks>) => JSON.parse(text(edit) ?? 'null');

/** A scratch home and workspace folders; removed after each test. */
function scratch() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-claude-'));
  const home = path.join(root, 'home');
  const folders = [path.join(root, 'ws-a'), path.join(root, 'ws-b')];
  for (const d of [home, ...folders]) fs.mkdirSync(d);
  return { root, home, folders, userFile: userClaudeSettingsFile(home), localFiles: folders.map(localClaudeSettingsFile) };
}
const memoryFolders = (): CreatedFolders & { dirs: Set<string> } => {
  const dirs = new Set<string>();
  return { dirs, has: (d) => dirs.has(d), add: (d) => void dirs.add(d), delete: (d) => void dirs.delete(d) };
};
const read = (file: string) => fs.readFileSync(file, 'utf8');
const write = (file: string, content: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};

suite('Claude Code settings on disk (editGuard.guardClaudeCode)', () => {
  let s: ReturnType<typeof scratch>;
  let log: MemoryLog;
  setup(() => {
    s = scratch();
    log = new MemoryLog();
  });
  teardown(() => fs.rmSync(s.root, { recursive: true, force: true }));

  const sync = (placement: 'off' | 'user' | 'workspace', created?: CreatedFolders, trusted = true) =>
    syncClaudeHooks(placement, odd, s.folders, log, { trusted, created, home: s.home });

  test("user: our entries in ~/.claude/settings.json, merged with the user's, and none in the folders; off: ours gone, theirs byte for byte", () => {
    write(s.userFile, USERS);
    assert.deepEqual(sync('user'), []);
    assert.deepEqual(JSON.parse(read(s.userFile)), JSON.parse(text(withOurHooks(USERS, ENTRIES))!));
    for (const f of s.localFiles) assert.equal(fs.existsSync(path.dirname(f)), false, 'nothing in the workspace');
    assert.ok(
      log.lines.some((l) => l.startsWith('info Claude Code hooks: added our entries to') && l.includes(s.userFile)),
      log.lines.join('\n'),
    );
    const mtime = fs.statSync(s.userFile).mtimeMs;
    assert.deepEqual(sync('user'), []);
    assert.equal(fs.statSync(s.userFile).mtimeMs, mtime, 'in step already: not written again');
    assert.deepEqual(sync('off'), []);
    assert.equal(read(s.userFile), USERS);
    assert.deepEqual(fs.readdirSync(path.join(s.home, '.claude')).sort(), ['settings.json'], 'no temporary file left behind');
  });

  test("workspace: our entries in each folder's .claude/settings.local.json and none at user level; back to user moves them", () => {
    write(s.userFile, text(withOurHooks(USERS, ENTRIES))!);
    write(s.localFiles[1], '{\n  "permissions": {\n    "allow": [\n      "Bash(ls)"\n    ]\n  }\n}\n');
    const created = memoryFolders();
    assert.deepEqual(sync('workspace', created), []);
    assert.equal(read(s.userFile), USERS, 'ours left the user settings');
    assert.deepEqual(parsed(withoutOurHooks(read(s.localFiles[0]))), null, 'folder a: only ours');
    assert.deepEqual(JSON.parse(read(s.localFiles[1])).permissions, { allow: ['Bash(ls)'] });
    assert.deepEqual(JSON.parse(read(s.localFiles[1])).hooks, AS_LISTS);
    assert.deepEqual([...created.dirs], [path.dirname(s.localFiles[0])], "we made folder a's .claude, not b's");
    assert.deepEqual(sync('user', created), []);
    assert.equal(fs.existsSync(path.dirname(s.localFiles[0])), false, 'the .claude we made, left empty, is gone');
    assert.equal(read(s.localFiles[1]), '{\n  "permissions": {\n    "allow": [\n      "Bash(ls)"\n    ]\n  }\n}\n');
    assert.deepEqual(created.dirs.size, 0);
    assert.deepEqual(JSON.parse(read(s.userFile)).hooks.PreToolUse.filter(isOurs), [ENTRIES.PreToolUse]);
  });

  test("off: a file that held only ours goes, and the .claude folder with it if we made it; a .claude folder that was the user's stays", () => {
    const created = memoryFolders();
    assert.deepEqual(sync('user', created), []);
    assert.deepEqual([...created.dirs], [path.join(s.home, '.claude')]);
    assert.deepEqual(sync('off', created), []);
    assert.equal(fs.existsSync(path.join(s.home, '.claude')), false);
    fs.mkdirSync(path.join(s.home, '.claude'));
    assert.deepEqual(sync('user', created), []);
    assert.deepEqual(created.dirs.size, 0, 'the folder was there: not ours');
    assert.deepEqual(sync('off', created), []);
    assert.equal(fs.existsSync(s.userFile), false);
    assert.equal(fs.existsSync(path.join(s.home, '.claude')), true, "the user's folder stays, empty");
  });

  test('a file we cannot read as settings is never touched: a warning names it and why, and the others are still done', () => {
    const malformed = '{ "model": "opus", // my comment\n}\n';
    write(s.userFile, malformed);
    const problems = sync('user');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].file, s.userFile);
    assert.match(problems[0].reason, /not valid JSON/);
    assert.equal(read(s.userFile), malformed);
    assert.ok(
      log.lines.some((l) => l.startsWith(`warn Claude Code hooks: left ${s.userFile} as it was: it is not valid JSON`)),
      log.lines.join('\n'),
    );
    write(s.localFiles[0], '{"hooks":[]}');
    assert.deepEqual(
      sync('workspace').map((p) => [p.file, p.reason]),
      [[s.localFiles[0], 'its "hooks" is not a JSON object']],
      'the user file holds nothing of ours: no warning about it when removing',
    );
    assert.equal(read(s.localFiles[0]), '{"hooks":[]}');
    assert.equal(read(s.userFile), malformed);
    assert.deepEqual(JSON.parse(read(s.localFiles[1])).hooks, AS_LISTS, 'folder b is guarded all the same');
    // a broken file that names our client may hold our entries: removing says why it could not
    const brokenOurs = `${text(withOurHooks(undefined, ENTRIES))!.slice(0, -3)}\n`;
    write(s.userFile, brokenOurs);
    assert.deepEqual(
      sync('off').map((p) => p.file),
      [s.userFile],
    );
    assert.equal(read(s.userFile), brokenOurs);
  });

  test('a file the file system will not give us is reported, not taken for missing', function () {
    if (process.platform === 'win32' || process.getuid?.() === 0) this.skip(); // root reads anything
    write(s.userFile, USERS);
    fs.chmodSync(s.userFile, 0o000);
    try {
      const problems = sync('user');
      assert.equal(problems.length, 1);
      assert.match(problems[0].reason, /EACCES/);
    } finally {
      fs.chmodSync(s.userFile, 0o644);
    }
    assert.equal(read(s.userFile), USERS);
  });

  test('a folder in place of the file is reported and left', () => {
    fs.mkdirSync(s.userFile, { recursive: true });
    const problems = sync('user');
    assert.deepEqual(
      problems.map((p) => p.file),
      [s.userFile],
    );
    assert.match(problems[0].reason, /EISDIR/);
    assert.ok(fs.statSync(s.userFile).isDirectory());
  });

  test('an untrusted window writes nothing, leaves the user-level entries to the other windows, and takes ours out of its folders', () => {
    write(s.userFile, text(withOurHooks(USERS, ENTRIES))!);
    write(s.localFiles[0], text(withOurHooks(undefined, ENTRIES))!);
    assert.deepEqual(sync('user', undefined, false), []);
    assert.ok(holdsOurHooks(read(s.userFile)));
    assert.equal(fs.existsSync(s.localFiles[0]), false);
    assert.deepEqual(sync('workspace', undefined, false), []);
    assert.equal(read(s.userFile), USERS, '`workspace` moves them out of the user settings, trusted or not');
    assert.equal(fs.existsSync(s.localFiles[1]), false, 'and writes no folder');
  });

  test("the file's permissions are kept, and a settings file that is a symbolic link stays a link (its target is written)", function () {
    if (process.platform === 'win32') this.skip();
    const real = path.join(s.root, 'dotfiles', 'claude-settings.json');
    write(real, USERS);
    fs.chmodSync(real, 0o600);
    fs.mkdirSync(path.dirname(s.userFile));
    fs.symlinkSync(real, s.userFile);
    assert.deepEqual(sync('user'), []);
    assert.ok(fs.lstatSync(s.userFile).isSymbolicLink());
    assert.ok(holdsOurHooks(read(real)));
    assert.equal(fs.statSync(real).mode & 0o777, 0o600);
    assert.deepEqual(sync('off'), []);
    assert.equal(read(real), USERS);
    // a link to a file of ours alone: the link stays, its file is left empty settings
    fs.writeFileSync(real, text(withOurHooks(undefined, ENTRIES))!);
    assert.deepEqual(sync('off'), []);
    assert.ok(fs.lstatSync(s.userFile).isSymbolicLink());
    assert.equal(read(real), '{}\n');
  });

  test('addOurClaudeHooks and removeOurClaudeHooks alone: a missing file is made with its folder, and removed with it', () => {
    const created = memoryFolders();
    const file = s.localFiles[0];
    assert.equal(addOurClaudeHooks(file, ENTRIES, log, created), undefined);
    assert.deepEqual(JSON.parse(read(file)), { hooks: AS_LISTS });
    assert.equal(removeOurClaudeHooks(file, log, created), undefined);
    assert.equal(fs.existsSync(path.dirname(file)), false);
    assert.equal(removeOurClaudeHooks(file, log, created), undefined, 'nothing there: nothing to do');
  });

  test("the uninstall script (dist/uninstall.js, as VS Code runs it) takes our entries out of ~/.claude/settings.json and keeps the user's", () => {
    const run = () =>
      spawnSync(process.execPath, [path.join(DIST, 'uninstall.js'), '--type=extension-post-uninstall'], {
        env: { ...process.env, HOME: s.home, USERPROFILE: s.home },
        encoding: 'utf8',
      });
    write(s.userFile, text(withOurHooks(USERS, ENTRIES))!);
    let r = run();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(read(s.userFile), USERS);
    assert.match(r.stdout, /removed our entries from .*settings\.json/);
    write(s.userFile, text(withOurHooks(undefined, ENTRIES))!);
    r = run();
    assert.equal(fs.existsSync(path.join(s.home, '.claude')), false, `only ours, in a folder of its own: both gone (${r.stdout})`);
    const malformed = '{"hooks": {"PreToolUse": [hook-client.sh';
    write(s.userFile, malformed);
    r = run();
    assert.equal(r.status, 0);
    assert.equal(read(s.userFile), malformed);
    assert.match(r.stderr, /left .* as it was: it is not valid JSON/);
  });
});

suite("Claude Code's hook commands, run as Claude Code runs them", function () {
  this.timeout(20000);
  const clientsIn = (bash: string | undefined): HookClients => ({
    runtime: process.execPath,
    nodeClient: path.join(DIST, NODE_CLIENT_NAME),
    bash,
    bashClient: path.join(DIST, CLIENT_SCRIPT_NAME),
  });
  /** sh -c, the payload on stdin, our environment without the bridge's unless given. */
  function run(command: string, env: Record<string, string>, payload: string): Promise<{ code: number | null; stdout: string }> {
    const clean = { ...process.env };
    for (const key of [...Object.values(ENV), 'ELECTRON_RUN_AS_NODE']) delete clean[key];
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...clean, HOME: tempFolder('aeg-home-'), ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdin.on('error', () => {});
    child.stdin.end(payload);
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
  }
  const edit = JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: '/ws/a', old_string: 'a', new_string: 'b', replace_all: false },
  });

  for (const bash of BASH ? [BASH, undefined] : [undefined]) {
    test(`${bash ? 'bash' : 'Node'} client: an Edit reaches this window's extension and its answer is printed; without the extension it exits at once`, async function () {
      if (process.platform === 'win32') this.skip();
      const seen: string[] = [];
      const server = await BridgeServer.start(async (agent, p) => (seen.push(`${agent} ${p}`), 'answer'), new MemoryLog());
      try {
        const command = claudeHookEntries(clientsIn(bash)).PreToolUse.hooks[0].command;
        assert.deepEqual(await run(command, server.environment, edit), { code: 0, stdout: 'answer' });
        assert.deepEqual(seen, [`claude-code ${edit}`], "the payload reached the extension as Claude Code's");
        assert.deepEqual(await run(command, {}, edit), { code: 0, stdout: '' });
        assert.equal(seen.length, 1);
      } finally {
        server.dispose();
      }
    });
  }
});
