// Test-only extension of the harness suite (test/harness): one language-model tool, editguardHarness_echo
// (reference name harnessEcho), that answers `echo: <text>` and records each call — its input and the options
// VS Code passed (every key; the values of those a gate would key on). The tests read the records through the
// extension's exports: `calls`.
//
// And a stand-in default model, vendor `copilot`. code-server turns on the proposed API for every extension, so
// before the extension host calls a tool for a harness turn it resolves the turn's model (`options.model`);
// the harness's models are not language models of the extension host, so it falls back to the default model
// of Copilot Chat (vendor `copilot`), and without one the call fails with "Language model unavailable"
// (test/harness/FACTS.md). Copilot Chat, which would provide it, is not started in this host; the stand-in
// does, and never answers a request.
'use strict';
const vscode = require('vscode');

const calls = [];

/** A value as plain data (a Uri as its string, an object through JSON); undefined stays undefined. */
function plain(value) {
  if (value === undefined) return undefined;
  if (value instanceof vscode.Uri) return value.toString();
  if (typeof value === 'function') return '(function)';
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerTool('editguardHarness_echo', {
      invoke(options) {
        const { model, tokenizationOptions, ...rest } = options;
        calls.push({
          at: Date.now(),
          optionKeys: Object.keys(options),
          options: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, plain(v)])),
          model: model ? { id: model.id, vendor: model.vendor, family: model.family } : undefined,
          hasTokenizationOptions: tokenizationOptions !== undefined,
        });
        const text = options.input && options.input.text;
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`echo: ${text}`)]);
      },
    }),
  );
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('copilot', {
      provideLanguageModelChatInformation: () => [
        {
          id: 'harness-stand-in',
          name: 'Stand-in default model (harness suite)',
          family: 'harness-stand-in',
          version: '1',
          maxInputTokens: 100000,
          maxOutputTokens: 4000,
          isDefault: true,
          isUserSelectable: false,
          capabilities: { toolCalling: true, imageInput: false },
        },
      ],
      async provideLanguageModelChatResponse(_model, _messages, _options, progress) {
        progress.report(new vscode.LanguageModelTextPart('The stand-in model of the harness suite does not answer.'));
      },
      provideTokenCount: (_model, text) => Math.ceil(String(typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
  );
  return { calls };
}

module.exports = { activate, deactivate() {} };
