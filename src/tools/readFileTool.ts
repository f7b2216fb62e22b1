// editGuard_readFile: shows the file with line numbers and marks it as seen by this chat.
import * as vscode from 'vscode';
import { optionalInteger, prepare, runTool, type ToolEnvironment } from './toolSupport';

export interface ReadFileInput {
  filePath: string;
  offset?: number;
  limit?: number;
}

export class ReadFileTool implements vscode.LanguageModelTool<ReadFileInput> {
  static readonly id = 'editGuard_readFile';

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadFileInput>): vscode.PreparedToolInvocation {
    const { offset, limit } = options.input ?? {};
    const range = offset || limit ? `, lines ${offset ?? 1}–${limit ? (offset ?? 1) + limit - 1 : 'end'}` : '';
    return prepare('editGuard_readFile', options.input, this.env.pathSettings(), (path) => `Reading \`${path}\`${range}`);
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ReadFileInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return runTool(
      this.env,
      'editGuard_readFile',
      options,
      token,
      (input) => {
        const offset = optionalInteger(input, 'offset', 1);
        if (!offset.ok) return offset;
        const limit = optionalInteger(input, 'limit', 1);
        if (!limit.ok) return limit;
        return { ok: true, value: { offset: offset.value, limit: limit.value } };
      },
      (call, range) => this.env.guard.read(call, range),
    );
  }
}
