// Hook commands that record what the hook process got, for the harness suite. A HookRecorder owns a folder (in
// the run's temporary folder) holding a small shell script; the hooks files it writes run that script as
// `sh <folder>/record.sh <folder> <label>`. For every run of a hook the script keeps, under <folder>/records/,
// the payload (stdin), its environment, working folder and parent command line, then does what the first
// matching rule says (the test sets the rules, so one hooks file serves every test): wait, print (a deny JSON,
// or anything else), exit with a code. A hook the runtime killed (a timeout) has no `finished` time.
// A shell script rather than Node: the runtime waits for each hook, and a Node start per hook costs about a
// second on a busy two-core machine; `sh` a tenth of that. (GNU `date` and `env -0`: the host runs on Linux.)
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { workspaceRoot } from '../integration/helpers';

/** One rule: the first whose `label` and `when` match applies. */
export interface HookRule {
  /** the hook entry's label; any when absent */
  label?: string;
  /** a text the payload must contain (e.g. a file's path); any when absent */
  when?: string;
  /** wait this long first */
  sleepMs?: number;
  /** printed on stdout as is */
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

export interface HookRecord {
  label: string;
  /** epoch ms when the hook started and when it finished (absent: killed before the end) */
  startedAt: number;
  finishedAt?: number;
  stdin: string;
  /** the payload, parsed (undefined when stdin is not JSON) */
  input?: Record<string, unknown>;
  cwd: string;
  env: Record<string, string>;
  pid: number;
  /** the parent process's command line, and its name as the OS gives it (what our hook clients read) */
  parent: string;
  parentName: string;
  /** the index of the rule that applied */
  rule?: number;
}

// records/<start ms>-<pid>-<label>.{env,cwd,parent,stdin,rule,finished}; .stdin, written last of the first four
// through a rename, says a record is there
const SCRIPT = `#!/bin/sh
# hook recorder of the harness suite (test/harness/hookRecorder.ts): record.sh <folder> <label>
folder=$1
label=$2
started=$(date +%s%3N)
input=$(cat)
rec="$folder/records/$started-$$-$label"
env -0 > "$rec.env"
pwd -P > "$rec.cwd"
tr '\\0' ' ' < "/proc/$PPID/cmdline" > "$rec.parent" 2>/dev/null
cat "/proc/$PPID/comm" > "$rec.comm" 2>/dev/null
printf '%s' "$input" > "$rec.stdin.tmp" && mv "$rec.stdin.tmp" "$rec.stdin"
code=0
for rule in "$folder"/rules/*/; do
  [ -d "$rule" ] || continue
  if [ -f "$rule/label" ] && [ "$(cat "$rule/label")" != "$label" ]; then continue; fi
  if [ -f "$rule/when" ]; then
    when=$(cat "$rule/when")
    case $input in *"$when"*) ;; *) continue ;; esac
  fi
  basename "$rule" > "$rec.rule"
  if [ -f "$rule/sleep" ]; then sleep "$(cat "$rule/sleep")"; fi
  if [ -f "$rule/stdout" ]; then cat "$rule/stdout"; fi
  if [ -f "$rule/stderr" ]; then cat "$rule/stderr" >&2; fi
  if [ -f "$rule/exit" ]; then code=$(cat "$rule/exit"); fi
  break
done
date +%s%3N > "$rec.finished"
exit "$code"
`;

/** The hook events a VS Code-format hooks file names. */
export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'Stop';

export interface HookEntry {
  /** the recorder's label (the records say which entry ran); the event's name when absent */
  label?: string;
  /** the VS Code-format `timeout` field, in seconds */
  timeout?: number;
  matcher?: string;
}

const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const readIf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);

export class HookRecorder {
  readonly folder = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-hooks-'));
  private readonly hooksFiles = new Set<string>();

  constructor() {
    fs.writeFileSync(path.join(this.folder, 'record.sh'), SCRIPT);
    fs.mkdirSync(path.join(this.folder, 'records'));
    this.setRules([]);
  }

  /** The command line of a hook entry with this label. */
  command(label: string): string {
    return ['sh', path.join(this.folder, 'record.sh'), this.folder, label].map(shellWord).join(' ');
  }

  /** What the hooks do from now on: the first matching rule applies; none: record only. */
  setRules(rules: HookRule[]): void {
    const dir = path.join(this.folder, 'rules');
    fs.rmSync(dir, { recursive: true, force: true });
    rules.forEach((rule, i) => {
      const ruleDir = path.join(dir, String(i).padStart(2, '0'));
      fs.mkdirSync(ruleDir, { recursive: true });
      const put = (name: string, value: string | number | undefined) => {
        if (value !== undefined) fs.writeFileSync(path.join(ruleDir, name), String(value));
      };
      put('label', rule.label);
      put('when', rule.when);
      put('sleep', rule.sleepMs === undefined ? undefined : rule.sleepMs / 1000);
      put('stdout', rule.stdout);
      put('stderr', rule.stderr);
      put('exit', rule.exitCode);
    });
  }

  /** The records so far, oldest first; `label` keeps one entry's. */
  records(label?: string): HookRecord[] {
    const dir = path.join(this.folder, 'records');
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.stdin'))
      .map((f): HookRecord => {
        const base = path.join(dir, f.slice(0, -'.stdin'.length));
        const [started, pid, ...rest] = path.basename(base).split('-');
        const stdin = fs.readFileSync(base + '.stdin', 'utf8');
        let input: Record<string, unknown> | undefined;
        try {
          input = JSON.parse(stdin) as Record<string, unknown>;
        } catch {}
        const env: Record<string, string> = {};
        for (const entry of (readIf(base + '.env') ?? '').split('\0')) {
          const eq = entry.indexOf('=');
          if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
        }
        const finished = readIf(base + '.finished');
        const rule = readIf(base + '.rule');
        return {
          label: rest.join('-'),
          startedAt: Number(started),
          finishedAt: finished === undefined ? undefined : Number(finished),
          stdin,
          input,
          cwd: (readIf(base + '.cwd') ?? '').trim(),
          env,
          pid: Number(pid),
          parent: (readIf(base + '.parent') ?? '').trim(),
          parentName: (readIf(base + '.comm') ?? '').trim(),
          rule: rule === undefined ? undefined : Number(rule),
        };
      })
      .filter((r) => label === undefined || r.label === label)
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /**
   * Writes the workspace hooks file `.github/hooks/<name>.json` in VS Code's format, every entry a command of
   * this recorder. The runtime reads hook files when a chat's session starts: write them before its first turn.
   */
  writeHooksFile(name: string, hooks: Partial<Record<HookEvent, HookEntry[]>>): string {
    const file = path.join(workspaceRoot(), '.github', 'hooks', `${name}.json`);
    const entries = Object.fromEntries(
      Object.entries(hooks).map(([event, list]) => [
        event,
        (list ?? []).map((e) => ({
          type: 'command',
          command: this.command(e.label ?? event),
          ...(e.timeout !== undefined && { timeout: e.timeout }),
          ...(e.matcher !== undefined && { matcher: e.matcher }),
        })),
      ]),
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ hooks: entries }, null, 2));
    this.hooksFiles.add(file);
    return file;
  }

  /** Removes the hooks files this recorder wrote (chats that start later run none of its hooks). */
  removeHooksFiles(): void {
    for (const file of this.hooksFiles) fs.rmSync(file, { force: true });
    this.hooksFiles.clear();
  }
}

/** The VS Code-format deny a PreToolUse hook prints. */
export const denyOutput = (reason: string) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
