// editGuard_readFile: shows the file with line numbers and marks it as seen by this chat.
import * as vscode from 'vscode';
import { TOOL_IDS } from '../core/toolIds';
import { runTool, type ToolEnvironment } from './invocation';
import { prepare } from './prepare';

export interface ReadFileInput {
  filePath: string;
  offset?: number;
  limit?: number;
}

export class ReadFileTool implements vscode.LanguageModelTool<ReadFileInput> {
  static readonly id = TOOL_IDS.read;

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadFileInput>): vscode.PreparedToolInvocation {
    const { offset, limit } = options.input ?? {};
    const from = offset ?? 1;
    return prepare(ReadFileTool.id, options.input, this.env.pathSettings(), (path) =>
      offset || limit
        ? limit
          ? vscode.l10n.t('Reading `{0}`, lines {1}–{2}', path, from, from + limit - 1)
          : vscode.l10n.t('Reading `{0}`, lines {1}–end', path, from)
        : vscode.l10n.t('Reading `{0}`', path),
    );
  }

  invoke(
    options: vscode.LanguageModelToolInvocationOptions<ReadFileInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    return runTool<ReadFileInput>(this.env, ReadFileTool.id, options, token, (call, input) =>
      this.env.tools.read(call, { offset: input.offset, limit: input.limit }),
    );
  }
}
