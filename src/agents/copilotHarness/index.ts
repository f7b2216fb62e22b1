// The Copilot harness in this window. It runs the entries of Copilot's hooks file, so
// `editGuard.guardCopilotTools` guards it too — one choice for both of Copilot's harnesses, and no file
// of its own to keep. Its hooks run under the Agent Host, outside this window's extension host, and
// reach the bridge through this window's record (src/hooks/discovery.ts).
import * as vscode from 'vscode';
import { placement } from '../../config';
import type { AgentServices, RegisteredAgent } from '../agent';
import { copilotHarnessAgent } from './node/events';

export function registerCopilotHarness({ bridge }: AgentServices): RegisteredAgent {
  const on = () => placement('guardCopilotTools') !== 'off';
  return {
    hooks: copilotHarnessAgent,
    active: on,
    offerAgain: async () => undefined,
    disposable: vscode.Disposable.from(bridge.serveWhile(on)),
  };
}
