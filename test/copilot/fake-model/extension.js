// Test-only language-model provider for the Copilot suite (test/copilot/*.test.ts): vendor `editguard-fake`,
// model `copilot-fake`. GitHub Copilot Chat's agent loop sends it its real requests (system prompt, offered
// tools, history, tool results); it answers from a script the test sets at run time and records every
// request it receives, in full, so a test can assert on exactly what Copilot sent the model.
//
// exports (the test runs in the same extension host and calls these directly):
//   script(tag, steps)   registers the answers for every agent turn whose user request contains `[[tag]]`.
//                        steps[i] answers the i-th model request of that turn (i = assistant messages after the
//                        turn's user request). A step is { tool, input, callId? } (one tool call),
//                        { calls: [{ tool, input }, ...] } (several in one answer), { text } (final answer), or a
//                        function (request record) => step | Promise<step> — it runs while the turn is in
//                        progress, so a test can act (e.g. type in the editor) between two tool calls.
//                        A turn that runs past its steps gets a final text saying so.
//                        tag '(untagged)' (exports.UNTAGGED) scripts turns whose query carries no tag (for screenshots).
//   requests             every request record, oldest first (see record() below)
//   clear()              forgets the records and scripts
//   holdCompactions(fn)  until called with undefined, each compaction request waits for fn(record) before it is
//                        answered (a slow summary: Copilot's background compaction is then still in progress)
//   VENDOR, MODEL_ID, MODELS (the ids of the other models, see below)
// Which of its own edit tools Copilot offers depends on the model's name, so there are more models:
// 'copilot-fake-sonnet' (offered replace_string_in_file + multi_replace_string_in_file), 'copilot-fake-gpt'
// (offered apply_patch), and 'copilot-fake-small' (a 30 000-token context, so a few big reads make Copilot
// compact the conversation). Copilot's compaction requests are answered with a summary, and the turn's script
// goes on after it (a compacted history may no longer carry the turn's [[tag]]).
// It also registers a test-only tool, editguardTest_twoParts (a short text part, then a long one), to see how
// Copilot hands a multi-part tool result to the model.
// Requests that are not agent turns (no tools offered, e.g. a chat title) get a short text.
'use strict';
const vscode = require('vscode');

const VENDOR = 'editguard-fake';
const MODEL_ID = 'copilot-fake';
const requests = [];
const scripts = new Map();
/** tag → script answers given so far (the step after a compaction, when the history no longer shows them) */
const answered = new Map();
/** the tag of the latest scripted agent request: a turn that loses its tag to a compaction goes on with it */
let activeTag;
/** tags whose turn was compacted: its history no longer counts the steps, the answered count does */
const compacted = new Set();
const MODELS = { sonnet: 'copilot-fake-sonnet', gpt: 'copilot-fake-gpt', small: 'copilot-fake-small' };
/** Copilot's two compaction prompts (full summary with tools, simple summary without) */
const COMPACTION = /must be compacted now|Summarize the conversation history so far/;
const UNTAGGED = '(untagged)';
/** set by holdCompactions(): a compaction request is answered once it resolves */
let compactionHold;

const roleName = (r) => ({ 1: 'user', 2: 'assistant', 3: 'system' })[r] || String(r);

/** One content part of a message, as plain data. Text is kept whole: tests assert on it. */
function part(p) {
  if (p instanceof vscode.LanguageModelTextPart) return { type: 'text', text: p.value };
  if (p instanceof vscode.LanguageModelToolCallPart) return { type: 'toolCall', callId: p.callId, name: p.name, input: p.input };
  if (p instanceof vscode.LanguageModelToolResultPart || (p && typeof p.callId === 'string' && Array.isArray(p.content))) {
    return { type: 'toolResult', callId: p.callId, isError: p.isError, content: p.content.map(part) };
  }
  if (p && typeof p.mimeType === 'string') {
    const data = p.data instanceof Uint8Array ? new TextDecoder().decode(p.data) : undefined;
    return { type: 'data', mimeType: p.mimeType, data };
  }
  if (p && typeof p.value === 'string') return { type: 'text', text: p.value, kind: p.constructor && p.constructor.name };
  let json;
  try {
    json = JSON.stringify(p);
  } catch {
    json = String(p);
  }
  return { type: 'other', kind: p && p.constructor && p.constructor.name, json };
}

/** The joined text of a message or part list. */
const textOf = (parts) => parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

function record(messages, options, model) {
  const msgs = messages.map((m) => ({ role: roleName(m.role), name: m.name, parts: (m.content || []).map(part) }));
  // the turn starts at the last user message holding Copilot's <userRequest> wrapper of the query (or, failing
  // that, the last user message with a script tag); its [[tag]] picks the script, no tag = the untagged script
  let turnStart = -1;
  msgs.forEach((m, i) => {
    if (m.role === 'user' && textOf(m.parts).includes('<userRequest>')) turnStart = i;
  });
  if (turnStart < 0)
    msgs.forEach((m, i) => {
      if (m.role === 'user' && /\[\[[\w.-]+\]\]/.test(textOf(m.parts))) turnStart = i;
    });
  const agent = (options.tools || []).length > 0 && turnStart >= 0;
  const t = turnStart >= 0 ? /\[\[([\w.-]+)\]\]/.exec(textOf(msgs[turnStart].parts)) : null;
  const tag = !agent ? undefined : t ? t[1] : UNTAGGED;
  // a compacted history may have no turn start left: then every tool result in it counts
  const later = turnStart >= 0 ? msgs.slice(turnStart + 1) : msgs;
  const rec = {
    n: requests.length + 1,
    at: Date.now(),
    model: model.id,
    tag,
    step: later.filter((m) => m.role === 'assistant').length,
    tools: (options.tools || []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    toolMode: options.toolMode,
    messages: msgs,
    /** the tool results of this turn, in order: { callId, name (of the matching call), input, text, content } */
    toolResults: [],
    answer: undefined,
  };
  const calls = new Map();
  for (const m of later) for (const p of m.parts) if (p.type === 'toolCall') calls.set(p.callId, p);
  for (const m of later)
    for (const p of m.parts)
      if (p.type === 'toolResult') {
        const c = calls.get(p.callId);
        rec.toolResults.push({ callId: p.callId, name: c && c.name, input: c && c.input, text: textOf(p.content), content: p.content });
      }
  requests.push(rec);
  return rec;
}

async function provideLanguageModelChatResponse(model, messages, options, progress, token) {
  const rec = record(messages, options, model);
  const lastUser = rec.messages.filter((m) => m.role === 'user').at(-1);
  if (lastUser && COMPACTION.test(textOf(lastUser.parts))) {
    rec.compaction = true;
    rec.tag = undefined;
    if (activeTag !== undefined) compacted.add(activeTag);
    if (compactionHold) await compactionHold(rec);
    rec.answer = { text: '<summary>The scripted task is in progress; files read so far are no longer in context.</summary>' };
    progress.report(new vscode.LanguageModelTextPart(rec.answer.text));
    return;
  }
  const lostTag = (rec.tag === UNTAGGED && !scripts.has(UNTAGGED)) || (rec.tag === undefined && rec.tools.length > 0);
  if (lostTag && activeTag !== undefined && compacted.has(activeTag)) {
    // the compacted history lost the turn's tag: go on with the turn that was running
    rec.tag = activeTag;
    rec.step = answered.get(activeTag) || 0;
    rec.afterCompaction = true;
  }
  if (rec.tag !== undefined && compacted.has(rec.tag)) rec.step = answered.get(rec.tag) || 0;
  if (rec.tag !== undefined && rec.tag !== UNTAGGED) {
    activeTag = rec.tag;
    answered.set(rec.tag, Math.max(answered.get(rec.tag) || 0, rec.step) + 1);
  }
  const steps = rec.tag !== undefined ? scripts.get(rec.tag) : undefined;
  if (!steps) {
    rec.answer = { text: 'Fake model: no script for this request.' };
    progress.report(new vscode.LanguageModelTextPart(rec.answer.text));
    return;
  }
  let step = steps[rec.step];
  try {
    if (typeof step === 'function') step = await step(rec);
  } catch (e) {
    step = { text: `Fake model: step ${rec.step} of [[${rec.tag}]] threw: ${(e && e.stack) || e}` };
    rec.stepError = String((e && e.stack) || e);
  }
  if (!step) step = { text: `Fake model: [[${rec.tag}]] has no step ${rec.step}; done.` };
  rec.answer = step;
  if (token.isCancellationRequested) return;
  const calls = step.calls || (step.tool ? [step] : []);
  if (step.text) progress.report(new vscode.LanguageModelTextPart(step.text));
  calls.forEach((c, i) => progress.report(new vscode.LanguageModelToolCallPart(c.callId || `call_${rec.n}_${i}`, c.tool, c.input || {})));
}

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      provideLanguageModelChatInformation: () => [
        {
          id: MODEL_ID,
          name: 'Copilot suite fake model',
          family: 'editguard-fake',
          version: '1',
          maxInputTokens: 400000,
          maxOutputTokens: 16000,
          isUserSelectable: true,
          capabilities: { toolCalling: true, imageInput: false },
        },
        {
          id: MODELS.sonnet,
          name: 'Copilot suite fake sonnet model',
          family: 'editguard-fake',
          version: '1',
          maxInputTokens: 400000,
          maxOutputTokens: 16000,
          isUserSelectable: true,
          capabilities: { toolCalling: true, imageInput: false },
        },
        {
          id: MODELS.gpt,
          name: 'Copilot suite fake gpt model',
          family: 'editguard-fake',
          version: '1',
          maxInputTokens: 400000,
          maxOutputTokens: 16000,
          isUserSelectable: true,
          capabilities: { toolCalling: true, imageInput: false },
        },
        {
          id: MODELS.small,
          name: 'Copilot suite fake small model',
          family: 'editguard-fake',
          version: '1',
          maxInputTokens: 30000,
          maxOutputTokens: 4000,
          isUserSelectable: true,
          capabilities: { toolCalling: true, imageInput: false },
        },
      ],
      provideLanguageModelChatResponse,
      provideTokenCount: (_model, text) => Math.ceil(String(typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
  );
  // a test-only tool (not ours): a short text part, then a long one — does Copilot spill each part on its own?
  context.subscriptions.push(
    vscode.lm.registerTool('editguardTest_twoParts', {
      invoke(options) {
        const n = Number(options.input && options.input.longChars) || 20000;
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart('FIRST PART: short, and meant to stay inline.'),
          new vscode.LanguageModelTextPart('SECOND PART: ' + 'x'.repeat(n)),
        ]);
      },
    }),
  );
  // the workbench lists a vendor's models only once someone asks for them
  vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, () => {});
  return {
    VENDOR,
    MODEL_ID,
    MODELS,
    UNTAGGED,
    requests,
    script(tag, steps) {
      scripts.set(tag, steps);
    },
    holdCompactions(fn) {
      compactionHold = fn;
    },
    clear() {
      requests.length = 0;
      scripts.clear();
      answered.clear();
      compacted.clear();
      activeTag = undefined;
      compactionHold = undefined;
    },
  };
}

module.exports = { activate, deactivate() {} };
