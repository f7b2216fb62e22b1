// `npm run copilot:capture`: the material of docs/what-the-agent-sees.md from GitHub Copilot Chat's real agent loop (the
// Copilot host: code-server's bundled Copilot Chat, the scripted fake model of test/copilot/fake-model).
// Not a test: it is loaded as the extension host's test entry only to drive Copilot, and it fails only
// when a scene cannot be produced or is not what its section says. Each scene is a turn of the suite,
// run from test/copilot/turns.ts with the checks of what the model was shown that the suite and the
// section both rest on; the rest of what the turns do is asserted by the suite (test/copilot/copilot.test.ts,
// builtinTools.test.ts). This records what the model received.
// Writes:
//   $EDITGUARD_CAPTURE_DIR (default test/copilot/ of the repo): what-the-agent-sees.md, what-the-agent-sees-builtin.md
//   $SHOTS_DIR (scripts/screenshots/run.sh sets it to media/): copilot-blocked-retry.png
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import { EXTENSION_ID, newChat, revertAndCloseAll, sleep, startCopilotSuite, ToolResultSeen, ui } from '../../test/copilot/agent';
import {
  blindWriteToALargeFileTurn,
  blindWriteTurn,
  builtinAfterCompactionTurn,
  builtinApplyPatchTurn,
  builtinStaleReplaceTurn,
  longReadTurn,
  ownWriteFirstTurn,
  ownWriteNextTurn,
  readCutTurn,
  setGuardBuiltinTools,
  staleEditTurn,
  twoPartsTurn,
  versionFile,
  waitUntilHooksAreLive,
} from '../../test/copilot/turns';

const log = (m: string) => console.log(`[capture] ${m}`);

function need(ok: unknown, what: string): void {
  if (!ok) throw new Error(`the captured scene is not what its section says: ${what}`);
}

// ---------------------------------------------------------------------------------------------
// what-the-agent-sees.md: the guarded tools' results as the model received them

interface Seen {
  title: string;
  note: string;
  call: { name?: string; input?: unknown };
  text: string;
}
const seen = new Map<string, Seen>();
function capture(key: string, title: string, note: string, r: ToolResultSeen): void {
  seen.set(key, { title, note, call: { name: r.name, input: r.input }, text: r.text });
}
const ORDER = [
  'read',
  'blocked-not-read',
  'blocked-changed',
  'blocked-own-write-expired',
  'write-ok',
  'write-ok-unsaved',
  'read-cut',
  'read-budget',
  'blocked-large',
  'two-parts',
];

/** Absolute paths of this run's folders would differ in every run. */
function tidy(t: string): string {
  const runDir = process.env.RUN_DIR;
  return runDir
    ? t
        .split(runDir + '/user-data')
        .join('<user-data-dir>')
        .split(runDir)
        .join('<run>')
    : t;
}

function fenceFor(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  return '`'.repeat(longest + 1);
}

function agentSeesMarkdown(): string {
  const out = [
    '# What the agent sees',
    '',
    "The exact text GitHub Copilot Chat's agent loop handed the model for each guarded tool call, captured",
    'by `npm run copilot:capture` (scripts/screenshots/copilot.ts) from a real run: VS Code',
    `${vscode.version}, Copilot Chat ${vscode.extensions.getExtension('GitHub.copilot-chat')?.packageJSON?.version ?? '?'},`,
    'a scripted fake model. Copilot passes only the text part of a tool result to the model; the JSON part',
    'never reaches it, nor is it shown in the chat: there each call links the file it touched.',
    '',
    'Copilot also replaces any text part longer than 8 KB (8192 characters; settings',
    '`github.copilot.chat.agent.largeToolResultsToDisk.enabled` / `.thresholdBytes`) with a pointer to a file',
    "holding it. The guarded tools keep file text within `editGuard.maxResultChars` (7000) and send a refusal's",
    'headline as a part of its own, so what matters reaches the model inline: see the last sections.',
    '',
  ];
  for (const key of ORDER) {
    const s = seen.get(key);
    need(s, `section ${key} was captured`);
    let text = tidy(s!.text);
    if (key === 'read-cut') {
      const lines = text.split('\n');
      text = [...lines.slice(0, 4), `… (${lines.length - 9} more lines) …`, ...lines.slice(-5)].join('\n');
    }
    let call = `${s!.call.name} ${JSON.stringify(s!.call.input)}`;
    if (call.length > 400) call = `${call.slice(0, 240)} … (${call.length - 300} more characters) … ${call.slice(-60)}`;
    const fc = fenceFor(call);
    const f = fenceFor(text);
    out.push(
      `## ${s!.title}`,
      '',
      s!.note,
      '',
      'The call:',
      '',
      fc + 'text',
      call,
      fc,
      '',
      'What the model received:',
      '',
      f + 'text',
      text,
      f,
      '',
    );
  }
  return out.join('\n');
}

// what-the-agent-sees-builtin.md: denials of Copilot's own tools
const denials: Array<[string, string]> = [];
function keepDenial(title: string, text: string): void {
  const runDir = process.env.RUN_DIR;
  denials.push([title, runDir ? text.split(runDir).join('<run>') : text]);
}
const builtinMarkdown = () =>
  `# What the agent sees: denials of Copilot's built-in tools\n\nCaptured by \`npm run copilot:capture\` (scripts/screenshots/copilot.ts) in Copilot's real agent loop (VS Code ${vscode.version}).\n\n${denials.map(([t, x]) => `## ${t}\n\n\`\`\`\`text\n${x}\n\`\`\`\`\n`).join('\n')}`;

// ---------------------------------------------------------------------------------------------
// the screenshot

/** The chat view, widened, with the steps of the last response expanded; saved as `name`.png in $SHOTS_DIR. */
async function screenshotOfTheChat(name: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open');
  await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar').then(undefined, () => {});
  // a taller page, so the refused call and the retry both fit (drive.js's `viewport` action)
  await ui({ action: 'viewport', width: 1400, height: 1250 });
  await sleep(800);
  // tidy the view: no notification over the input, no sessions list; then open the steps of the last response
  const clicks = [
    { selector: '.chat-input-notification-dismiss' },
    { selector: 'a[aria-label="Hide Agent Sessions Sidebar"]' },
    { selector: '.chat-most-recent-response summary.completed-response-summary' },
    { selector: '.chat-most-recent-response .chat-thinking-box .chat-used-context-label a.monaco-button' },
    // the tool calls: expand the refused one (its input/output section shows the refusal) and the retry (its file link)
    { selector: '.chat-most-recent-response .chat-tool-invocation-part .chat-confirmation-widget-title', nth: 0 },
    { selector: '.chat-most-recent-response .chat-tool-invocation-part .chat-used-context-label a.monaco-button', nth: -1 },
    { selector: '.chat-scroll-down' },
  ];
  const clicked: unknown[] = [];
  for (const c of clicks) {
    clicked.push(await ui({ action: 'click', timeout: 2000, ...c }));
    await sleep(400);
  }
  if (process.env.RUN_DIR) fs.writeFileSync(path.join(process.env.RUN_DIR, 'screenshot-clicks.json'), JSON.stringify(clicked));
  const shot = await ui({ action: 'screenshot', name });
  await ui({ action: 'viewport', width: 1400, height: 900 });
  await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar').then(undefined, () => {});
  need(shot.ok, `screenshot ${name}: ${JSON.stringify(shot)} (clicks: ${JSON.stringify(clicked)})`);
  log(`${name}.png`);
}

// ---------------------------------------------------------------------------------------------
// the guarded tools' scenes (the turns of test/copilot/copilot.test.ts b–g, from turns.ts)

async function staleEditAndRetry(): Promise<void> {
  const { read, blocked, retry } = await staleEditTurn();
  capture('read', 'A read', 'The model reads a file with `editGuard_readFile`.', read);
  capture(
    'blocked-changed',
    'A blocked write: changed since the read',
    'After the read, the user changed line 7 in the editor and did not save; the model then replaced from its old copy.',
    blocked,
  );
  capture(
    'write-ok-unsaved',
    'A successful write into a file with unsaved user changes',
    'The retry, with the text the refusal showed.',
    retry,
  );
  await screenshotOfTheChat('copilot-blocked-retry');
}

async function blindWrite(): Promise<void> {
  const { blocked, retry } = await blindWriteTurn();
  capture('blocked-not-read', 'A blocked write: never read in this chat', 'The model overwrote an existing file it had not read.', blocked);
  capture('write-ok', 'A successful write', 'The retry, right after the refusal (the refusal counts as a read).', retry);
}

async function ownWriteExpires(): Promise<void> {
  const f = versionFile();
  await ownWriteFirstTurn(f);
  const { expired } = await ownWriteNextTurn(f);
  capture(
    'blocked-own-write-expired',
    'A blocked write: own write from an earlier turn',
    'In turn 1 the model read, wrote and replaced (all allowed); in turn 2 of the same chat it replaced again without reading.',
    expired,
  );
}

async function readCutAtTheLineCap(): Promise<void> {
  const { total, first } = await readCutTurn();
  capture(
    'read-cut',
    'A read cut at the line cap',
    `A ${total}-line file, read without offset/limit, with \`editGuard.maxReadLines\` = 120 (the middle is elided here).`,
    first,
  );
}

async function longReadUnderCopilot(): Promise<void> {
  const { total, first } = await longReadTurn();
  capture(
    'read-budget',
    'A long read under Copilot',
    `A ${total}-line file (~62 KB) read at the default settings: the result stops at \`editGuard.maxResultChars\` (7000 characters), below Copilot's 8 KB threshold for writing a tool result to a file, and names the next offset.`,
    first,
  );
}

async function blindWriteToALargeFile(): Promise<void> {
  const { blocked } = await blindWriteToALargeFileTurn();
  capture(
    'blocked-large',
    'A blocked write to a large file under Copilot',
    "A blind write to a 400-line file (~26 KB): the refusal's headline is a text part of its own and the content is cut at `editGuard.maxResultChars`, so the model sees both inline.",
    blocked,
  );
}

async function twoTextParts(): Promise<void> {
  const r = await twoPartsTurn();
  capture(
    'two-parts',
    'A result of two text parts under Copilot (a test-only tool, not ours)',
    'A short text part, then one of 20,000 characters: Copilot rendered each part on its own — the short one inline, the long one replaced by a pointer — and joined them with nothing in between.',
    r,
  );
}

// ---------------------------------------------------------------------------------------------
// Copilot's built-in tools behind the gate (the turns of test/copilot/builtinTools.test.ts, from turns.ts)

async function builtinStaleReplace(): Promise<void> {
  keepDenial('replace_string_in_file after an unsaved user edit', (await builtinStaleReplaceTurn()).denied);
}

async function builtinApplyPatch(): Promise<void> {
  keepDenial('apply_patch over two files, one changed', (await builtinApplyPatchTurn()).denied);
}

async function builtinAfterCompaction(): Promise<void> {
  keepDenial('replace_string_in_file after the chat was compacted', (await builtinAfterCompactionTurn()).denied);
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<void> {
  if (!process.env.EDITGUARD_ACK_DIR)
    throw new Error('needs the Playwright driver of the code-server host: run it with npm run copilot:capture');
  const outDir =
    process.env.EDITGUARD_CAPTURE_DIR || path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'copilot');
  await startCopilotSuite();
  const scene = async (name: string, body: () => Promise<void>) => {
    log(name);
    await newChat();
    try {
      await body();
    } finally {
      await revertAndCloseAll();
    }
  };
  await scene('a stale edit and its retry', staleEditAndRetry);
  await scene('a blind write', blindWrite);
  await scene('an own write of an earlier turn', ownWriteExpires);
  await scene('a read cut at the line cap', readCutAtTheLineCap);
  await scene('a long read', longReadUnderCopilot);
  await scene('a blind write to a large file', blindWriteToALargeFile);
  await scene('two text parts', twoTextParts);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'what-the-agent-sees.md'), agentSeesMarkdown());
  log(`wrote ${path.join(outDir, 'what-the-agent-sees.md')}`);

  await setGuardBuiltinTools(true);
  try {
    await waitUntilHooksAreLive();
    await scene('built-in: a stale replace', builtinStaleReplace);
    await scene('built-in: apply_patch', builtinApplyPatch);
    await scene('built-in: after a compaction', builtinAfterCompaction);
  } finally {
    await setGuardBuiltinTools(false);
  }
  fs.writeFileSync(path.join(outDir, 'what-the-agent-sees-builtin.md'), builtinMarkdown());
  log(`wrote ${path.join(outDir, 'what-the-agent-sees-builtin.md')}`);
}
