// The GitHub Copilot CLI (`copilot`, started in a terminal) as the hooks bridge sees it (test/copilotCli/FACTS.md):
// the Copilot runtime's payloads (src/hooks/copilotRuntime.ts), run from the CLI's own process — which is how its
// records, blocks and refusals are told from the Copilot harness's, whose payloads are the same.
import { copilotRuntimeAgent, isRuntimePayload, ranByCopilotCli } from '../../../hooks/copilotRuntime';

export const COPILOT_CLI = 'copilot-cli';

export const copilotCliAgent = copilotRuntimeAgent({
  id: COPILOT_CLI,
  name: 'Copilot CLI',
  claims: (payload, origin) => isRuntimePayload(payload) && ranByCopilotCli(origin),
});
