// Group 7, the hooks bridge's cost per hook, in the real extension host (part of bench/host/index.ts).
// Each row runs the hook COMMAND exactly as Copilot Chat runs it: read from the hooks file the
// extension writes once the bridge is on (./bridge.ts: setBridge, hookCommands), spawned like
// Copilot's HookExecutor — `spawn(command, { shell: true, cwd: workspace, env: { ...process.env,
// ...entry.env }, stdio: 'pipe' })`, the payload JSON on stdin — and timed from spawn to close.
// So whatever the command is (a runtime, a `sh` guard in front of it, `bash`…), this is its cost.
// Baselines through the same spawn in the same rounds: `true` (sh's own start: the floor of any
// hook) and the bare start of the editor's runtime (`'<execPath>' -e 0`, ELECTRON_RUN_AS_NODE=1).
// Rows (ids stable); the goal of every hook event is a median at most 2.5× `true`'s, in the same rounds:
//   hook.floor.true, hook.floor.runtime       the two baselines
//   hook.ignoredNoExtension                   PreToolUse list_dir, socket variables unset, no window's entry
//   hook.noExtension                          PreToolUse replace_string_in_file, the same
//   hook.ignored                              PreToolUse list_dir, the extension listening
//   hook.shellNothing                         PreToolUse run_in_terminal of a command that writes nothing (rule 16)
//   hook.shellWriteChecked                    PreToolUse run_in_terminal of a command whose write is found and checked
//   hook.readStart                            PreToolUse read_file (the version the read will show)
//   hook.readMark                             PostToolUse read_file after it (the read mark)
//   hook.editAllowed                          PreToolUse replace_string_in_file of a read file
//   hook.editDenied                           the same, of an unread file: the deny JSON
//   hook.prompt                               UserPromptSubmit (once per turn: the chat's turn count)
//   hook.harness.*                            the same events of the Copilot harness: its payloads, no address in
//                                             the environment (the window found through its record)
//   hook.discovery.noWindow                   no address, no window on the file's folder: let through
//   hook.unreachable, hook.hung               fail-open: the socket gone; a listener that never answers
// Measured here instead of in test/copilot/builtinTools.test.ts and test/unit/hooksBridge.test.ts,
// which assert what the hook does; this says how long it takes.
import { spawn } from 'child_process';
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compare, ratioOf, stat } from '../lib/measure';
import type { Row } from '../lib/rows';
import { hungListener, unusedLoopbackAddress } from '../../test/shared/loopback';
import type { BenchHooks, ToolCall } from '../../test/shared/testAgent';
import { TEST_AGENTS, userFileOf } from '../../test/shared/testAgents';
import { answeringListener } from './window';
import { BRIDGE_ENV, ENV_BOUND, ENV_MISSED, ENV_SOCKET, hookCommands, type HookCommand, setBridge } from './bridge';

/** the script's own bound (DEFAULT_BOUND_MS of src/hooks/protocol.ts) */
const DEFAULT_BOUND_MS = 4000;
/** the bound of the hung-extension case, as the tests use it */
const HUNG_BOUND_MS = 1500;
const GROUP = '7 hooks bridge';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** One hook command run as Copilot Chat 0.67 runs it (docs/research-guard-by-default.md §6). */
export function runHookCommand(hook: HookCommand, env: NodeJS.ProcessEnv, ws: string, stdin: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const cwd = hook.cwd ? path.resolve(ws, hook.cwd.replace(/^~(?=\/|$)/, os.homedir())) : ws;
    const child = spawn(hook.command, { shell: true, cwd, env: { ...env, ...hook.env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // a command that exits before it reads stdin (a `sh` guard) closes the pipe under our write
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(stdin);
  });
}

export async function hookRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  const hooksFile = await setBridge(true, ws);
  const commands = hookCommands(hooksFile);
  const commandOf = (event: string): HookCommand => {
    const [c, ...more] = commands[event] ?? [];
    if (!c) throw new Error(`hooks bench: ${hooksFile} has no command for ${event}`);
    if (more.length) throw new Error(`hooks bench: ${hooksFile} has ${more.length + 1} commands for ${event}; each row times one`);
    return c;
  };
  const pre = commandOf('PreToolUse');
  const post = commandOf('PostToolUse');
  const prompt = commandOf('UserPromptSubmit');
  const hungFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-bench-hung-'));
  const hung = await hungListener();
  // a listener that answers at once: the hook command's own cost, the window's taken away
  const instant = await answeringListener();
  const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-bench-no-window-'));
  try {
    // the extension host's environment at spawn time, as Copilot's spawn takes it
    const listening = { ...process.env };
    const noExtension = { ...process.env };
    for (const k of BRIDGE_ENV) delete noExtension[k];
    // no window listening at all: no address, and a home with no window's entry (else the client finds this
    // window through its record, src/hooks/discovery.ts — what the harness rows below measure)
    const noWindowAtAll = { ...noExtension, HOME: emptyHome };
    // a loopback port nothing listens on, and a listener that never answers
    const unreachable = { ...listening, [ENV_SOCKET]: await unusedLoopbackAddress(), [ENV_MISSED]: path.join(hungFolder, 'missed.jsonl') };
    const hungEnv = {
      ...listening,
      [ENV_SOCKET]: hung.address,
      [ENV_BOUND]: String(HUNG_BOUND_MS),
      [ENV_MISSED]: path.join(hungFolder, 'missed.jsonl'),
    };

    const file = path.join(ws, 'hook-roundtrip.txt');
    fs.writeFileSync(file, 'x\n'.repeat(50));
    // the denials' file: no chat has a write of it in flight. The allowed rows' edits never run, so their file stays
    // held for them (rule 14) and a check of it by another chat would wait for that write before it answers
    const unread = path.join(ws, 'hook-roundtrip-unread.txt');
    fs.writeFileSync(unread, 'x\n'.repeat(50));
    let n = 0;
    // the payloads Copilot writes (§2): common fields, then the tool's
    const payload = (event: 'PreToolUse' | 'PostToolUse', session: string, tool: string, input: object, response?: string) =>
      JSON.stringify({
        timestamp: new Date().toISOString(),
        hook_event_name: event,
        session_id: session,
        transcript_path: path.join(os.tmpdir(), `${session}.jsonl`),
        cwd: ws,
        tool_name: tool,
        tool_input: input,
        tool_use_id: `call_${++n}`,
        ...(response !== undefined ? { tool_response: response } : {}),
      });
    const replaceInput = { filePath: file, oldString: 'x', newString: 'y' };
    // the Copilot harness runs the same hooks file, under the Agent Host: none of the extension host's
    // environment (the window is found through its record, src/hooks/discovery.ts), and its own payloads
    const harness = (event: string, chat: string, extra: object) =>
      JSON.stringify({ hook_event_name: event, session_id: chat, timestamp: new Date().toISOString(), cwd: ws, ...extra });
    const harnessTool = (event: 'PreToolUse' | 'PostToolUse', chat: string, tool: string, input: object) =>
      harness(event, chat, { tool_name: tool, tool_input: input });
    const harnessRead = { path: file };
    const harnessEdit = { path: file, old_str: 'x', new_str: 'y' };
    const elsewhere = path.join(os.tmpdir(), 'no-window-here', 'a.txt');
    const readInput = { filePath: file, startLine: 1, endLine: 50 };
    /** a tool the gate does not need */
    const ignoredTool = (session: string) => payload('PreToolUse', session, 'list_dir', { path: ws });
    /** Copilot's terminal tool running `command` (rule 16) */
    const terminalInput = (command: string) => ({ command, explanation: 'as asked', isBackground: false });
    const shellNothing = 'ls -la src && git status --short | head -20';
    const shellWrite = `cd '${path.dirname(file)}' && printf 'one more line\n' >> '${path.basename(file)}'`;
    let shellSession = '';
    // a fresh chat each sample: a denial's refusal mark would count as a read for the next call of the same chat
    const session = (kind: string) => `bench-${kind}-${n}`;

    const last: Record<string, Run> = {};
    const run = (name: string, hook: HookCommand, env: NodeJS.ProcessEnv, body: () => string) => async () => {
      last[name] = await runHookCommand(hook, env, ws, body());
    };
    const expect = (name: string, ok: (r: Run) => boolean) => () => {
      const r = last[name];
      if (!r || r.code !== 0 || !ok(r)) throw new Error(`hooks bench: ${name} answered ${JSON.stringify(r)}`);
    };
    const empty = (r: Run) => r.stdout.trim() === '';
    const denies = (r: Run) => /"permissionDecision"\s*:\s*"deny"/.test(r.stdout);
    const floorTrue: HookCommand = { command: 'true', env: {} };
    const floorRuntime: HookCommand = { command: `'${process.execPath.replace(/'/g, `'\\''`)}' -e 0`, env: { ELECTRON_RUN_AS_NODE: '1' } };
    // a read is two hooks: PreToolUse captures the version the tool shows, PostToolUse marks it
    /** A hook run untimed before a sample (its earlier events), which must let the call through. */
    const untimedHook = async (hook: HookCommand, env: NodeJS.ProcessEnv, body: string, what = 'an untimed hook') => {
      const r = await runHookCommand(hook, env, ws, body);
      if (r.code !== 0 || !empty(r)) throw new Error(`hooks bench: ${what} answered ${JSON.stringify(r)}`);
    };
    const readHooks = async (chat: string, which: Array<'pre' | 'post'>) => {
      for (const w of which)
        await untimedHook(
          w === 'pre' ? pre : post,
          listening,
          w === 'pre'
            ? payload('PreToolUse', chat, 'read_file', readInput)
            : payload('PostToolUse', chat, 'read_file', readInput, 'x\n'.repeat(50)),
          `the ${w === 'pre' ? 'PreToolUse' : 'PostToolUse'} of a read`,
        );
    };
    // the chat of the read mark and of the allowed edit: their earlier hooks run untimed, just before
    let readSession = '';
    let allowedSession = '';
    let harnessReadSession = '';
    let harnessAllowedSession = '';
    const harnessViews = async (chat: string, which: Array<'pre' | 'post'>) => {
      for (const w of which)
        await untimedHook(
          w === 'pre' ? pre : post,
          noExtension,
          harnessTool(w === 'pre' ? 'PreToolUse' : 'PostToolUse', chat, 'Read', harnessRead),
          `the harness's ${w} of a view`,
        );
    };
    const c = await compare(
      [
        { name: 'true', run: run('true', floorTrue, listening, () => ''), teardown: expect('true', empty) },
        { name: 'runtime', run: run('runtime', floorRuntime, listening, () => ''), teardown: expect('runtime', empty) },
        {
          name: 'ignoredNoExtension',
          run: run('ignoredNoExtension', pre, noWindowAtAll, () => ignoredTool(session('noext'))),
          teardown: expect('ignoredNoExtension', empty),
        },
        {
          name: 'noExtension',
          run: run('noExtension', pre, noWindowAtAll, () =>
            payload('PreToolUse', session('noext'), 'replace_string_in_file', replaceInput),
          ),
          teardown: expect('noExtension', empty),
        },
        { name: 'ignored', run: run('ignored', pre, listening, () => ignoredTool(session('ignored'))), teardown: expect('ignored', empty) },
        {
          name: 'shellNothing',
          run: run('shellNothing', pre, listening, () =>
            payload('PreToolUse', session('shell-nothing'), 'run_in_terminal', terminalInput(shellNothing)),
          ),
          teardown: expect('shellNothing', empty),
        },
        {
          name: 'shellWriteChecked',
          setup: async () => {
            shellSession = session('shell-write');
            await readHooks(shellSession, ['pre', 'post']);
          },
          run: run('shellWriteChecked', pre, listening, () =>
            payload('PreToolUse', shellSession, 'run_in_terminal', terminalInput(shellWrite)),
          ),
          // the command "ran": its PostToolUse, untimed, settles it (rule 14)
          teardown: async () => {
            expect('shellWriteChecked', empty)();
            await untimedHook(post, listening, payload('PostToolUse', shellSession, 'run_in_terminal', terminalInput(shellWrite), ''));
          },
        },
        {
          name: 'clientAlone',
          run: run('clientAlone', pre, { ...listening, [ENV_SOCKET]: instant.address }, () =>
            payload('PreToolUse', session('client'), 'replace_string_in_file', replaceInput),
          ),
          teardown: expect('clientAlone', empty),
        },
        {
          name: 'readStart',
          run: run('readStart', pre, listening, () => payload('PreToolUse', session('readstart'), 'read_file', readInput)),
          teardown: expect('readStart', empty),
        },
        {
          name: 'readMark',
          setup: async () => {
            readSession = session('read');
            await readHooks(readSession, ['pre']);
          },
          run: run('readMark', post, listening, () => payload('PostToolUse', readSession, 'read_file', readInput, 'x\n'.repeat(50))),
          teardown: expect('readMark', empty),
        },
        {
          name: 'editAllowed',
          setup: async () => {
            allowedSession = session('allowed');
            await readHooks(allowedSession, ['pre', 'post']);
          },
          run: run('editAllowed', pre, listening, () => payload('PreToolUse', allowedSession, 'replace_string_in_file', replaceInput)),
          // the edit "ran": its PostToolUse, untimed, settles it, so the file is not held for the next chat's read (rule 14)
          teardown: async () => {
            expect('editAllowed', empty)();
            await untimedHook(post, listening, payload('PostToolUse', allowedSession, 'replace_string_in_file', replaceInput, ''));
          },
        },
        {
          name: 'editDenied',
          run: run('editDenied', pre, listening, () =>
            payload('PreToolUse', session('denied'), 'replace_string_in_file', { ...replaceInput, filePath: unread }),
          ),
          teardown: expect('editDenied', denies),
        },
        {
          name: 'prompt',
          run: run('prompt', prompt, listening, () =>
            JSON.stringify({
              timestamp: new Date().toISOString(),
              hook_event_name: 'UserPromptSubmit',
              session_id: session('prompt'),
              transcript_path: path.join(os.tmpdir(), 'bench-prompt.jsonl'),
              prompt: 'Flip the marker.',
              cwd: ws,
            }),
          ),
          teardown: expect('prompt', empty),
        },
        {
          name: 'harnessReadStart',
          run: run('harnessReadStart', pre, noExtension, () => harnessTool('PreToolUse', session('h-readstart'), 'Read', harnessRead)),
          teardown: expect('harnessReadStart', empty),
        },
        {
          name: 'harnessReadMark',
          setup: async () => {
            harnessReadSession = session('h-read');
            await harnessViews(harnessReadSession, ['pre']);
          },
          run: run('harnessReadMark', post, noExtension, () => harnessTool('PostToolUse', harnessReadSession, 'Read', harnessRead)),
          teardown: expect('harnessReadMark', empty),
        },
        {
          name: 'harnessEditAllowed',
          setup: async () => {
            harnessAllowedSession = session('h-allowed');
            await harnessViews(harnessAllowedSession, ['pre', 'post']);
          },
          run: run('harnessEditAllowed', pre, noExtension, () => harnessTool('PreToolUse', harnessAllowedSession, 'Edit', harnessEdit)),
          teardown: async () => {
            expect('harnessEditAllowed', empty)();
            await untimedHook(post, noExtension, harnessTool('PostToolUse', harnessAllowedSession, 'Edit', harnessEdit));
          },
        },
        {
          name: 'harnessEditDenied',
          run: run('harnessEditDenied', pre, noExtension, () =>
            harnessTool('PreToolUse', session('h-denied'), 'Edit', { ...harnessEdit, path: unread }),
          ),
          teardown: expect('harnessEditDenied', denies),
        },
        {
          name: 'harnessPrompt',
          run: run('harnessPrompt', prompt, noExtension, () =>
            harness('UserPromptSubmit', session('h-prompt'), { prompt: 'Flip the marker.' }),
          ),
          teardown: expect('harnessPrompt', empty),
        },
        {
          name: 'noWindow',
          run: run('noWindow', pre, noExtension, () =>
            harnessTool('PreToolUse', session('h-nowindow'), 'Edit', { ...harnessEdit, path: elsewhere }),
          ),
          teardown: expect('noWindow', empty),
        },
        {
          name: 'unreachable',
          run: run('unreachable', pre, unreachable, () =>
            payload('PreToolUse', session('unreachable'), 'replace_string_in_file', replaceInput),
          ),
          teardown: expect('unreachable', empty),
        },
      ],
      { warmup: 2, rounds: quick ? 5 : 21 },
    );
    // the hung extension: each sample waits out the bound, so fewer of them
    const hungMs: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const t0 = performance.now();
      await run('hung', pre, hungEnv, () => payload('PreToolUse', session('hung'), 'replace_string_in_file', replaceInput))();
      hungMs.push(performance.now() - t0);
      expect('hung', empty)();
      await sleep(20);
    }
    const base = { label: '`true`', ...c.times.true };
    const overRuntime = (variant: string) => {
      const d = c.samples[variant].map((t, i) => t - c.samples.runtime[i]);
      return stat(d).median;
    };
    const row = (id: string, variant: string, label: string, goal?: Row['goal'], note?: string): Row => ({
      id,
      group: GROUP,
      label,
      value: c.times[variant],
      baseline: base,
      ratio: c.ratios[variant],
      unit: 'ms',
      ...(goal ? { goal } : {}),
      note: [
        `minus the runtime start, per round: median ${overRuntime(variant).toFixed(1)} ms; / runtime start ${ratioOf(c, variant, 'runtime').median.toFixed(2)}`,
        note,
      ]
        .filter(Boolean)
        .join('; '),
    });
    /** the harness issue's goal for every hook event: its median at most 2.5 times a do-nothing hook's */
    const x25 = { text: '≤ 2.5× `true`', max: 2.5, on: 'ratio' as const };
    rows.push(
      {
        id: 'hook.floor.true',
        group: GROUP,
        label: 'baseline: `true` as the hook command (spawned the same way: sh -c)',
        value: c.times.true,
        unit: 'ms',
      },
      {
        id: 'hook.floor.runtime',
        group: GROUP,
        label: "baseline: the editor's runtime, bare start ('<execPath>' -e 0, ELECTRON_RUN_AS_NODE=1)",
        value: c.times.runtime,
        baseline: base,
        ratio: c.ratios.runtime,
        unit: 'ms',
      },
      row(
        'hook.ignoredNoExtension',
        'ignoredNoExtension',
        "hook command, no window listening (no address, no window's entry): PreToolUse list_dir",
        x25,
      ),
      row('hook.noExtension', 'noExtension', 'hook command, no window listening: PreToolUse replace_string_in_file', x25),
      row(
        'hook.clientAlone',
        'clientAlone',
        "hook command against a listener that answers at once (an edit check's payload): the client's own cost",
        undefined,
        'the window taken away: what the command costs before and after it asks',
      ),
      row('hook.ignored', 'ignored', 'hook command, a tool the gate does not need (PreToolUse list_dir), extension listening', x25),
      row(
        'hook.shellNothing',
        'shellNothing',
        `hook command, a shell command that writes nothing (PreToolUse run_in_terminal \`${shellNothing}\`)`,
        x25,
      ),
      row(
        'hook.shellWriteChecked',
        'shellWriteChecked',
        'hook command, a shell command whose write is found and checked, allowed (PreToolUse run_in_terminal `… >> F`)',
        x25,
        'its read, untimed, just before',
      ),
      row('hook.readStart', 'readStart', 'hook command, the start of a read (PreToolUse read_file: the version it shows)', x25),
      row('hook.readMark', 'readMark', 'hook command, a read mark (PostToolUse read_file)', x25, 'its PreToolUse, untimed, just before'),
      row(
        'hook.editAllowed',
        'editAllowed',
        'hook command, an edit check, allowed (PreToolUse replace_string_in_file of a read file)',
        x25,
        "the read's two hooks, untimed, just before",
      ),
      row(
        'hook.editDenied',
        'editDenied',
        'hook command, an edit check, denied (replace_string_in_file of an unread file: the deny JSON)',
        x25,
      ),
      row('hook.prompt', 'prompt', 'hook command, the start of a turn (UserPromptSubmit)', x25),
      row(
        'hook.harness.readStart',
        'harnessReadStart',
        'Copilot harness (no address: the window from its record), the start of a view (PreToolUse Read)',
        x25,
      ),
      row(
        'hook.harness.readMark',
        'harnessReadMark',
        'Copilot harness, a view mark (PostToolUse Read)',
        x25,
        'its PreToolUse, untimed, just before',
      ),
      row(
        'hook.harness.editAllowed',
        'harnessEditAllowed',
        'Copilot harness, an edit check, allowed (PreToolUse Edit of a viewed file)',
        x25,
        "the view's two hooks, untimed, just before",
      ),
      row('hook.harness.editDenied', 'harnessEditDenied', 'Copilot harness, an edit check, denied (Edit of a file never viewed)', x25),
      row('hook.harness.prompt', 'harnessPrompt', 'Copilot harness, the start of a turn (UserPromptSubmit)', x25),
      row('hook.discovery.noWindow', 'noWindow', "no address, and no window on the file's folder: let through at once", x25),
      row('hook.unreachable', 'unreachable', "hook command, the extension's socket gone: let through", {
        text: '≤ 3000 ms',
        max: 3000,
        on: 'value',
      }),
      {
        id: 'hook.hung',
        group: GROUP,
        label: `hook command, an extension that never answers: let through at its bound (${HUNG_BOUND_MS} ms here)`,
        value: stat(hungMs),
        baseline: { label: 'the bound', median: HUNG_BOUND_MS, min: HUNG_BOUND_MS, max: HUNG_BOUND_MS, n: 1 },
        ratio: stat(hungMs.map((x) => x / HUNG_BOUND_MS)),
        unit: 'ms',
        goal: { text: `≤ ${HUNG_BOUND_MS + 3000} ms (bound + 3 s)`, max: HUNG_BOUND_MS + 3000, on: 'value' },
        note: `Copilot's own timeout per hook is the file's \`timeout\` (default 30 s); the script gives up at ${DEFAULT_BOUND_MS} ms by default`,
      },
    );
    info.hooks = { hooksFile, commands: { UserPromptSubmit: prompt, PreToolUse: pre, PostToolUse: post }, samples: c.samples, hungMs };
  } finally {
    hung.close();
    instant.close();
    fs.rmSync(hungFolder, { recursive: true, force: true });
    fs.rmSync(emptyHome, { recursive: true, force: true });
    await setBridge(false, ws);
  }
}

/**
 * Group 7, Codex's rows: its hook events, each run the way Codex runs a hook — `$SHELL -lc "<command>"`
 * (test/codex/FACTS.md), the payload JSON on stdin, the extension host's environment (a Codex started in
 * this window's terminal) — with the command read from the hooks file the extension writes for
 * `editGuard.guardCodex: user` (`~/.codex/hooks.json`; the run folder is HOME). The baseline is `true` run
 * the same way in the same rounds: Codex's login shell is part of every hook's cost, ours or not.
 *   hook.codex.floor.true        `$SHELL -lc true`
 *   hook.codex.readStart         PreToolUse Bash `cat F` (the version the read shows)
 *   hook.codex.readMark          PostToolUse of it (the read mark), its PreToolUse untimed just before
 *   hook.codex.shellOther        PreToolUse Bash `npm test` (not a read: answered at once)
 *   hook.codex.patchAllowed      PreToolUse apply_patch of a file read (the read's hooks untimed just before)
 *   hook.codex.patchDenied       PreToolUse apply_patch of a file never read: the deny JSON
 */
export async function codexHookRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  const hooksFile = path.join(os.homedir(), '.codex', 'hooks.json');
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('guardCodex', 'user', vscode.ConfigurationTarget.Global);
  try {
    const end = Date.now() + 15000;
    while (!fs.existsSync(hooksFile) || !process.env[ENV_SOCKET]) {
      if (Date.now() > end) throw new Error(`codex hooks bench: ${hooksFile} or the bridge did not appear`);
      await sleep(50);
    }
    const commands = hookCommands(hooksFile);
    const commandOf = (event: string) => {
      const ours = (commands[event] ?? []).filter((c) => c.command.includes('hook-'));
      if (ours.length !== 1) throw new Error(`codex hooks bench: ${hooksFile} has ${ours.length} commands of ours for ${event}`);
      return ours[0].command;
    };
    const pre = commandOf('PreToolUse');
    const post = commandOf('PostToolUse');
    const shell = process.env.SHELL || '/bin/bash';
    const file = path.join(ws, 'codex-hook-roundtrip.txt');
    fs.writeFileSync(file, 'x\n'.repeat(50));
    // the denial's file, which no allowed patch holds (as in hookRoundTrips)
    const unread = path.join(ws, 'codex-hook-roundtrip-unread.txt');
    fs.writeFileSync(unread, 'x\n'.repeat(50));
    let n = 0;
    // as Codex 0.171 sends them (test/codex/FACTS.md)
    const payload = (event: 'PreToolUse' | 'PostToolUse', session: string, tool: string, command: string) =>
      JSON.stringify({
        session_id: session,
        turn_id: `${session}-turn`,
        transcript_path: path.join(os.tmpdir(), `${session}.jsonl`),
        cwd: ws,
        hook_event_name: event,
        model: 'gpt-5.5',
        permission_mode: 'bypassPermissions',
        tool_name: tool,
        tool_input: { command },
        tool_use_id: `call_${++n}`,
        ...(event === 'PostToolUse' ? { tool_response: 'x\n'.repeat(50) } : {}),
      });
    const cat = `cat ${path.basename(file)}`;
    const patchOf = (f: string) => `*** Begin Patch\n*** Update File: ${path.basename(f)}\n@@\n-x\n+y\n*** End Patch\n`;
    const patch = patchOf(file);
    // a UUID-like session per sample: a denial's refusal would count as a read for the same session
    const session = (kind: string) => `0000${kind}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const last: Record<string, Run> = {};
    const runAs = (command: string, stdin: string) => runAsCodex(shell, command, process.env, ws, stdin);
    const run = (name: string, command: string, body: () => string) => async () => {
      last[name] = await runAs(command, body());
    };
    const expect = (name: string, ok: (r: Run) => boolean) => () => {
      const r = last[name];
      if (!r || r.code !== 0 || !ok(r)) throw new Error(`codex hooks bench: ${name} answered ${JSON.stringify(r)}`);
    };
    const empty = (r: Run) => r.stdout.trim() === '';
    const denies = (r: Run) => /"permissionDecision"\s*:\s*"deny"/.test(r.stdout);
    const untimed = async (command: string, body: string) => {
      const r = await runAs(command, body);
      if (r.code !== 0 || !empty(r)) throw new Error(`codex hooks bench: an untimed hook answered ${JSON.stringify(r)}`);
    };
    let readSession = '';
    let allowedSession = '';
    const c = await compare(
      [
        { name: 'true', run: run('true', 'true', () => ''), teardown: expect('true', empty) },
        {
          name: 'readStart',
          run: run('readStart', pre, () => payload('PreToolUse', session('a'), 'Bash', cat)),
          teardown: expect('readStart', empty),
        },
        {
          name: 'readMark',
          setup: async () => {
            readSession = session('b');
            await untimed(pre, payload('PreToolUse', readSession, 'Bash', cat));
          },
          run: run('readMark', post, () => payload('PostToolUse', readSession, 'Bash', cat)),
          teardown: expect('readMark', empty),
        },
        {
          name: 'shellOther',
          run: run('shellOther', pre, () => payload('PreToolUse', session('c'), 'Bash', 'npm test')),
          teardown: expect('shellOther', empty),
        },
        {
          name: 'patchAllowed',
          setup: async () => {
            allowedSession = session('d');
            await untimed(pre, payload('PreToolUse', allowedSession, 'Bash', cat));
            await untimed(post, payload('PostToolUse', allowedSession, 'Bash', cat));
          },
          run: run('patchAllowed', pre, () => payload('PreToolUse', allowedSession, 'apply_patch', patch)),
          // the patch "ran": its PostToolUse settles it (rule 14), untimed
          teardown: async () => {
            expect('patchAllowed', empty)();
            await untimed(post, payload('PostToolUse', allowedSession, 'apply_patch', patch));
          },
        },
        {
          name: 'patchDenied',
          run: run('patchDenied', pre, () => payload('PreToolUse', session('e'), 'apply_patch', patchOf(unread))),
          teardown: expect('patchDenied', denies),
        },
      ],
      { warmup: 2, rounds: quick ? 5 : 21 },
    );
    const base = { label: `\`true\` (${path.basename(shell)} -lc)`, ...c.times.true };
    const x25 = { text: '≤ 2.5× `true`', max: 2.5, on: 'ratio' as const };
    const row = (id: string, variant: string, label: string, note?: string): Row => ({
      id,
      group: GROUP,
      label,
      value: c.times[variant],
      baseline: base,
      ratio: c.ratios[variant],
      unit: 'ms',
      goal: x25,
      ...(note ? { note } : {}),
    });
    rows.push(
      {
        id: 'hook.codex.floor.true',
        group: GROUP,
        label: `baseline for Codex: \`true\` as its hook command (${path.basename(shell)} -lc, as Codex runs a hook)`,
        value: c.times.true,
        unit: 'ms',
      },
      row('hook.codex.readStart', 'readStart', 'Codex, the start of a shell read (PreToolUse Bash `cat F`)'),
      row('hook.codex.readMark', 'readMark', 'Codex, a read mark (PostToolUse Bash `cat F`)', 'its PreToolUse, untimed, just before'),
      row('hook.codex.shellOther', 'shellOther', 'Codex, a shell command that is not a read (PreToolUse Bash `npm test`)'),
      row(
        'hook.codex.patchAllowed',
        'patchAllowed',
        'Codex, a patch check, allowed (PreToolUse apply_patch of a file read)',
        "the read's two hooks, untimed, just before",
      ),
      row('hook.codex.patchDenied', 'patchDenied', 'Codex, a patch check, denied (apply_patch of a file never read: the deny JSON)'),
    );
    info.codexHooks = { hooksFile, shell, commands: { PreToolUse: pre, PostToolUse: post }, samples: c.samples };
  } finally {
    await config.update('guardCodex', undefined, vscode.ConfigurationTarget.Global);
  }
}

/** One hook command run as Codex 0.171 runs it: `$SHELL -lc <command>`, the payload on stdin, the CLI's environment. */
function runAsCodex(shell: string, command: string, env: NodeJS.ProcessEnv, cwd: string, stdin: string): Promise<Run> {
  return runWithShell(shell, ['-lc', command], env, cwd, stdin);
}

/** How a settings-file agent runs a hook command, as read in its installed package (Claude Code 2.1, Gemini CLI 0.61, Qwen Code 0.24). */
interface SettingsAgentHooks extends BenchHooks {
  /** the rows' id part */
  id: string;
  label: string;
  setting: string;
  /** its user settings file, where the extension writes its entries once the setting is `user` */
  file: string;
  read(file: string): object;
  edit(file: string): object;
}

/** The agents whose test folder says how they run a hook command of a settings file (test/<agent>/testAgent.ts `bench.hooks`). */
const SETTINGS_AGENTS: SettingsAgentHooks[] = TEST_AGENTS.flatMap((agent) => {
  const { bench } = agent;
  if (!bench?.hooks) return [];
  const payload = ({ tool, args }: ToolCall) => ({ tool_name: tool, tool_input: args });
  return [
    {
      ...bench.hooks,
      id: bench.id,
      label: agent.name,
      setting: agent.setting,
      file: userFileOf(agent),
      read: (f) => payload(agent.read(f)),
      edit: (f) => payload(agent.replace(f, 'x', 'y')),
    },
  ];
});

/**
 * Group 7, the hook commands of Claude Code, Gemini CLI and Qwen Code, each run the way its CLI runs a hook (its
 * shell, its environment, the payload on stdin), from the settings file the extension wrote once the agent's setting
 * is `user`, against `true` run the same way in the same rounds; the goal of each is at most 2.5× that:
 *   hook.<agent>.floor.true     `true` as its hook command
 *   hook.<agent>.readStart      its read tool's pre-tool event (the version the read shows)
 *   hook.<agent>.readMark       the post-tool event of it (its pre-tool event untimed just before)
 *   hook.<agent>.editAllowed    its edit tool's pre-tool event on a file read (the read's events untimed just before)
 *   hook.<agent>.editDenied     the same on a file never read: the refusal
 */
export async function settingsAgentHookRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, quick: boolean): Promise<void> {
  for (const agent of SETTINGS_AGENTS) await settingsAgentRoundTrips(agent, rows, info, ws, quick);
}

async function settingsAgentRoundTrips(
  agent: SettingsAgentHooks,
  rows: Row[],
  info: Record<string, unknown>,
  ws: string,
  quick: boolean,
): Promise<void> {
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update(agent.setting, 'user', vscode.ConfigurationTarget.Global);
  const fail = (what: string) => new Error(`${agent.label} hooks bench: ${what}`);
  try {
    const ours = (event: string) => (hookCommands(agent.file)[event] ?? []).filter((c) => c.command.includes('hook-'));
    const end = Date.now() + 15000;
    while (!fs.existsSync(agent.file) || !process.env[ENV_SOCKET] || ours(agent.events.pre).length === 0) {
      if (Date.now() > end) throw fail(`${agent.file} or the bridge did not appear`);
      await sleep(50);
    }
    const commandOf = (event: string) => {
      const found = ours(event);
      if (found.length !== 1) throw fail(`${agent.file} has ${found.length} commands of ours for ${event}`);
      return found[0].command;
    };
    const pre = commandOf(agent.events.pre);
    const post = commandOf(agent.events.post);
    const file = path.join(ws, `${agent.id}-hook-roundtrip.txt`);
    fs.writeFileSync(file, 'x\n'.repeat(50));
    // the denial's file, which no allowed edit holds (as in hookRoundTrips)
    const unread = path.join(ws, `${agent.id}-hook-roundtrip-unread.txt`);
    fs.writeFileSync(unread, 'x\n'.repeat(50));
    let n = 0;
    // a UUID-like session per sample: a denial's refusal would count as a read for the same session
    const session = () => `0000${agent.id.slice(0, 4)}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const payload = (event: string, chat: string, call: object) =>
      JSON.stringify({
        session_id: chat,
        transcript_path: path.join(os.tmpdir(), `${chat}.jsonl`),
        cwd: ws,
        hook_event_name: event,
        timestamp: new Date().toISOString(),
        tool_use_id: `call_${++n}`,
        ...call,
      });
    const env = { ...process.env, ...agent.env(ws) };
    const runAs = (command: string, stdin: string) => runWithShell(agent.shell.program, [...agent.shell.args, command], env, ws, stdin);
    const last: Record<string, Run> = {};
    const run = (name: string, command: string, body: () => string) => async () => {
      last[name] = await runAs(command, body());
    };
    const empty = (r: Run) => r.stdout.trim() === '' || /^\{\s*\}$/.test(r.stdout.trim());
    const expect = (name: string, ok: (r: Run) => boolean) => () => {
      const r = last[name];
      if (!r || r.code !== 0 || !ok(r)) throw fail(`${name} answered ${JSON.stringify(r)}`);
    };
    const untimed = async (command: string, body: string) => {
      const r = await runAs(command, body);
      if (r.code !== 0 || !empty(r)) throw fail(`an untimed hook answered ${JSON.stringify(r)}`);
    };
    const { pre: PRE, post: POST } = agent.events;
    let readSession = '';
    let allowedSession = '';
    const c = await compare(
      [
        { name: 'true', run: run('true', 'true', () => ''), teardown: expect('true', empty) },
        {
          name: 'readStart',
          run: run('readStart', pre, () => payload(PRE, session(), agent.read(file))),
          teardown: expect('readStart', empty),
        },
        {
          name: 'readMark',
          setup: async () => {
            readSession = session();
            await untimed(pre, payload(PRE, readSession, agent.read(file)));
          },
          run: run('readMark', post, () => payload(POST, readSession, agent.read(file))),
          teardown: expect('readMark', empty),
        },
        {
          name: 'editAllowed',
          setup: async () => {
            allowedSession = session();
            await untimed(pre, payload(PRE, allowedSession, agent.read(file)));
            await untimed(post, payload(POST, allowedSession, agent.read(file)));
          },
          run: run('editAllowed', pre, () => payload(PRE, allowedSession, agent.edit(file))),
          // the edit "ran": its post-tool event settles it (rule 14), untimed
          teardown: async () => {
            expect('editAllowed', empty)();
            await untimed(post, payload(POST, allowedSession, agent.edit(file)));
          },
        },
        {
          name: 'editDenied',
          run: run('editDenied', pre, () => payload(PRE, session(), agent.edit(unread))),
          teardown: expect('editDenied', (r) => agent.denies(r.stdout)),
        },
      ],
      { warmup: 2, rounds: quick ? 5 : 21 },
    );
    const base = { label: `\`true\` (${agent.shell.label})`, ...c.times.true };
    const x25 = { text: '≤ 2.5× `true`', max: 2.5, on: 'ratio' as const };
    const row = (variant: string, label: string): Row => ({
      id: `hook.${agent.id}.${variant}`,
      group: GROUP,
      label: `${agent.label}, ${label}`,
      value: c.times[variant],
      baseline: base,
      ratio: c.ratios[variant],
      unit: 'ms',
      goal: x25,
    });
    rows.push(
      {
        id: `hook.${agent.id}.floor.true`,
        group: GROUP,
        label: `baseline for ${agent.label}: \`true\` as its hook command (${agent.shell.label}, as it runs a hook)`,
        value: c.times.true,
        unit: 'ms',
      },
      row('readStart', `the start of a read (${PRE} of its read tool)`),
      row('readMark', `a read mark (${POST} of it)`),
      row('editAllowed', `an edit check, allowed (${PRE} of its edit tool on a file read)`),
      row('editDenied', `an edit check, refused (${PRE} of its edit tool on a file never read)`),
    );
    info[`${agent.id}Hooks`] = { file: agent.file, commands: { [PRE]: pre, [POST]: post }, samples: c.samples };
  } finally {
    await config.update(agent.setting, undefined, vscode.ConfigurationTarget.Global);
  }
}

/** One hook command run through `program args… command`, the payload on stdin. */
function runWithShell(program: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, stdin: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(stdin);
  });
}
