// editGuard_replaceString: replaces exact text in a file this chat has seen as it is now.
import * as vscode from 'vscode';
import { optionalBoolean, prepare, requiredString, runTool, type ToolEnvironment } from './toolSupport';

export interface ReplaceStringInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export class ReplaceStringTool implements vscode.LanguageModelTool<ReplaceStringInput> {
  static readonly id = 'editGuard_replaceString';

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReplaceStringInput>): vscode.PreparedToolInvocation {
    return prepare('editGuard_replaceString', options.input, this.env.pathSettings(), (path) => `Replacing text in \`${path}\``);
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ReplaceStringInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return runTool(
      this.env,
      'editGuard_replaceString',
      options,
      token,
      (input) => {
        const oldString = requiredString(input, 'oldString');
        if (!oldString.ok) return oldString;
        const newString = requiredString(input, 'newString');
        if (!newString.ok) return newString;
        const replaceAll = optionalBoolean(input, 'replaceAll');
        if (!replaceAll.ok) return replaceAll;
        return { ok: true, value: { oldString: oldString.value, newString: newString.value, replaceAll: replaceAll.value } };
      },
      (call, value) => this.env.guard.replace(call, value),
    );
  }
}
