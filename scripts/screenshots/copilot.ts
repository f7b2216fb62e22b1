// `npm run copilot:capture`: the README's material from GitHub Copilot Chat's real agent loop (the
// Copilot host: code-server's bundled Copilot Chat, the scripted fake model of test/copilot/fake-model).
// Not a test: it is loaded as the extension host's test entry only to drive Copilot, and it fails only
// when a scene cannot be produced or is not what its section says. What these turns do is asserted by
// the suite (test/copilot/copilot.test.ts, builtinTools.test.ts); this records what the model received.
// Writes:
//   $EDITGUARD_CAPTURE_DIR (default test/copilot/ of the repo): what-the-agent-sees.md, what-the-agent-sees-builtin.md
//   $SHOTS_DIR (scripts/screenshots/run.sh sets it to media/): copilot-blocked-retry.png
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import { GREETING_TS } from '../../test/integration/helpers';
import {
  agentTurn,
  EXTENSION_ID,
  fakeModel,
  lastResult,
  makeFile,
  marksFor,
  newChat,
  READ,
  REPLACE,
  resultsOf,
  revertAndCloseAll,
  sleep,
  startCopilotSuite,
  ToolResultSeen,
  ui,
  userEdit,
  waitFor,
  workspaceRoot,
  WRITE,
} from '../../test/copilot/agent';

const BLOCKED = 'BLOCKED: nothing was written.';
const DENIED = /^Tool execution denied: /;
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
function capture(key: string, title: string, note: string, r: ToolResultSeen | undefined): void {
  need(r, `a tool result for "${title}"`);
  seen.set(key, { title, note, call: { name: r!.name, input: r!.input }, text: r!.text });
}
const ORDER = ['read', 'blocked-not-read', 'blocked-changed', 'blocked-own-write-expired', 'write-ok', 'write-ok-unsaved', 'read-cut', 'read-budget', 'blocked-large', 'two-parts'];

/** Absolute paths of this run's folders would differ in every run. */
function tidy(t: string): string {
  const runDir = process.env.RUN_DIR;
  return runDir ? t.split(runDir + '/user-data').join('<user-data-dir>').split(runDir).join('<run>') : t;
}

function fenceFor(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  return '`'.repeat(longest + 1);
}

function agentSeesMarkdown(): string {
  const out = [
    '# What the agent sees',
    '',
    'The exact text GitHub Copilot Chat\'s agent loop handed the model for each guarded tool call, captured',
    'by `npm run copilot:capture` (scripts/screenshots/copilot.ts) from a real run: VS Code',
    `${vscode.version}, Copilot Chat ${vscode.extensions.getExtension('GitHub.copilot-chat')?.packageJSON?.version ?? '?'},`,
    'a scripted fake model. Copilot passes only the text part of a tool result to the model; the JSON part',
    'never reaches it (the chat shows it to the user as an attachment named `file.bin`).',
    '',
    'Copilot also replaces any text part longer than 8 KB (8192 characters; settings',
    '`github.copilot.chat.agent.largeToolResultsToDisk.enabled` / `.thresholdBytes`) with a pointer to a file',
    'holding it. The guarded tools keep file text within `editGuard.maxResultChars` (7000) and send a refusal\'s',
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
    out.push(`## ${s!.title}`, '', s!.note, '', 'The call:', '', fc + 'text', call, fc, '', 'What the model received:', '', f + 'text', text, f, '');
  }
  return out.join('\n');
}

// what-the-agent-sees-builtin.md: denials of Copilot's own tools
const denials: Array<[string, string]> = [];
function keepDenial(title: string, text: string): void {
  need(DENIED.test(text), `"${title}" is a denial: ${text.slice(0, 200)}`);
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
    // the tool calls: expand the refused one (the second) and the retry (the third)
    { selector: '.chat-most-recent-response .chat-tool-invocation-part .chat-confirmation-widget-title', nth: 1 },
    { selector: '.chat-most-recent-response .chat-tool-invocation-part .chat-confirmation-widget-title', nth: 2 },
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
// the guarded tools' scenes (the same turns as test/copilot/copilot.test.ts b–g)

async function staleEditAndRetry(): Promise<void> {
  const f = makeFile('src/greeting.ts', GREETING_TS);
  const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
  const userLine = '  return `Good morning, ${g.name}${g.punctuation}`;';
  const turn = await agentTurn('b-stale', [
    { tool: READ, input: { filePath: f.rel } },
    async () => {
      // the user changes line 7 in the editor while the turn runs (not saved) — after the agent's read
      await userEdit(doc, 'Hello', 'Good morning');
      return { tool: REPLACE, input: { filePath: f.rel, oldString: '  return `Hello, ${g.name}${g.punctuation}`;', newString: '  return `Hello, ${g.name}${g.punctuation}!`;' } };
    },
    { tool: REPLACE, input: { filePath: f.rel, oldString: userLine, newString: '  return `Good morning, ${g.name}${g.punctuation}!`;' } },
    { text: 'Added the exclamation mark, keeping your "Good morning".' },
  ], 'Add an exclamation mark to the greeting in src/greeting.ts.', { untagged: true });
  const [read, blocked, retry] = resultsOf(turn);
  need(blocked?.text.startsWith(BLOCKED) && !/BLOCKED|ERROR/.test(retry?.text ?? 'ERROR'), 'blocked, then the retry passed');
  capture('read', 'A read', 'The model reads a file with `editGuard_readFile`.', read);
  capture('blocked-changed', 'A blocked write: changed since the read', 'After the read, the user changed line 7 in the editor and did not save; the model then replaced from its old copy.', blocked);
  capture('write-ok-unsaved', 'A successful write into a file with unsaved user changes', 'The retry, with the text the refusal showed.', retry);
  await screenshotOfTheChat('copilot-blocked-retry');
}

async function blindWrite(): Promise<void> {
  const f = makeFile('notes/todo.md', '# TODO\n\n- write the docs\n- ship it\n');
  const turn = await agentTurn('c-blind', [
    { tool: WRITE, input: { filePath: f.rel, content: '# TODO\n\n- celebrate\n' } },
    { tool: WRITE, input: { filePath: f.rel, content: '# TODO\n\n- write the docs\n- ship it\n- celebrate\n' } },
    { text: 'Done.' },
  ], 'Add "celebrate" to notes/todo.md.');
  const [blocked, retry] = resultsOf(turn);
  need(blocked?.text.startsWith(BLOCKED) && /not read/.test(blocked.text), 'the blind write was refused as not read');
  capture('blocked-not-read', 'A blocked write: never read in this chat', 'The model overwrote an existing file it had not read.', blocked);
  capture('write-ok', 'A successful write', 'The retry, right after the refusal (the refusal counts as a read).', retry);
}

async function ownWriteExpires(): Promise<void> {
  const f = makeFile('src/version.txt', 'v1\n');
  await agentTurn('d-turn1', [
    { tool: READ, input: { filePath: f.rel } },
    { tool: WRITE, input: { filePath: f.rel, content: 'v2\n' } },
    { tool: REPLACE, input: { filePath: f.rel, oldString: 'v2', newString: 'v3' } },
    { text: 'v3 it is.' },
  ]);
  const t2 = await agentTurn('d-turn2', [
    { tool: REPLACE, input: { filePath: f.rel, oldString: 'v3', newString: 'v4' } },
    { tool: REPLACE, input: { filePath: f.rel, oldString: 'v3', newString: 'v4' } },
    { text: 'v4 now.' },
  ]);
  const [expired] = resultsOf(t2);
  need(expired?.text.startsWith(BLOCKED) && /earlier turn/.test(expired.text), 'the own write of turn 1 no longer counted');
  capture('blocked-own-write-expired', 'A blocked write: own write from an earlier turn', "In turn 1 the model read, wrote and replaced (all allowed); in turn 2 of the same chat it replaced again without reading.", expired);
}

async function readCutAtTheLineCap(): Promise<void> {
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('maxReadLines', 120, vscode.ConfigurationTarget.Workspace);
  try {
    const total = 300;
    const f = makeFile('data/long.txt', Array.from({ length: total }, (_, i) => `line ${i + 1} of the long file`).join('\n') + '\n');
    const turn = await agentTurn('e-cap', [
      { tool: READ, input: { filePath: f.rel } },
      { tool: READ, input: { filePath: f.rel, offset: 121, limit: 100 } },
      { text: 'Read it all.' },
    ]);
    const [first] = resultsOf(turn);
    need(/at most 120 lines per read/.test(first?.text ?? ''), 'the read was cut at 120 lines');
    capture('read-cut', 'A read cut at the line cap', `A ${total}-line file, read without offset/limit, with \`editGuard.maxReadLines\` = 120 (the middle is elided here).`, first);
  } finally {
    await config.update('maxReadLines', undefined, vscode.ConfigurationTarget.Workspace);
  }
}

async function longReadUnderCopilot(): Promise<void> {
  const total = 2150;
  const f = makeFile('data/longer.txt', Array.from({ length: total }, (_, i) => `line ${i + 1} of the long file`).join('\n') + '\n');
  const turn = await agentTurn('e2-budget', [
    { tool: READ, input: { filePath: f.rel } },
    (req) => {
      const m = /offset: (\d+)/.exec(lastResult(req).text);
      return m ? { tool: READ, input: { filePath: f.rel, offset: Number(m[1]), limit: 20 } } : { text: 'No offset hint.' };
    },
    { text: 'Done.' },
  ]);
  const [first] = resultsOf(turn);
  need(first && first.text.length < 8192, 'the long read stayed under 8 KB');
  capture('read-budget', 'A long read under Copilot', `A ${total}-line file (~62 KB) read at the default settings: the result stops at \`editGuard.maxResultChars\` (7000 characters), below Copilot's 8 KB threshold for writing a tool result to a file, and names the next offset.`, first);
}

async function blindWriteToALargeFile(): Promise<void> {
  const lines = Array.from({ length: 400 }, (_, i) => `const value${i + 1} = ${i + 1}; // a line of a file the model never read`);
  const f = makeFile('src/big.ts', lines.join('\n') + '\n');
  const turn = await agentTurn('f-big-blind', [
    { tool: WRITE, input: { filePath: f.rel, content: 'export const done = true;\n' } },
    { text: 'Blocked; I will read the file first.' },
  ]);
  const [blocked] = resultsOf(turn);
  need(blocked?.text.startsWith(BLOCKED), 'the blind write was refused inline');
  capture('blocked-large', 'A blocked write to a large file under Copilot', 'A blind write to a 400-line file (~26 KB): the refusal\'s headline is a text part of its own and the content is cut at `editGuard.maxResultChars`, so the model sees both inline.', blocked);
}

async function twoTextParts(): Promise<void> {
  const turn = await agentTurn('g-parts', [
    { tool: 'editguardTest_twoParts', input: { longChars: 20000 } },
    { text: 'Seen.' },
  ]);
  const [r] = resultsOf(turn);
  need(r?.text.startsWith('FIRST PART: short, and meant to stay inline.'), 'the short part stayed inline');
  capture('two-parts', 'A result of two text parts under Copilot (a test-only tool, not ours)', 'A short text part, then one of 20,000 characters: Copilot rendered each part on its own — the short one inline, the long one replaced by a pointer — and joined them with nothing in between.', r);
}

// ---------------------------------------------------------------------------------------------
// Copilot's built-in tools behind the gate (the same turns as test/copilot/builtinTools.test.ts)

const hooksFile = () => path.join(workspaceRoot(), '.github', 'hooks', 'agent-edit-guard.json');

async function setGuardBuiltinTools(on: boolean): Promise<void> {
  await vscode.workspace.getConfiguration('editGuard', null).update('guardBuiltinTools', on ? true : undefined, vscode.ConfigurationTarget.Workspace);
  await waitFor(() => fs.existsSync(hooksFile()) === on, `the hooks file to be ${on ? 'written' : 'removed'}`, 10000);
}

/** Copilot picks up a new hooks file within a few seconds: wait until a built-in read is marked through it. */
async function waitUntilHooksAreLive(): Promise<void> {
  const probe = makeFile('builtin/probe.txt', 'probe\n');
  for (let attempt = 1; attempt <= 6; attempt++) {
    await newChat();
    await agentTurn('hooks-live', [{ tool: 'read_file', input: { filePath: probe.abs, startLine: 1, endLine: 1 } }, { text: 'read.' }], 'Read the probe.', { model: fakeModel().MODELS.sonnet });
    if ((await marksFor(probe.uri)).length > 0) return;
    await sleep(1000);
  }
  throw new Error('Copilot never ran the hooks of .github/hooks/agent-edit-guard.json');
}

async function builtinStaleReplace(): Promise<void> {
  const f = makeFile('builtin/greeting.ts', GREETING_TS);
  const doc = (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(f.uri), { preview: false })).document;
  const oldLine = '  return `Hello, ${g.name}${g.punctuation}`;';
  const userLine = '  return `Good morning, ${g.name}${g.punctuation}`;';
  let denied = '';
  await agentTurn('builtin-stale', [
    { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 20 } },
    async () => {
      await userEdit(doc, 'Hello', 'Good morning');
      return { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: oldLine, newString: oldLine.replace('`;', '!`;') } };
    },
    (req) => {
      denied = lastResult(req).text;
      return { tool: 'read_file', input: { filePath: f.abs, startLine: 1, endLine: 20 } };
    },
    { tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: userLine, newString: userLine.replace('`;', '!`;') } },
    { text: 'Done, keeping your "Good morning".' },
  ], 'Add an exclamation mark to the greeting.', { model: fakeModel().MODELS.sonnet });
  keepDenial('replace_string_in_file after an unsaved user edit', denied);
}

async function builtinApplyPatch(): Promise<void> {
  const a = makeFile('builtin/patch-a.txt', 'alpha\nbeta\n');
  const b = makeFile('builtin/patch-b.txt', 'one\ntwo\n');
  const docB = await vscode.workspace.openTextDocument(b.uri);
  const patch = `*** Begin Patch\n*** Update File: ${a.abs}\n@@\n-beta\n+BETA\n*** Update File: ${b.abs}\n@@\n-two\n+TWO\n*** End Patch`;
  let denied = '';
  await agentTurn('builtin-patch', [
    { tool: 'read_file', input: { filePath: a.abs, startLine: 1, endLine: 2 } },
    { tool: 'read_file', input: { filePath: b.abs, startLine: 1, endLine: 2 } },
    async () => {
      await userEdit(docB, 'one', 'one (the user)');
      return { tool: 'apply_patch', input: { explanation: 'Upper-case the second lines.', input: patch } };
    },
    (req) => {
      denied = lastResult(req).text;
      return { text: 'The patch was refused.' };
    },
  ], 'Upper-case the second line of both files.', { model: fakeModel().MODELS.gpt });
  keepDenial('apply_patch over two files, one changed', denied);
}

async function builtinAfterCompaction(): Promise<void> {
  const target = makeFile('builtin/compact.txt', 'keep\nme\n');
  const big = makeFile('builtin/big.txt', Array.from({ length: 2000 }, (_, i) => `line ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join('\n') + '\n');
  const reads = [1, 401, 801, 1201, 1601].map((start) => ({ tool: 'read_file', input: { filePath: big.abs, startLine: start, endLine: start + 399 } }));
  let denied = '';
  await agentTurn('builtin-compact', [
    { tool: 'read_file', input: { filePath: target.abs, startLine: 1, endLine: 2 } },
    async () => {
      // the read's PostToolUse may still be on its way
      await waitFor(async () => (await marksFor(target.uri)).length, 'the read mark of the first read_file', 5000).catch(() => 0);
      return reads[0];
    },
    ...reads.slice(1),
    { tool: 'replace_string_in_file', input: { filePath: target.abs, oldString: 'keep', newString: 'kept' } },
    (req) => {
      denied = req.toolResults.filter((r) => r.name === 'replace_string_in_file').at(-1)?.text ?? '(no result)';
      return { text: 'done' };
    },
  ], 'Read the files, then edit.', { model: fakeModel().MODELS.small });
  need(/You have not read builtin\/compact\.txt in this chat/.test(denied), `the compaction forgot the read: ${denied.slice(0, 200)}`);
  keepDenial('replace_string_in_file after the chat was compacted', denied);
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<void> {
  if (!process.env.EDITGUARD_ACK_DIR) throw new Error('needs the Playwright driver of the code-server host: run it with npm run copilot:capture');
  const outDir = process.env.EDITGUARD_CAPTURE_DIR || path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'copilot');
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
  await scene("an own write of an earlier turn", ownWriteExpires);
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
