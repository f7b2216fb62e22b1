// editGuard_replaceString: replaces exact text in a file this chat has seen as it is now.
import * as vscode from 'vscode';
import { TOOL_IDS } from '../core/toolIds';
import { runTool, type ToolEnvironment } from './invocation';
import { prepare } from './prepare';

export interface ReplaceStringInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export class ReplaceStringTool implements vscode.LanguageModelTool<ReplaceStringInput> {
  static readonly id = TOOL_IDS.replace;

  constructor(private readonly env: ToolEnvironment) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReplaceStringInput>): vscode.PreparedToolInvocation {
    return prepare(ReplaceStringTool.id, options.input, this.env.pathSettings(), (path) => vscode.l10n.t('Replacing text in `{0}`', path));
  }

  invoke(
    options: vscode.LanguageModelToolInvocationOptions<ReplaceStringInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    return runTool<ReplaceStringInput>(this.env, ReplaceStringTool.id, options, token, (call, input) =>
      this.env.tools.replace(call, { oldString: input.oldString, newString: input.newString, replaceAll: input.replaceAll === true }),
    );
  }
}
