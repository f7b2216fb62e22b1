// Codex's hook entries, their trust, and both merged into files that are the user's too
// (src/agents/codex/node/hooks.ts, pure; hooksOnDisk.ts on a scratch folder): the user's hooks.json and
// config.toml kept byte for byte, a file that cannot be read left alone, the trust hash against the
// values the real CLI reported, a project's own trust never written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  codexHookEntries,
  CODEX_HOOK_EVENTS,
  projectTrusted,
  TRUST_MARK,
  trustHash,
  trustKey,
  trustOfOurEntries,
  withOurTrust,
} from '../../src/agents/codex/node/hooks';
import { removeUserLevelEntries, syncCodexHooks } from '../../src/agents/codex/node/hooksOnDisk';
import type { HookClients } from '../../src/hooks/command';
import { withOurGroups, withoutOurGroups } from '../../src/hooks/hookEntries';
import { MemoryLog } from './memoryDocuments';

const clients: HookClients = {
  runtime: '/opt/code/code',
  nodeClient: '/ext/dist/hook-bridge.js',
  bash: '/bin/bash',
  bashClient: '/ext/dist/hook-client.sh',
};
const ENTRIES = codexHookEntries(clients);

/** A hooks.json of the user's own, as they might write it (two spaces, a final newline). */
const USERS_HOOKS = `${JSON.stringify(
  {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ~/.codex/block-rm.py', timeout: 5 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    },
  },
  null,
  2,
)}\n`;
/** A config.toml of the user's own: settings, a project, their own hook's trust, comments, no final newline. */
const USERS_CONFIG = `# my Codex settings
model = "gpt-5.5"
approval_policy = "on-request"

[projects."/home/me/work"]
trust_level = "trusted"

[hooks.state."/home/me/.codex/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

[mcp_servers.docs]
command = "docs-mcp"`;

suite("Codex's hook entries and their trust", () => {
  test("one group per event, the tool events matched to Bash|apply_patch; the command is every agent's, naming codex, run by /bin/sh whatever the login shell", () => {
    assert.deepEqual(Object.keys(ENTRIES), ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact']);
    assert.equal(ENTRIES.PreToolUse.matcher, 'Bash|apply_patch');
    assert.equal(ENTRIES.PostToolUse.matcher, 'Bash|apply_patch');
    assert.equal(ENTRIES.UserPromptSubmit.matcher, undefined);
    const [hook] = ENTRIES.PreToolUse.hooks;
    assert.equal(hook.timeout, 15);
    assert.match(hook.command, /^\/bin\/sh -c '\[ -f '\\''\/ext\/dist\/hook-client\.sh'\\'' \] && /);
    assert.match(
      hook.command,
      /exec '\\''\/bin\/bash'\\'' '\\''\/ext\/dist\/hook-client\.sh'\\'' '\\''codex'\\'' '\\''PreToolUse'\\'' '\\''Bash'\\'' '\\''apply_patch'\\'''$/,
    );
  });

  test('the trust hash equals what the real CLI (0.171.0, codex app-server hooks/list currentHash) reported for these hooks', () => {
    // measured once with the pinned CLI on a hooks.json holding exactly these commands; `npm run codex:probe` checks it again
    assert.equal(
      trustHash('PreToolUse', 'Bash', { type: 'command', command: 'user-own' } as never),
      'sha256:3da0cb092fc3589811a77b7e3812e2e81253cc83f1f8ac32df148dc6f958d3f8',
    );
    assert.equal(
      trustHash('PreToolUse', 'Bash|apply_patch', { type: 'command', command: "/bin/sh -c 'exec cat >/dev/null'", timeout: 15 }),
      'sha256:83f0acbb3198c45ced3e9515b0228da5d97a3fd6c13656dcfb43d45b68a30eb9',
    );
    assert.equal(
      trustHash('PreCompact', undefined, { type: 'command', command: 'x', timeout: 15 }),
      'sha256:f08946971d9deecb3b439aeaba6f3fbe271d795639b7a01a6b0d353dd99f2d1b',
    );
    assert.equal(
      trustHash('UserPromptSubmit', undefined, { type: 'command', command: "/bin/sh -c 'echo hi'", timeout: 15 }),
      'sha256:774a009d65aaf8356e6dcf49f55e349a7d95fa7833e43958b06644f20a4013b6',
    );
    assert.equal(trustKey('/h/.codex/hooks.json', 'UserPromptSubmit', 0, 0), '/h/.codex/hooks.json:user_prompt_submit:0:0');
  });

  test("the trust of our entries follows where they stand in the file: after the user's own group, ours is group 1", () => {
    const merged = withOurGroups(USERS_HOOKS, CODEX_HOOK_EVENTS, ENTRIES);
    assert.ok(merged.ok && merged.text);
    const trust = trustOfOurEntries('/h/hooks.json', merged.text);
    assert.deepEqual([...trust.keys()].sort(), [
      '/h/hooks.json:post_tool_use:0:0',
      '/h/hooks.json:pre_compact:0:0',
      '/h/hooks.json:pre_tool_use:1:0',
      '/h/hooks.json:user_prompt_submit:0:0',
    ]);
    assert.equal(trust.get('/h/hooks.json:pre_tool_use:1:0'), trustHash('PreToolUse', 'Bash|apply_patch', ENTRIES.PreToolUse.hooks[0]));
    const back = withoutOurGroups(merged.text);
    assert.deepEqual(back, { ok: true, text: USERS_HOOKS }, "the user's hooks.json byte for byte");
  });

  test("config.toml: our trust lines are added, marked, and taken out again, and the user's file comes back byte for byte", () => {
    const want = new Map([
      ['/h/hooks.json:pre_tool_use:1:0', 'sha256:aa'],
      ['/h/hooks.json:user_prompt_submit:0:0', 'sha256:bb'],
    ]);
    const added = withOurTrust(USERS_CONFIG, want, new Map(), ['/h/hooks.json']);
    assert.ok(added.ok && added.text);
    assert.ok(added.text.startsWith(USERS_CONFIG), 'everything of the user stays, in place');
    assert.equal(
      added.text.slice(USERS_CONFIG.length),
      `\n\n[hooks.state."/h/hooks.json:pre_tool_use:1:0"]\ntrusted_hash = "sha256:aa" ${TRUST_MARK}\n\n[hooks.state."/h/hooks.json:user_prompt_submit:0:0"]\ntrusted_hash = "sha256:bb" ${TRUST_MARK}`,
    );
    assert.deepEqual(withOurTrust(added.text, want, new Map(), ['/h/hooks.json']), { ok: true, text: added.text }, 'in step: unchanged');
    // a new hash (an update of the extension moved its clients) replaces ours where it stands
    const moved = withOurTrust(added.text, new Map([...want, ['/h/hooks.json:pre_tool_use:1:0', 'sha256:cc']]), new Map(), [
      '/h/hooks.json',
    ]);
    assert.ok(moved.ok && moved.text?.includes('trusted_hash = "sha256:cc"') && !moved.text.includes('sha256:aa'));
    const removed = withOurTrust(added.text, new Map(), new Map(), ['/h/hooks.json']);
    assert.deepEqual(removed, { ok: true, text: USERS_CONFIG }, 'off: byte for byte');
    // CRLF, and a file that ends with a line break
    const crlf = `${USERS_CONFIG.replace(/\n/g, '\r\n')}\r\n`;
    const crlfAdded = withOurTrust(crlf, want, new Map(), ['/h/hooks.json']);
    assert.ok(crlfAdded.ok && crlfAdded.text && !/[^\r]\n/.test(crlfAdded.text));
    assert.deepEqual(withOurTrust(crlfAdded.text, new Map(), new Map(), ['/h/hooks.json']), { ok: true, text: crlf });
  });

  test("config.toml: the user's own trust lines stay, also for the same hooks file; one of theirs for our hook counts as ours; a table of theirs keeps its other keys", () => {
    const theirs = '[hooks.state."/h/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:user"\n';
    const ours = '/h/hooks.json:pre_tool_use:1:0';
    // no line of ours to take out: the user's stays
    assert.deepEqual(withOurTrust(theirs, new Map(), new Map(), ['/h/hooks.json']), { ok: true, text: theirs });
    // the user trusted our hook themselves (Codex's /hooks): not marked, but its key and hash are our entry's
    const trustedByUser = `${theirs}\n[hooks.state."${ours}"]\ntrusted_hash = "sha256:ours"\n`;
    assert.deepEqual(withOurTrust(trustedByUser, new Map(), new Map([[ours, 'sha256:ours']]), ['/h/hooks.json']), {
      ok: true,
      text: theirs,
    });
    // a table of theirs for our key (they disabled our hook in Codex): our line goes in and out, `enabled` stays
    const disabled = `[hooks.state."${ours}"]\nenabled = false\n`;
    const added = withOurTrust(disabled, new Map([[ours, 'sha256:ours']]), new Map(), ['/h/hooks.json']);
    assert.deepEqual(added, { ok: true, text: `[hooks.state."${ours}"]\ntrusted_hash = "sha256:ours" ${TRUST_MARK}\nenabled = false\n` });
    assert.deepEqual(withOurTrust(added.ok ? added.text : '', new Map(), new Map(), ['/h/hooks.json']), { ok: true, text: disabled });
    // a marked line of a hooks file this sync did not look at (another window's folder) stays
    const otherWindow = `[hooks.state."/other/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:x" ${TRUST_MARK}\n`;
    assert.deepEqual(withOurTrust(otherWindow, new Map(), new Map(), ['/h/hooks.json']), { ok: true, text: otherWindow });
    // nothing left but ours: the file can go
    assert.deepEqual(
      withOurTrust(`[hooks.state."${ours}"]\ntrusted_hash = "sha256:o" ${TRUST_MARK}\n`, new Map(), new Map(), ['/h/hooks.json']),
      {
        ok: true,
        text: undefined,
      },
    );
  });

  test('config.toml in a form our lines cannot join is left alone, with the reason', () => {
    const inline = 'hooks = { state = {} }\n';
    const edit = withOurTrust(inline, new Map([['/h/hooks.json:pre_tool_use:0:0', 'sha256:a']]), new Map(), ['/h/hooks.json']);
    assert.deepEqual(edit, { ok: false, reason: 'its `hooks` is an inline table' });
    const dotted = '[hooks.state]\n"/h/hooks.json:pre_tool_use:0:0".trusted_hash = "sha256:z"\n';
    const edit2 = withOurTrust(dotted, new Map([['/h/hooks.json:pre_tool_use:0:0', 'sha256:a']]), new Map(), ['/h/hooks.json']);
    assert.ok(!edit2.ok && /outside a \[hooks\.state\."…"\] table/.test(edit2.reason), JSON.stringify(edit2));
  });

  test("a project's trust is read, never written", () => {
    assert.ok(projectTrusted(USERS_CONFIG, '/home/me/work'));
    assert.ok(!projectTrusted(USERS_CONFIG, '/home/me/other'));
    assert.ok(!projectTrusted('[projects."/w"]\ntrust_level = "untrusted"\n', '/w'));
    assert.ok(projectTrusted('[projects.\'/w\']\ntrust_level = "trusted"\n', '/w'));
    assert.ok(!projectTrusted(undefined, '/w'));
  });
});

suite("Codex's hook entries on disk (editGuard.guardCodex)", () => {
  let root: string;
  let home: string;
  let folder: string;
  const log = new MemoryLog();
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
  const hooksFile = () => path.join(home, 'hooks.json');
  const configFile = () => path.join(home, 'config.toml');
  const projectFile = () => path.join(folder, '.codex', 'hooks.json');
  const sync = (placement: 'off' | 'user' | 'workspace', trusted = true) =>
    syncCodexHooks(placement, clients, [folder], log, { trusted, home });

  setup(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codex-hooks-')));
    home = path.join(root, 'codex-home');
    folder = path.join(root, 'ws');
    fs.mkdirSync(home);
    fs.mkdirSync(folder);
  });
  teardown(() => fs.rmSync(root, { recursive: true, force: true }));

  test("user: our entries join the user's hooks.json and their trust the user's config.toml; off: both byte for byte as they were", () => {
    fs.writeFileSync(hooksFile(), USERS_HOOKS);
    fs.writeFileSync(configFile(), USERS_CONFIG);
    assert.deepEqual(sync('user'), { problems: [], untrustedFolders: [] });
    const hooks = JSON.parse(read(hooksFile())!);
    assert.deepEqual(hooks.hooks.PreToolUse[0], JSON.parse(USERS_HOOKS).hooks.PreToolUse[0], "the user's own group first, as it was");
    const config = read(configFile())!;
    assert.ok(config.startsWith(USERS_CONFIG));
    for (const [key, hash] of trustOfOurEntries(hooksFile(), read(hooksFile())))
      assert.ok(config.includes(`[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}" ${TRUST_MARK}`), key);
    assert.equal(config.split(TRUST_MARK).length - 1, 4, 'exactly our four commands are trusted');
    assert.ok(!fs.existsSync(projectFile()), 'nothing in the workspace');
    // in step: nothing rewritten
    const before = fs.statSync(configFile()).mtimeMs;
    sync('user');
    assert.equal(fs.statSync(configFile()).mtimeMs, before);
    sync('off');
    assert.equal(read(hooksFile()), USERS_HOOKS);
    assert.equal(read(configFile()), USERS_CONFIG);
  });

  test('user, on a fresh Codex home: hooks.json and config.toml are made; off removes both, which held only ours', () => {
    sync('user');
    assert.ok(read(hooksFile()) && read(configFile()));
    sync('off');
    assert.ok(!fs.existsSync(hooksFile()) && !fs.existsSync(configFile()));
    assert.ok(fs.existsSync(home), "Codex's home stays");
  });

  test("workspace: our entries in the folder's .codex/hooks.json, trusted in the user's config.toml; a project Codex does not trust is reported, never trusted for the user", () => {
    fs.writeFileSync(configFile(), USERS_CONFIG);
    const result = sync('workspace');
    assert.deepEqual(result.untrustedFolders, [folder]);
    assert.ok(log.lines.some((l) => l.startsWith('warn Codex hooks: Codex does not trust the project') && l.includes(folder)));
    assert.ok(read(projectFile()));
    assert.ok(!read(configFile())!.includes(`[projects.${JSON.stringify(folder)}]`), 'no project trust written');
    assert.ok(read(configFile())!.includes(JSON.stringify(`${projectFile()}:pre_tool_use:0:0`)));
    assert.ok(!fs.existsSync(hooksFile()), 'nothing at user level');
    // the user trusts the project in Codex: no longer reported
    fs.appendFileSync(configFile(), `\n[projects.${JSON.stringify(folder)}]\ntrust_level = "trusted"\n`);
    assert.deepEqual(sync('workspace').untrustedFolders, []);
  });

  test('a folder that left the workspace loses our entries and their trust; the user-level ones stay', () => {
    sync('workspace');
    assert.ok(read(projectFile()));
    syncCodexHooks('user', clients, [], log, { trusted: true, home, leftFolders: [folder] });
    assert.ok(!fs.existsSync(projectFile()), "the folder's entries went");
    assert.ok(!read(configFile())!.includes(JSON.stringify(projectFile()).slice(0, -1)), 'and their trust lines');
    assert.ok(
      read(hooksFile()) && read(configFile())!.includes(JSON.stringify(hooksFile()).slice(0, -1)),
      'the user-level entries are there, trusted',
    );
  });

  test('a hooks.json that is not valid JSON is never rewritten: the problem names it; its trust is not touched either', () => {
    const malformed = '{\n  "hooks": {\n    // a comment\n  }\n}\n';
    fs.writeFileSync(hooksFile(), malformed);
    fs.writeFileSync(configFile(), USERS_CONFIG);
    const { problems } = sync('user');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].file, hooksFile());
    assert.match(problems[0].reason, /not valid JSON/);
    assert.equal(read(hooksFile()), malformed);
    assert.equal(read(configFile()), USERS_CONFIG);
  });

  test('a config.toml that cannot be read is never rewritten: the problem names it, and says Codex skips our hooks', () => {
    fs.mkdirSync(configFile()); // a folder where the file should be: reading it fails
    const { problems } = sync('user');
    assert.deepEqual(
      problems.map((p) => p.file),
      [configFile()],
    );
    assert.match(problems[0].reason, /EISDIR/);
  });

  test("an untrusted window writes nothing; the uninstall script takes our user-level entries and trust out, keeping the user's", () => {
    sync('user', false);
    assert.ok(!fs.existsSync(hooksFile()));
    fs.writeFileSync(hooksFile(), USERS_HOOKS);
    fs.writeFileSync(configFile(), USERS_CONFIG);
    sync('user');
    removeUserLevelEntries(log, home);
    assert.equal(read(hooksFile()), USERS_HOOKS);
    assert.equal(read(configFile()), USERS_CONFIG);
  });
});
