// Claude Code's hook entries and the merge into settings files that are the user's too
// (src/agents/claudeCode/node/settings.ts, pure): exactly what is written, what is kept byte for byte, and
// that a file we cannot read as settings gets a reason and no text.
import * as assert from 'node:assert/strict';
import { CLIENT_SCRIPT_NAME } from '../../src/hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME } from '../../src/hooks/command';
import { ENV } from '../../src/hooks/protocol';
import {
  claudeHookEntries,
  CLAUDE_HOOK_EVENTS,
  holdsOurHooks,
  isOurHook,
  isOurs,
  withOurHooks,
  withoutOurHooks,
  type SettingsEdit,
} from '../../src/agents/claudeCode/node/settings';
import { hooksFileContent } from '../../src/agents/copilot/node/hooksFile';

const odd: HookClients = {
  runtime: "/opt/Code it's/code",
  nodeClient: '/ext/dist/hook-bridge.js',
  bash: '/bin/bash',
  bashClient: '/ext/dist/hook-client.sh',
};
const ENTRIES = claudeHookEntries(odd);
/** Our entries as a file holds them: each event's list of groups. */
const AS_LISTS = Object.fromEntries(CLAUDE_HOOK_EVENTS.map((e) => [e, [ENTRIES[e]]]));
const ourCommand = (event: string) => ENTRIES[event as keyof typeof ENTRIES].hooks[0].command;

/** A settings file as a user (or Claude Code, which writes two spaces too) has it: permissions, model, a hook of their own. */
const USERS = `${JSON.stringify(
  {
    permissions: { allow: ['Bash(npm run test:*)'], deny: ['Read(./.env)'] },
    model: 'opus',
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'npx block-rm', timeout: 5 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    },
    env: { FOO: '1' },
  },
  null,
  2,
)}\n`;

const text = (edit: SettingsEdit) => {
  assert.ok(edit.ok, `not ok: ${!edit.ok && edit.reason}`);
  return edit.text;
};
const parsed = (edit: SettingsEdit) => JSON.parse(text(edit) ?? 'null');
const reason = (edit: SettingsEdit) => {
  assert.ok(!edit.ok, `expected a reason, got ${JSON.stringify(edit)}`);
  return edit.reason;
};

suite("Claude Code's hook entries", () => {
  test("one group per event in Claude Code's format: the tool events matched to its file tools and its shell (rule 16), the others without a matcher; the command is every agent's, naming Claude Code", () => {
    assert.deepEqual(Object.keys(ENTRIES), ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'PostToolUseFailure']);
    const early = `[ -f '/ext/dist/hook-client.sh' ] && { [ -n "$${ENV.socket}" ] || { set -- "$HOME/.cache/agent-edit-guard/windows/"*.window; [ -e "$1" ]; }; } || exec cat >/dev/null; exec '/bin/bash' '/ext/dist/hook-client.sh' 'claude-code'`;
    assert.deepEqual(ENTRIES.PreToolUse, {
      matcher: 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash',
      hooks: [{ type: 'command', command: `${early} 'PreToolUse' 'Read' 'Edit' 'Write' 'MultiEdit' 'NotebookEdit' 'Bash'`, timeout: 15 }],
    });
    assert.deepEqual(ENTRIES.PostToolUse, {
      matcher: 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash',
      hooks: [{ type: 'command', command: `${early} 'PostToolUse' 'Read' 'Edit' 'Write' 'MultiEdit' 'NotebookEdit' 'Bash'`, timeout: 15 }],
    });
    assert.deepEqual(ENTRIES.UserPromptSubmit, { hooks: [{ type: 'command', command: `${early} 'UserPromptSubmit'`, timeout: 15 }] });
    assert.deepEqual(ENTRIES.PreCompact, { hooks: [{ type: 'command', command: `${early} 'PreCompact'`, timeout: 15 }] });
    // the Copilot file's command for the same event differs only in the agent it names (and the tools it filters on)
    const copilot = JSON.parse(hooksFileContent(odd)).hooks.UserPromptSubmit[0].command;
    assert.equal(ENTRIES.UserPromptSubmit.hooks[0].command, copilot.replace(`'copilot'`, `'claude-code'`));
  });

  test("without bash: the Node client with the editor's runtime, its ELECTRON_RUN_AS_NODE on the command line (Claude Code's entries carry no env)", () => {
    const entries = claudeHookEntries({ ...odd, bash: undefined });
    assert.equal(
      entries.PreToolUse.hooks[0].command,
      `[ -f '/ext/dist/hook-bridge.js' ] && { [ -n "$${ENV.socket}" ] || { set -- "$HOME/.cache/agent-edit-guard/windows/"*.window; [ -e "$1" ]; }; } || exec cat >/dev/null; ELECTRON_RUN_AS_NODE=1 exec '/opt/Code it'\\''s/code' '/ext/dist/hook-bridge.js' 'claude-code' 'PreToolUse'`,
    );
    assert.equal(entries.PreToolUse.matcher, 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash');
    assert.equal(
      JSON.parse(hooksFileContent({ ...odd, bash: undefined })).hooks.PreToolUse[0].command.includes('ELECTRON_RUN_AS_NODE'),
      false,
      "the Copilot file's command is as it was: its entry has env",
    );
  });

  test('ours: a command that runs one of our clients, whatever its timeout or matcher; a group only when all its commands are ours', () => {
    for (const event of CLAUDE_HOOK_EVENTS) assert.ok(isOurs(ENTRIES[event]), event);
    assert.ok(isOurs(claudeHookEntries({ ...odd, bash: undefined }).PreToolUse));
    assert.ok(isOurs({ ...ENTRIES.PreToolUse, hooks: [{ ...ENTRIES.PreToolUse.hooks[0], timeout: 60 }] }), 'the user edited its timeout');
    assert.ok(isOurs({ matcher: 'Edit', hooks: ENTRIES.PreToolUse.hooks }), 'the user edited its matcher');
    assert.ok(isOurHook({ type: 'command', command: `bash /elsewhere/dist/${CLIENT_SCRIPT_NAME} PreToolUse` }));
    assert.ok(isOurHook({ command: `node /x/${NODE_CLIENT_NAME} PreToolUse` }));
    assert.equal(isOurHook({ type: 'command', command: 'npx block-rm' }), false);
    assert.equal(isOurHook({ type: 'command' }), false);
    assert.equal(isOurHook('hook-client.sh'), false);
    assert.equal(isOurs({ matcher: 'Bash', hooks: [{ type: 'command', command: 'npx block-rm' }] }), false);
    assert.equal(
      isOurs({ hooks: [ENTRIES.PreToolUse.hooks[0], { type: 'command', command: 'npx block-rm' }] }),
      false,
      "a group with a command of the user's is not ours",
    );
    assert.equal(isOurs({ hooks: [] }), false);
    assert.equal(isOurs({ hooks: 'x' }), false);
    assert.equal(isOurs(null), false);
    assert.equal(isOurs([ENTRIES.PreToolUse]), false);
  });
});

suite('Claude Code settings: adding and removing our hook entries', () => {
  test('a missing, empty or blank file becomes our entries alone, written as Claude Code writes settings (2 spaces, a final newline)', () => {
    const alone = `${JSON.stringify({ hooks: AS_LISTS }, null, 2)}\n`;
    for (const existing of [undefined, '', '  \n', '{}', '{}\n'])
      assert.equal(text(withOurHooks(existing, ENTRIES)), alone, JSON.stringify(existing));
  });

  test("the user's keys, events and groups are kept in place, ours added at the end of each event's list; add then remove gives the file back byte for byte", () => {
    const added = withOurHooks(USERS, ENTRIES);
    const json = parsed(added);
    assert.deepEqual(Object.keys(json), ['permissions', 'model', 'hooks', 'env'], 'key order kept');
    assert.deepEqual(Object.keys(json.hooks), [
      'PreToolUse',
      'Stop',
      'UserPromptSubmit',
      'PostToolUse',
      'PreCompact',
      'PostToolUseFailure',
    ]);
    assert.deepEqual(json.hooks.PreToolUse, [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'npx block-rm', timeout: 5 }] },
      ENTRIES.PreToolUse,
    ]);
    assert.deepEqual(json.hooks.Stop, JSON.parse(USERS).hooks.Stop);
    assert.deepEqual([json.permissions, json.model, json.env], [JSON.parse(USERS).permissions, 'opus', { FOO: '1' }]);
    assert.equal(text(withoutOurHooks(text(added))), USERS);
  });

  test('adding is idempotent: a file that holds our entries already comes back as it was, even in another layout', () => {
    const once = text(withOurHooks(USERS, ENTRIES))!;
    assert.equal(text(withOurHooks(once, ENTRIES)), once);
    const compact = JSON.stringify(JSON.parse(once));
    assert.equal(text(withOurHooks(compact, ENTRIES)), compact, 'not rewritten only to reformat it');
  });

  test('our group is replaced where it stands, never doubled: after the user edited its timeout, after the extension moved (new client paths)', () => {
    const json = JSON.parse(text(withOurHooks(USERS, ENTRIES))!);
    json.hooks.PreToolUse[1].hooks[0].timeout = 60;
    json.hooks.PreToolUse.push({ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier-check' }] });
    const edited = `${JSON.stringify(json, null, 2)}\n`;
    const again = parsed(withOurHooks(edited, ENTRIES));
    assert.deepEqual(
      again.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher),
      ['Bash', 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash', 'Write'],
      "in its place, between the user's",
    );
    assert.equal(again.hooks.PreToolUse[1].hooks[0].timeout, 15);
    const moved = claudeHookEntries({ ...odd, bashClient: '/ext-0.2.0/dist/hook-client.sh' });
    const updated = parsed(withOurHooks(edited, moved));
    assert.equal(updated.hooks.PreToolUse.filter(isOurs).length, 1);
    assert.equal(updated.hooks.PreToolUse[1].hooks[0].command, moved.PreToolUse.hooks[0].command);
    for (const event of CLAUDE_HOOK_EVENTS) assert.deepEqual(updated.hooks[event].filter(isOurs), [moved[event]], event);
  });

  test("a command the user added to our group stays, in a group of its own; our commands under another event (an older version's) go", () => {
    const json = JSON.parse(text(withOurHooks(undefined, ENTRIES))!);
    json.hooks.PreToolUse[0].hooks.push({ type: 'command', command: 'echo mine' });
    json.hooks.SessionStart = [
      { hooks: [{ type: 'command', command: ourCommand('PreCompact').replace('PreCompact', 'SessionStart') }] },
      { hooks: [{ type: 'command', command: 'echo hello' }] },
    ];
    const result = parsed(withOurHooks(JSON.stringify(json), ENTRIES));
    assert.deepEqual(result.hooks.PreToolUse, [
      ENTRIES.PreToolUse,
      { matcher: 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
    ]);
    assert.deepEqual(result.hooks.SessionStart, [{ hooks: [{ type: 'command', command: 'echo hello' }] }]);
    const removed = parsed(withoutOurHooks(JSON.stringify(json)));
    assert.deepEqual(removed, {
      hooks: {
        PreToolUse: [{ matcher: 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash', hooks: [{ type: 'command', command: 'echo mine' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo hello' }] }],
      },
    });
  });

  test("removing keeps the user's: other keys, their groups, an empty list of their own; a list or a hooks object only ours filled is dropped", () => {
    const withEmpty = `${JSON.stringify({ ...JSON.parse(USERS), hooks: { ...JSON.parse(USERS).hooks, Notification: [] } }, null, 2)}\n`;
    assert.equal(text(withoutOurHooks(text(withOurHooks(withEmpty, ENTRIES)))), withEmpty);
    const onlyHooksOurs = text(withOurHooks('{\n  "model": "opus"\n}\n', ENTRIES));
    assert.equal(text(withoutOurHooks(onlyHooksOurs)), '{\n  "model": "opus"\n}\n', 'the hooks key we brought goes');
    const emptyHooksOfTheirs = '{\n  "model": "opus",\n  "hooks": {}\n}\n';
    assert.equal(text(withoutOurHooks(emptyHooksOfTheirs)), emptyHooksOfTheirs, 'nothing of ours: as it was');
  });

  test('removing from a file left with nothing ({}) says the file can go; a missing file stays missing; a file with nothing of ours comes back as it was', () => {
    assert.equal(text(withoutOurHooks(text(withOurHooks(undefined, ENTRIES)))), undefined);
    assert.equal(text(withoutOurHooks(text(withOurHooks('{}', ENTRIES)))), undefined);
    assert.equal(text(withoutOurHooks(undefined)), undefined);
    for (const theirs of [USERS, '{}', '{"model":"opus"}', '', '{ "hooks": { "Stop": "odd" } }'])
      assert.equal(text(withoutOurHooks(theirs)), theirs, theirs);
    assert.equal(holdsOurHooks(USERS), false);
    assert.equal(holdsOurHooks(text(withOurHooks(USERS, ENTRIES))), true);
    assert.equal(holdsOurHooks('not json'), false);
  });

  test('bad input gets a clear reason and no text: malformed JSON, a top level that is not an object, hooks or one of our events of the wrong type', () => {
    const malformed = '{\n  "model": "opus",\n}\n';
    for (const edit of [withOurHooks(malformed, ENTRIES), withoutOurHooks(malformed)])
      assert.match(reason(edit), /^it is not valid JSON \(.+\)$/);
    for (const top of ['[]', 'null', '"x"', '3']) {
      assert.equal(reason(withOurHooks(top, ENTRIES)), 'it is not a JSON object', top);
      assert.equal(reason(withoutOurHooks(top)), 'it is not a JSON object', top);
    }
    for (const hooks of ['[]', '"x"', 'null', '1']) {
      const file = `{"model":"opus","hooks":${hooks}}`;
      assert.equal(reason(withOurHooks(file, ENTRIES)), 'its "hooks" is not a JSON object', file);
      assert.equal(reason(withoutOurHooks(file)), 'its "hooks" is not a JSON object', file);
    }
    assert.equal(reason(withOurHooks('{"hooks":{"PreToolUse":{"matcher":"Bash"}}}', ENTRIES)), 'its "hooks.PreToolUse" is not a list');
    // another event of the wrong type is the user's business: kept as it is
    assert.deepEqual(parsed(withOurHooks('{"hooks":{"Stop":"odd"}}', ENTRIES)).hooks.Stop, 'odd');
  });

  test("a file's byte order mark and CRLF line ends are kept", () => {
    const crlf = `\uFEFF${USERS.replace(/\n/g, '\r\n')}`;
    const added = text(withOurHooks(crlf, ENTRIES))!;
    assert.ok(added.startsWith('\uFEFF{\r\n'));
    assert.doesNotMatch(added, /[^\r]\n/);
    assert.equal(text(withoutOurHooks(added)), crlf);
  });
});
