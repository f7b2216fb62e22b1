// editGuard_writeFile: creates a file, or overwrites / appends to one this chat has seen as it is now.
import * as vscode from 'vscode';
import { TOOL_IDS } from '../core/toolIds';
import { runTool, type ToolEnvironment } from './invocation';
import { prepare } from './prepare';

export interface WriteFileInput {
  filePath: string;
  content: string;
  append?: boolean;
  /** Rule 11: the agent means to write a block the file already holds (skips the duplicate check). */
  allowDuplicate?: boolean;
}

export class WriteFileTool implements vscode.LanguageModelTool<WriteFileInput> {
  static readonly id = TOOL_IDS.write;

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WriteFileInput>): vscode.PreparedToolInvocation {
    const append = options.input?.append === true;
    return prepare(WriteFileTool.id, options.input, this.env.pathSettings(), (path) =>
      append ? vscode.l10n.t('Appending to `{0}`', path) : vscode.l10n.t('Writing `{0}`', path),
    );
  }

  invoke(
    options: vscode.LanguageModelToolInvocationOptions<WriteFileInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    return runTool<WriteFileInput>(this.env, WriteFileTool.id, options, token, (call, input) =>
      this.env.tools.write(call, { content: input.content, append: input.append === true, allowDuplicate: input.allowDuplicate === true }),
    );
  }
}
