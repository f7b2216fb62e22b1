// A window for the plugins' unit tests (piExtension, clinePlugin, opencodePlugin): the bridge's real server, whose
// gate is a stand-in that refuses every check of one tool and records every payload it was sent.
import { denyPreToolUse } from '../../src/hooks/event';
import { BridgeServer } from '../../src/hooks/server';
import { MemoryLog } from './memoryDocuments';

/** The reason the window gives. */
export const REFUSAL = 'BLOCKED: stale';

/** A window refusing each `PreToolUse` of `tool`; `seen`: each payload, with the agent it came from. */
export async function refusingWindow(tool: string): Promise<{ seen: Array<Record<string, unknown>>; server: BridgeServer }> {
  const seen: Array<Record<string, unknown>> = [];
  const server = await BridgeServer.start(async (agent, payload) => {
    const p = JSON.parse(payload) as Record<string, unknown>;
    seen.push({ agent, ...p });
    return p.hook_event_name === 'PreToolUse' && p.tool_name === tool ? denyPreToolUse(REFUSAL) : '';
  }, new MemoryLog());
  return { seen, server };
}
