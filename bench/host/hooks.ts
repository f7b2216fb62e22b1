// The hooks bridge's cost, in the real extension host (part of bench/host/index.ts): the hook
// script dist/hook-bridge.js run the way Copilot runs a hook command — a new process of the editor's
// own runtime (ELECTRON_RUN_AS_NODE) reading the hook's stdin — against this window's extension with
// `editGuard.guardBuiltinTools` on. Baseline: the bare start of the same runtime (`-e ''`), since a
// hook's cost is mostly that start. Measured here instead of in test/copilot/builtinTools.test.ts and
// test/unit/hooksBridge.test.ts, which assert what the script does; this says how long it takes.
import * as vscode from 'vscode';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { compare, stat } from '../lib/measure';
import type { Row } from '../lib/rows';

// the names the script and the extension agree on (src/hooks/bridgeProtocol.ts)
const ENV_SOCKET = 'AGENT_EDIT_GUARD_SOCKET';
const ENV_SECRET = 'AGENT_EDIT_GUARD_SECRET';
const ENV_MISSED = 'AGENT_EDIT_GUARD_MISSED';
const ENV_BOUND = 'AGENT_EDIT_GUARD_BOUND_MS';
/** the script's own bound (DEFAULT_BOUND_MS) */
const DEFAULT_BOUND_MS = 4000;
/** the bound of the hung-extension case, as the tests use it */
const HUNG_BOUND_MS = 1500;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Run {
  stdout: string;
  code: number | null;
}

function runProcess(args: string[], env: NodeJS.ProcessEnv, cwd: string, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code }));
    child.stdin.end(stdin ?? '');
  });
}

async function waitFor(what: string, ok: () => boolean, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`hooks bench: timed out waiting for ${what}`);
    await sleep(50);
  }
}

export async function hookRoundTrips(rows: Row[], info: Record<string, unknown>, ws: string, extensionPath: string, quick: boolean): Promise<void> {
  const script = path.join(extensionPath, 'dist', 'hook-bridge.js');
  if (!fs.existsSync(script)) throw new Error(`${script} missing (bench/run.mjs builds it into the bench copy)`);
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('guardBuiltinTools', true, vscode.ConfigurationTarget.Workspace);
  const hungFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-bench-hung-'));
  const hungSockets: net.Socket[] = [];
  const hung = net.createServer({ allowHalfOpen: true }, (s) => {
    hungSockets.push(s);
    s.resume(); // reads the request, never answers
  });
  try {
    await waitFor('the hooks bridge to start (editGuard.guardBuiltinTools)', () => !!process.env[ENV_SOCKET] && !!process.env[ENV_SECRET]);
    const withBridge = { ...process.env };
    const noExtension = { ...process.env };
    for (const k of [ENV_SOCKET, ENV_SECRET, ENV_MISSED, ENV_BOUND]) delete noExtension[k];
    const unreachable = { ...withBridge, [ENV_SOCKET]: path.join(hungFolder, 'nobody-listens.sock'), [ENV_MISSED]: path.join(hungFolder, 'missed.jsonl') };
    const hungSocket = path.join(hungFolder, 'hung.sock');
    await new Promise<void>((resolve) => hung.listen(hungSocket, resolve));
    const hungEnv = { ...withBridge, [ENV_SOCKET]: hungSocket, [ENV_BOUND]: String(HUNG_BOUND_MS), [ENV_MISSED]: path.join(hungFolder, 'missed.jsonl') };

    const file = path.join(ws, 'hook-roundtrip.txt');
    fs.writeFileSync(file, 'x\n'.repeat(50));
    let n = 0;
    const last: Record<string, Run> = {};
    const hook = (name: string, env: NodeJS.ProcessEnv, payload: object) => async () => {
      last[name] = await runProcess([script, String((payload as { hook_event_name: string }).hook_event_name)], env, ws, JSON.stringify(payload));
    };
    const ignoredPayload = { hook_event_name: 'PostToolUse', session_id: 'bench-rt', tool_name: 'run_in_terminal', tool_input: { command: 'ls' }, tool_response: '', cwd: ws };
    // a fresh chat each time: the denial's refusal mark would count as a read for the next call of the same chat
    const denyPayload = () => ({ hook_event_name: 'PreToolUse', session_id: `bench-rt-${++n}`, tool_name: 'replace_string_in_file', tool_input: { filePath: file, oldString: 'x', newString: 'y' }, cwd: ws });
    const expect = (name: string, ok: (r: Run) => boolean) => () => {
      const r = last[name];
      if (!r || r.code !== 0 || !ok(r)) throw new Error(`hooks bench: ${name} answered ${JSON.stringify(r)}`);
    };
    const c = await compare(
      [
        { name: 'node start', run: () => runProcess(['-e', ''], withBridge, ws) },
        { name: 'ignored', run: hook('ignored', withBridge, ignoredPayload), teardown: expect('ignored', (r) => r.stdout === '') },
        { name: 'denied', run: () => hook('denied', withBridge, denyPayload())(), teardown: expect('denied', (r) => /"permissionDecision":"deny"/.test(r.stdout)) },
        { name: 'no extension', run: hook('no extension', noExtension, denyPayload()), teardown: expect('no extension', (r) => r.stdout === '') },
        { name: 'unreachable', run: hook('unreachable', unreachable, denyPayload()), teardown: expect('unreachable', (r) => r.stdout === '') },
      ],
      { warmup: 2, rounds: quick ? 5 : 21 },
    );
    // the hung extension: each sample waits out the bound, so fewer of them
    const hungMs: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const t0 = performance.now();
      await hook('hung', hungEnv, denyPayload())();
      hungMs.push(performance.now() - t0);
      expect('hung', (r) => r.stdout === '')();
    }
    const node = c.times['node start'];
    const base = { label: 'bare start of the runtime', ...node };
    const row = (id: string, variant: string, label: string, goal?: Row['goal'], note?: string): Row => ({
      id,
      group: '7 hooks bridge',
      label,
      value: c.times[variant],
      baseline: base,
      ratio: c.ratios[variant],
      unit: 'ms',
      ...(goal ? { goal } : {}),
      ...(note ? { note } : {}),
    });
    rows.push(
      row('hook.ignored', 'ignored', 'hook script, an event the gate ignores (PostToolUse of run_in_terminal)', { text: `≤ ${DEFAULT_BOUND_MS} ms (the script's bound)`, max: DEFAULT_BOUND_MS, on: 'value' }),
      row('hook.denied', 'denied', 'hook script, a PreToolUse edit of an unread file: denied', { text: `≤ ${DEFAULT_BOUND_MS} ms (the script's bound)`, max: DEFAULT_BOUND_MS, on: 'value' }),
      row('hook.noExtension', 'no extension', 'hook script, no extension in the window: let through at once', { text: '≤ 3000 ms', max: 3000, on: 'value' }),
      row('hook.unreachable', 'unreachable', "hook script, the extension's socket gone: let through", { text: '≤ 3000 ms', max: 3000, on: 'value' }),
      {
        id: 'hook.hung',
        group: '7 hooks bridge',
        label: `hook script, an extension that never answers: let through at its bound (${HUNG_BOUND_MS} ms here)`,
        value: stat(hungMs),
        baseline: { label: 'the bound', median: HUNG_BOUND_MS, min: HUNG_BOUND_MS, max: HUNG_BOUND_MS, n: 1 },
        ratio: stat(hungMs.map((x) => x / HUNG_BOUND_MS)),
        unit: 'ms',
        goal: { text: `≤ ${HUNG_BOUND_MS + 3000} ms (bound + 3 s)`, max: HUNG_BOUND_MS + 3000, on: 'value' },
        note: "Copilot's own timeout per hook is 15 s: the script gives up long before",
      },
    );
    info.hooks = { samples: c.samples, hungMs };
  } finally {
    for (const s of hungSockets) s.destroy();
    hung.close();
    fs.rmSync(hungFolder, { recursive: true, force: true });
    await config.update('guardBuiltinTools', undefined, vscode.ConfigurationTarget.Workspace);
  }
}
