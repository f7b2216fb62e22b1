// What can be shown on Linux of the code paths for macOS and Windows (docs/platforms.md): the
// PowerShell command line Copilot runs on Windows, with paths that need quoting; the bash client as
// macOS's bash 3.2 runs it (`read -t` takes whole seconds only); a window's entry without a process
// start time (no /proc); and Windows separators in the path policy (a drive letter that is no URI
// scheme: test/unit/paths.test.ts). Each runs the real code: the hook command's arguments are read
// back with PowerShell's quoting rules, and the bash client runs in bash with its bash-3 branch taken
// and a `read` that refuses a fraction as bash 3.2's does. None of this is macOS or Windows itself:
// docs/platforms.md says what is never run.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hooksFileContent } from '../../src/agents/copilot/node/hooksFile';
import { isInsideGitFolder, isNotebook } from '../../src/core/paths';
import { hookClientScript } from '../../src/hooks/bashClient';
import { type HookClients, windowsHookCommand } from '../../src/hooks/command';
import { alive, findWindow, entryOf, type WindowEntry, writeEntry } from '../../src/hooks/discovery';
import { ENV } from '../../src/hooks/protocol';
import { BridgeServer } from '../../src/hooks/server';
import { hungListener } from '../shared/loopback';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim() || undefined;
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stale"}}';

/**
 * The arguments PowerShell reads from a command's words: a word in single quotes is taken verbatim,
 * two quotes standing for one, so `$`, backticks and spaces inside it are plain characters; a bare
 * word ends at a space. PowerShell's language specification counts the typographic quotes ‘ ’ ‚ ‛ as
 * single quotes too, each able to open, close or double another.
 */
const isQuote = (c: string | undefined) => c !== undefined && "'\u2018\u2019\u201A\u201B".includes(c);
function powerShellWords(text: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    let word = '';
    if (isQuote(text[i])) {
      i++;
      for (;;) {
        assert.ok(i < text.length, `an unterminated quote in ${text}`);
        if (isQuote(text[i]) && isQuote(text[i + 1])) {
          word += text[i];
          i += 2;
        } else if (isQuote(text[i])) {
          i++;
          break;
        } else word += text[i++];
      }
      assert.ok(i >= text.length || text[i] === ' ', `a quoted word runs on into ${JSON.stringify(text.slice(i))}`);
    } else {
      while (i < text.length && text[i] !== ' ') word += text[i++];
    }
    words.push(word);
  }
  return words;
}

suite('platforms: Windows, where Copilot runs the `windows` command in PowerShell', () => {
  // an install under a user whose name has a space and an apostrophe, and characters PowerShell expands in double quotes
  const clients: HookClients = {
    runtime: "C:\\Users\\Ann O'Neil\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe",
    nodeClient: 'D:\\VS Code $env:x `n\\extensions\\editguard.agent-edit-guard-0.1.0\\dist\\hook-bridge.js',
    bash: undefined,
    bashClient: 'D:\\unused\\hook-client.sh',
  };

  test('the runtime and the client stay one argument each, as written: a drive letter, spaces, an apostrophe, $ and a backtick', () => {
    const command = windowsHookCommand(clients, 'copilot', 'PreToolUse');
    const call = command.indexOf('; & ');
    assert.ok(call > 0, command);
    assert.deepEqual(powerShellWords(command.slice(call + '; & '.length)), [clients.runtime, clients.nodeClient, 'copilot', 'PreToolUse']);
  });

  test('a typographic apostrophe in a path (O’Neil) is doubled too: PowerShell would end the quoted word at it', () => {
    const typographic = {
      ...clients,
      runtime: 'C:\\Users\\Ann O\u2019Neil\\Code.exe',
      nodeClient: 'C:\\a\u2018b\u201Ac\u201Bd\\hook-bridge.js',
    };
    const command = windowsHookCommand(typographic, 'copilot', 'PreToolUse');
    const words = powerShellWords(command.slice(command.indexOf('; & ') + '; & '.length));
    assert.deepEqual(words, [typographic.runtime, typographic.nodeClient, 'copilot', 'PreToolUse']);
  });

  test("every event of Copilot's hooks file has a `windows` command: the Node client with the editor's runtime, never bash", () => {
    const file = JSON.parse(hooksFileContent({ ...clients, bash: 'C:\\Program Files\\Git\\bin\\bash.exe' }));
    const events = Object.keys(file.hooks);
    assert.ok(events.length >= 4, events.join(', '));
    for (const event of events) {
      const command: string = file.hooks[event][0].windows;
      const words = powerShellWords(command.slice(command.indexOf('; & ') + '; & '.length));
      assert.deepEqual(words, [clients.runtime, clients.nodeClient, 'copilot', event], event);
    }
  });

  test('the reader of the test itself: a quote ends a word, two stand for one', () => {
    assert.deepEqual(powerShellWords("'a b' 'it''s' c"), ['a b', "it's", 'c']);
    assert.deepEqual(powerShellWords('\u2018it\u2019\u2019s\u2019'), ['it\u2019s']);
    assert.throws(() => powerShellWords("'a'b"), /runs on/);
    assert.throws(() => powerShellWords("'open"), /unterminated/);
  });

  test("a write into `.git` is found through backslashes, and a notebook's extension in any case", () => {
    assert.equal(isInsideGitFolder('C:\\Users\\me\\My Project\\.git\\config'), true);
    assert.equal(isInsideGitFolder('C:\\Users\\me\\My Project\\.github\\hooks\\x.json'), false);
    assert.equal(isNotebook('C:\\Users\\me\\My Project\\Analysis.IPYNB'), true);
  });
});

/**
 * The bash client's text as bash 3.2 would run it: the major version it tests is `major` (3 takes its
 * bash-3 branch), and `read` refuses a fraction for `-t` as bash 3.2's does, noting each timeout asked.
 */
function underBash32(script: string, major = 3): string {
  const version = '"${BASH_VERSINFO[0]}"';
  assert.equal(script.split(version).length, 2, 'the client tests the bash version once');
  const read = [
    '# bash 3.2: `read -t` takes whole seconds; each timeout asked for is noted',
    'read() {',
    '  local a prev=',
    '  for a in "$@"; do',
    '    if [ "$prev" = -t ]; then',
    '      printf \'%s\\n\' "$a" >>"$READ_TIMEOUTS"',
    '      case $a in *[!0-9]*) return 2 ;; esac',
    '    fi',
    '    prev=$a',
    '  done',
    '  builtin read "$@"',
    '}',
  ].join('\n');
  const [shebang, ...rest] = script.replace(version, String(major)).split('\n');
  return [shebang, read, ...rest].join('\n');
}

/** Runs a bash client script as a hook command runs it: the payload on stdin, the environment given. */
function runClient(scriptFile: string, env: NodeJS.ProcessEnv, payload: string): Promise<{ code: number | null; stdout: string }> {
  const clean = { ...process.env };
  for (const key of Object.values(ENV)) delete clean[key];
  const child = spawn(BASH!, [scriptFile, 'copilot', 'PreToolUse'], { env: { ...clean, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stdin.on('error', () => {});
  child.stdin.end(payload);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const payload = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  tool_name: 'replace_string_in_file',
  tool_input: { filePath: '/ws/discovered/a.ts' },
});

suite('platforms: macOS, its bash 3.2 and no /proc', function () {
  this.timeout(20000);
  let dir: string;
  let server: BridgeServer;
  let seen: string[];
  let log: MemoryLog;
  suiteSetup(function () {
    if (process.platform === 'win32' || !BASH) this.skip();
  });
  setup(async () => {
    dir = tempFolder('aeg-platforms-');
    seen = [];
    log = new MemoryLog();
    server = await BridgeServer.start(async (_agent, p) => (seen.push(p), DENY), log);
  });
  teardown(() => server?.dispose());

  const client = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const timeoutsAsked = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n');

  test('bash 3: the client waits whole seconds, rounded up, and is answered', async () => {
    const timeouts = path.join(dir, 'timeouts');
    const r = await runClient(
      client('bash3.sh', underBash32(hookClientScript())),
      { ...server.environment, [ENV.boundMs]: '1500', READ_TIMEOUTS: timeouts },
      payload,
    );
    assert.deepEqual([r.code, r.stdout], [0, DENY]);
    assert.deepEqual(seen, [payload]);
    assert.deepEqual(timeoutsAsked(timeouts), ['2'], 'the bound of 1.5 s asked as 2 whole seconds, never cut to 1');
  });

  test("bash 3: a window that does not answer lets the call through at the bound, and the miss is noted; bash 4's fraction would have let it through unasked", async () => {
    const hung = await hungListener();
    try {
      const timeouts = path.join(dir, 'timeouts');
      const env = { ...server.environment, [ENV.socket]: hung.address, [ENV.boundMs]: '1500', READ_TIMEOUTS: timeouts };
      const r = await runClient(client('bash3.sh', underBash32(hookClientScript())), env, payload);
      assert.deepEqual([r.code, r.stdout], [0, '']);
      assert.deepEqual(timeoutsAsked(timeouts), ['2']);
      server.reportMissed();
      assert.ok(
        log.lines.some((l) => /was let through unchecked: no answer from the extension within 1500 ms/.test(l)),
        log.lines.join('\n'),
      );
      // the control: the same bash 3.2 `read`, without the branch — the fraction is refused, and the
      // real window's answer is never read
      fs.rmSync(timeouts);
      const control = await runClient(
        client('fraction.sh', underBash32(hookClientScript(), 5)),
        { ...server.environment, [ENV.boundMs]: '1500', READ_TIMEOUTS: timeouts },
        payload,
      );
      assert.deepEqual([control.code, control.stdout], [0, ''], 'the refusal the real window gave was not printed');
      assert.deepEqual(timeoutsAsked(timeouts), ['1.500']);
    } finally {
      hung.close();
    }
  });

  test('no /proc: an entry without a start time is the window while its process lives, through the Node reader and the bash client', async () => {
    const home = tempFolder('aeg-platforms-home-');
    // a start of '': what processStart gives where there is no /proc/<pid>/stat (macOS, Windows)
    const entry: WindowEntry = entryOf(server.environment, ['/ws/discovered'], '');
    const file = writeEntry(entry, home)!;
    assert.equal(alive(entry), true);
    assert.equal(findWindow('/ws/discovered/a.ts', home)?.address, entry.address);
    // an agent started outside the window: no address in its environment, the entry in its home
    const r = await runClient(client('hook-client.sh', hookClientScript()), { HOME: home }, payload);
    assert.deepEqual([r.code, r.stdout], [0, DENY]);
    assert.deepEqual(seen, [payload]);
    // the process gone: with no start time to compare, the pid is all there is, and it is checked
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeEntry({ ...entry, pid: Number(dead.stdout.trim()) }, home, file);
    assert.equal(findWindow('/ws/discovered/a.ts', home), undefined);
    const again = await runClient(client('hook-client.sh', hookClientScript()), { HOME: home }, payload);
    assert.deepEqual([again.code, again.stdout], [0, '']);
    assert.equal(seen.length, 1, 'the dead window was not asked');
  });
});
