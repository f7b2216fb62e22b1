// The Copilot harness (VS Code's Agent Host: a Copilot chat run by the Copilot SDK's runtime, outside the extension
// host) as the hooks bridge sees it (test/harness/FACTS.md): the Copilot runtime's payloads (src/hooks/copilotRuntime.ts),
// run from the SDK's `copilot-runtime` — every such payload but the Copilot CLI's. It calls our guarded tools by
// their reference names.
import { copilotRuntimeAgent, isRuntimePayload, ranByCopilotCli } from '../../../hooks/copilotRuntime';

export const COPILOT_HARNESS = 'copilot-harness';

export const copilotHarnessAgent = copilotRuntimeAgent({
  id: COPILOT_HARNESS,
  name: 'Copilot harness',
  claims: (payload, origin) => isRuntimePayload(payload) && !ranByCopilotCli(origin),
});
