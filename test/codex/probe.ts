// The Codex facts the gate relies on that the host suites do not run (test/codex/FACTS.md), measured with the
// real CLI against the scripted fake Responses API. Run: `npm run codex:probe` (test/shared/probe.mjs bundles
// this file with esbuild and runs it in plain Node). Each check prints `ok` or `FAILED` with what it saw; the
// probe exits 1 if one failed. Run it after upgrading the dev dependency.
//
//   trust hash      our trustHash() equals what `codex app-server` reports (hooks/list currentHash) for our
//                   entries and a user's own hook, and a hook trusted by our lines runs
//   heredoc         `apply_patch <<'EOF' … EOF` through the shell reaches hooks as Bash, with no PostToolUse,
//                   and Codex applies it; our reader takes it for an edit of the patch's files
//   workdir         a shell call's workdir becomes the payload's cwd
//   reads           the payloads of the grammar's reads are Bash with the command as written
//   compaction      automatic compaction runs PreCompact (trigger auto) and a new turn id follows per prompt
//   project trust   a project's .codex/hooks.json runs only once config.toml trusts the project
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseCodexEvent } from '../../src/agents/codex/node/events';
import { trustHash, trustKey, TRUST_MARK } from '../../src/agents/codex/node/hooks';
import { codexBinary, codexConfig, codexEnv, describeRun, makeCodexHome, runCodex } from './codexCli';
import { type FakeResponses, startFakeResponses } from './fakeResponses';

const repo = process.cwd();
const runs = path.join(repo, '.runs', 'codex-probe');
let failed = 0;
const check = (name: string, ok: boolean, saw: unknown) => {
  if (!ok) failed++;
  console.log(`${ok ? 'ok    ' : 'FAILED'} ${name}${ok ? '' : `\n       saw: ${JSON.stringify(saw, null, 1).slice(0, 1500)}`}`);
};

/** A hook that appends its payload to `log` and answers nothing. */
function recorder(dir: string): { command: string; log: string } {
  const script = path.join(dir, 'recorder.js');
  const log = path.join(dir, 'hooks.log');
  fs.writeFileSync(
    script,
    `const fs=require('fs');let i='';process.stdin.on('data',d=>i+=d).on('end',()=>fs.appendFileSync(${JSON.stringify(log)},i.replace(/\\n/g,' ')+'\\n'));`,
  );
  return { command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`, log };
}
const payloads = (log: string): Array<Record<string, unknown>> =>
  fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

/** Our hooks file and its trust lines, for the recorder on these events. */
function hooksWithTrust(home: string, hooksDir: string, command: string, events: string[], matcher = 'Bash|apply_patch'): string {
  const hooksFile = path.join(hooksDir, 'hooks.json');
  const handler = { type: 'command' as const, command, timeout: 15 };
  const hooks: Record<string, unknown[]> = {};
  let trust = '';
  for (const event of events) {
    const tool = event === 'PreToolUse' || event === 'PostToolUse';
    hooks[event] = [tool ? { matcher, hooks: [handler] } : { hooks: [handler] }];
    trust += `\n[hooks.state.${JSON.stringify(trustKey(hooksFile, event, 0, 0))}]\ntrusted_hash = "${trustHash(event, tool ? matcher : undefined, handler)}" ${TRUST_MARK}\n`;
  }
  fs.mkdirSync(hooksDir, { recursive: true });
  fs.writeFileSync(hooksFile, JSON.stringify({ hooks }, null, 2));
  fs.appendFileSync(path.join(home, 'config.toml'), trust);
  return hooksFile;
}

/** `codex app-server`: hooks/list for a folder (each hook's key and currentHash). */
async function listHooks(home: string, cwd: string): Promise<Array<{ key: string; currentHash: string; trustStatus: string }>> {
  const child = spawn(codexBinary(), ['app-server'], { cwd, env: codexEnv(home, home), stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = '';
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const m = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (m.id !== undefined) waiting.get(m.id)?.(m);
      } catch {
        // not a message
      }
    }
  });
  let id = 0;
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const n = ++id;
      const timer = setTimeout(() => reject(new Error(`app-server: no answer to ${method}`)), 30000);
      waiting.set(n, (m) => {
        clearTimeout(timer);
        if (m.error) reject(new Error(JSON.stringify(m.error)));
        else resolve(m.result);
      });
      child.stdin.write(`${JSON.stringify({ id: n, method, params })}\n`);
    });
  try {
    await request('initialize', {
      clientInfo: { name: 'editguard-probe', title: null, version: '0' },
      capabilities: { experimentalApi: true },
    });
    child.stdin.write(`${JSON.stringify({ method: 'initialized', params: {} })}\n`);
    const { data } = (await request('hooks/list', { cwds: [cwd] })) as {
      data: Array<{ hooks: Array<{ key: string; currentHash: string; trustStatus: string }> }>;
    };
    return data.flatMap((d) => d.hooks);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  fs.rmSync(runs, { recursive: true, force: true });
  fs.mkdirSync(runs, { recursive: true });
  const fake: FakeResponses = await startFakeResponses();
  try {
    // -- trust hash, and a hook trusted by our lines runs
    {
      const home = makeCodexHome(fake.baseUrl, runs);
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-probe-ws-'));
      const rec = recorder(home);
      hooksWithTrust(home, home, rec.command, ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact']);
      const listed = await listHooks(home, ws);
      const config = fs.readFileSync(path.join(home, 'config.toml'), 'utf8');
      check(
        'trust hash: every hook hooks/list reports is trusted by the line we computed',
        listed.length === 4 && listed.every((h) => h.trustStatus === 'trusted' && config.includes(h.currentHash)),
        listed,
      );
      // -- reads, workdir, heredoc, in one run
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fs.mkdirSync(path.join(ws, 'sub'));
      fs.writeFileSync(path.join(ws, 'sub', 's.txt'), 'in sub\n');
      fs.writeFileSync(path.join(ws, 'b.txt'), 'bee\n');
      fake.script([
        { shell: "nl -ba a.txt | sed -n '1,20p'", id: 'call_read' },
        { shell: 'cat s.txt', workdir: 'sub', id: 'call_workdir' },
        { shell: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: b.txt\n@@\n-bee\n+BEE\n*** End Patch\nEOF", id: 'call_heredoc' },
        { text: 'done' },
      ]);
      const run = await runCodex({ cwd: ws, prompt: 'probe', home });
      const seen = payloads(rec.log);
      const tool = (id: string, event: string) => seen.find((p) => p.tool_use_id === id && p.hook_event_name === event);
      check('hooks run at all (the trusted recorder logged the run)', seen.length > 0, describeRun(run));
      const read = tool('call_read', 'PreToolUse');
      check(
        'reads: a shell read is Bash with the command as written, and our reader takes it for a read of a.txt',
        read?.tool_name === 'Bash' &&
          (read.tool_input as { command?: string }).command === "nl -ba a.txt | sed -n '1,20p'" &&
          JSON.stringify(parseCodexEvent(read)).includes('"before-read"'),
        read,
      );
      const wd = tool('call_workdir', 'PreToolUse');
      check(
        "workdir: the payload's cwd is the workdir",
        wd?.cwd === path.join(fs.realpathSync(ws), 'sub') || wd?.cwd === path.join(ws, 'sub'),
        wd,
      );
      const heredoc = tool('call_heredoc', 'PreToolUse');
      check(
        'heredoc: apply_patch through the shell reaches hooks as Bash with no PostToolUse, is applied, and is an edit to our reader',
        heredoc?.tool_name === 'Bash' &&
          tool('call_heredoc', 'PostToolUse') === undefined &&
          fs.readFileSync(path.join(ws, 'b.txt'), 'utf8') === 'BEE\n' &&
          JSON.stringify(parseCodexEvent(heredoc)).includes('"before-edit"'),
        { heredoc, post: tool('call_heredoc', 'PostToolUse'), b: fs.readFileSync(path.join(ws, 'b.txt'), 'utf8') },
      );
      const turns = new Set(seen.filter((p) => p.turn_id !== undefined).map((p) => p.turn_id));
      check('one prompt, one turn_id on its events', turns.size === 1, [...turns]);
      fs.rmSync(ws, { recursive: true, force: true });
    }
    // -- automatic compaction
    {
      const home = makeCodexHome(fake.baseUrl, runs);
      fs.writeFileSync(path.join(home, 'config.toml'), `model_auto_compact_token_limit = 1000\n${codexConfig({ baseUrl: fake.baseUrl })}`);
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-probe-ws-'));
      const rec = recorder(home);
      hooksWithTrust(home, home, rec.command, ['UserPromptSubmit', 'PreToolUse', 'PreCompact']);
      fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
      fake.script([{ shell: 'cat a.txt', inputTokens: 5000 }, { text: 'done' }]);
      const run = await runCodex({ cwd: ws, prompt: 'probe compaction', home });
      const compact = payloads(rec.log).find((p) => p.hook_event_name === 'PreCompact');
      check(
        'compaction: automatic compaction runs PreCompact (trigger auto), which our reader takes for compaction',
        compact?.trigger === 'auto' && parseCodexEvent(compact).kind === 'compact',
        {
          events: payloads(rec.log).map((p) => p.hook_event_name),
          run: describeRun(run),
        },
      );
      fs.rmSync(ws, { recursive: true, force: true });
    }
    // -- a project's hooks need the project trusted
    {
      const home = makeCodexHome(fake.baseUrl, runs);
      const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codex-probe-ws-')));
      const rec = recorder(home);
      hooksWithTrust(home, path.join(ws, '.codex'), rec.command, ['UserPromptSubmit']);
      fake.script([{ text: 'done' }]);
      await runCodex({ cwd: ws, prompt: 'untrusted project', home });
      const before = payloads(rec.log).length;
      fs.appendFileSync(path.join(home, 'config.toml'), `\n[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n`);
      fake.script([{ text: 'done' }]);
      await runCodex({ cwd: ws, prompt: 'trusted project', home });
      check('project trust: .codex/hooks.json runs only once the project is trusted', before === 0 && payloads(rec.log).length === 1, {
        before,
        after: payloads(rec.log).length,
      });
      fs.rmSync(ws, { recursive: true, force: true });
    }
  } finally {
    await fake.close();
    fs.rmSync(runs, { recursive: true, force: true });
  }
  console.log(failed ? `${failed} check(s) FAILED` : 'all checks ok');
  process.exit(failed ? 1 : 0);
}

void main();
