// Test-only "agent" for Agent Edit Guard: a chat participant (@scripted) that calls language-model tools
// exactly as its prompt says, the way Copilot's agent loop does:
//   vscode.lm.invokeTool(tool, { input, toolInvocationToken: request.toolInvocationToken, chatRequestId: request.id }, token)
// plus a fake language-model provider (a chat request needs a selected model; this one is never really used).
//
// Prompt forms (after "@scripted"):
//   {"calls":[{"tool":"editGuard_readFile","input":{...}}, ...], "ids": true, "parallel": false}   (tests)
//   read <path> [offset] [limit]
//   write <path> <content...>          content = the rest of the prompt (may span lines)
//   append <path> <content...>
//   replace <path> <<<old text===new text>>>   (markers may also stand on their own lines)
//   help
// A path with spaces goes in double quotes. activate() returns { requests }: one record per chat request,
// { prompt, id, token, results: [{ tool, input, text, json, error }], done }, for tests to inspect.
'use strict';
const vscode = require('vscode');

const TOOLS = {
  read: 'editGuard_readFile',
  write: 'editGuard_writeFile',
  append: 'editGuard_writeFile',
  replace: 'editGuard_replaceString',
};
const HELP = [
  '**@scripted** calls the Agent Edit Guard tools exactly as you say:',
  '',
  '- `read <path> [offset] [limit]` — guarded read (1-based line offset, line count)',
  '- `write <path> <content>` — create or overwrite; the content is the rest of the message (Shift+Enter for new lines)',
  '- `append <path> <content>` — append to the file',
  '- `replace <path> <<<old text===new text>>>` — replace exact text (old text must not contain `===`)',
  '- `{"calls":[{"tool":"editGuard_readFile","input":{"filePath":"notes.md"}}]}` — any tool calls as JSON',
  '',
  'Paths are relative to the workspace folder (or absolute); put a path with spaces in double quotes.',
].join('\n');

const requests = [];

/** `<path> rest` → [path, rest]; the path may be "double quoted". */
function splitPath(s) {
  const m = /^\s*(?:"([^"]+)"|(\S+))([\s\S]*)$/.exec(s);
  if (!m) throw new Error('missing file path');
  return [m[1] || m[2], m[3]];
}

/** Prompt → { calls: [{ tool, input }], ids, parallel } or { help: true }. Throws on a prompt it can't read. */
function parsePrompt(prompt) {
  const text = prompt.trimStart();
  if (text.startsWith('{')) {
    const script = JSON.parse(text);
    if (!Array.isArray(script.calls)) throw new Error('JSON prompt needs "calls": [{ "tool", "input" }, ...]');
    for (const c of script.calls) if (!c || typeof c.tool !== 'string') throw new Error('every call needs a "tool" name');
    return {
      calls: script.calls.map((c) => ({ tool: c.tool, input: c.input ?? {} })),
      ids: script.ids !== false,
      parallel: !!script.parallel,
    };
  }
  const m = /^(\w+)\b([\s\S]*)$/.exec(text);
  const verb = m ? m[1].toLowerCase() : '';
  if (!m || verb === 'help') return { help: true };
  if (!TOOLS[verb]) throw new Error(`unknown command "${verb}"`);
  const [filePath, rest] = splitPath(m[2]);
  let input;
  if (verb === 'read') {
    const nums = rest.trim() ? rest.trim().split(/\s+/).map(Number) : [];
    if (nums.length > 2 || nums.some((n) => !Number.isInteger(n))) throw new Error('read takes <path> [offset] [limit] (whole numbers)');
    input = { filePath, ...(nums.length > 0 ? { offset: nums[0] } : {}), ...(nums.length > 1 ? { limit: nums[1] } : {}) };
  } else if (verb === 'write' || verb === 'append') {
    const content = rest.replace(/^[ \t]*\r?\n|^[ \t]/, ''); // drop the one separator after the path
    input = { filePath, content, ...(verb === 'append' ? { append: true } : {}) };
  } else {
    const r = /^\s*<<<\r?\n?([\s\S]*?)\r?\n?===\r?\n?([\s\S]*?)\r?\n?>>>\s*$/.exec(rest);
    if (!r) throw new Error('replace takes <path> <<<old text===new text>>>');
    input = { filePath, oldString: r[1], newString: r[2] };
  }
  return { calls: [{ tool: TOOLS[verb], input }], ids: true, parallel: false };
}

/** LanguageModelToolResult → { text, json } (text parts joined; the application/json data part parsed). */
function decode(result) {
  let text = '';
  let json;
  for (const part of (result && result.content) || []) {
    if (typeof part.value === 'string') text += part.value;
    else if (part && typeof part.mimeType === 'string' && part.data && /json/.test(part.mimeType)) {
      const raw = new TextDecoder().decode(part.data);
      try {
        json = JSON.parse(raw);
      } catch {
        json = { unparsed: raw };
      }
    }
  }
  return { text, json };
}

const fence = (s) => {
  const n = Math.max(3, ...(s.match(/`+/g) || []).map((x) => x.length + 1));
  return '`'.repeat(n);
};
function summary(json) {
  if (!json) return '';
  const why = json.reason || json.code;
  return `**${json.status ?? '?'}**${why ? ` (${why})` : ''}${json.message ? ` — ${json.message}` : ''}`;
}

async function handler(request, _context, stream, token) {
  const rec = { prompt: request.prompt, id: request.id, token: JSON.stringify(request.toolInvocationToken), results: [], done: false };
  requests.push(rec);
  try {
    let script;
    try {
      script = parsePrompt(request.prompt);
    } catch (e) {
      rec.error = String((e && e.message) || e);
      stream.markdown(`Can't read that: ${rec.error}\n\n${HELP}`);
      return { metadata: { scripted: true, error: rec.error } };
    }
    if (script.help) {
      stream.markdown(HELP);
      return { metadata: { scripted: true } };
    }
    const one = async (c) => {
      const r = { tool: c.tool, input: c.input, text: '', json: undefined, error: undefined };
      try {
        const options = { input: c.input, toolInvocationToken: request.toolInvocationToken };
        if (script.ids) options.chatRequestId = request.id; // what Copilot passes: its turn id
        Object.assign(r, decode(await vscode.lm.invokeTool(c.tool, options, token)));
      } catch (e) {
        r.error = `${(e && e.name) || 'Error'}: ${(e && e.message) || e}`;
      }
      return r;
    };
    const results = script.parallel ? await Promise.all(script.calls.map(one)) : [];
    if (!script.parallel) for (const c of script.calls) results.push(await one(c));
    for (const r of results) {
      rec.results.push(r);
      stream.markdown(`\`${r.tool}\` \`${(r.input && r.input.filePath) || ''}\`${r.json ? ': ' + summary(r.json) : ''}\n\n`);
      if (r.error) stream.markdown(`The tool threw: ${r.error}\n\n`);
      else stream.markdown(`${fence(r.text)}text\n${r.text}\n${fence(r.text)}\n\n`);
    }
    return { metadata: { scripted: true } };
  } finally {
    rec.done = true;
  }
}

function activate(context) {
  context.subscriptions.push(vscode.chat.createChatParticipant('editguard-test.scripted', handler));
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('editguard-test', {
      provideLanguageModelChatInformation: () => [
        {
          id: 'scripted-model',
          name: 'Scripted fake model',
          family: 'scripted',
          version: '1',
          maxInputTokens: 100000,
          maxOutputTokens: 4000,
          isUserSelectable: true,
          capabilities: { toolCalling: true, imageInput: false },
        },
      ],
      async provideLanguageModelChatResponse(_model, _messages, _options, progress) {
        progress.report(new vscode.LanguageModelTextPart('This fake model does not answer. Ask @scripted (type: @scripted help).'));
      },
      provideTokenCount: (_model, text) => Math.ceil(String(typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
  );
  // The workbench lists a vendor's models only once someone asks for them; ask now, so the chat's model
  // picker offers (and, with "chat.defaultModel": "scripted-model", selects) the fake model before the first request.
  // Its answer comes back after the workbench took in the participant and the model (one ordered channel):
  // from then on a request typed as "@scripted …" reaches @scripted. Until then it would go to the default
  // agent, which in a window without Copilot is the chat setup's, and that waits for a GitHub sign-in — so a
  // test that types into a window of its own (test/integration/helpers.ts scriptedAgentReady) waits for this file.
  vscode.lm.selectChatModels({ vendor: 'editguard-test' }).then(
    (models) => announceReady(models.length),
    () => {},
  );
  return { requests };
}

/** Under the tests' driver: a file per extension host, `scripted-agent-ready-<pid>`, once @scripted can take requests. */
function announceReady(models) {
  const dir = process.env.EDITGUARD_ACK_DIR;
  if (!dir || models === 0) return;
  try {
    require('fs').writeFileSync(require('path').join(dir, `${READY_PREFIX}${process.pid}`), String(Date.now()));
  } catch {
    // no driver to tell
  }
}
const READY_PREFIX = 'scripted-agent-ready-';

module.exports = { activate, deactivate() {}, parsePrompt, READY_PREFIX };
