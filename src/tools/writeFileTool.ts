// editGuard_writeFile: creates a file, or overwrites / appends to one this chat has seen as it is now.
import * as vscode from 'vscode';
import { optionalBoolean, prepare, requiredString, runTool, type ToolEnvironment } from './toolSupport';

export interface WriteFileInput {
  filePath: string;
  content: string;
  append?: boolean;
}

export class WriteFileTool implements vscode.LanguageModelTool<WriteFileInput> {
  static readonly id = 'editGuard_writeFile';

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WriteFileInput>): vscode.PreparedToolInvocation {
    const verb = options.input?.append === true ? 'Appending to' : 'Writing';
    return prepare('editGuard_writeFile', options.input, this.env.pathSettings(), (path) => `${verb} \`${path}\``);
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<WriteFileInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return runTool(
      this.env,
      'editGuard_writeFile',
      options,
      token,
      (input) => {
        const content = requiredString(input, 'content');
        if (!content.ok) return content;
        const append = optionalBoolean(input, 'append');
        if (!append.ok) return append;
        return { ok: true, value: { content: content.value, append: append.value } };
      },
      (call, value) => this.env.guard.write(call, value),
    );
  }
}
