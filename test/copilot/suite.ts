// The mocha hooks most Copilot suites share. Apart from agent.ts because only test files import it
// (agent.ts is also bundled into the capture script, which runs without mocha's globals).
import { newChat, revertAndCloseAll, startCopilotSuite } from './agent';
import { setGuardBuiltinTools, waitUntilHooksAreLive } from './turns';

/**
 * The hooks a Copilot suite shares (call it in the suite's body): Copilot started once, a new chat
 * before each test, the editors reverted and closed after it. `start` runs after Copilot is up.
 */
export function copilotSuiteHooks(start?: () => Promise<void>): void {
  suiteSetup(async function () {
    await startCopilotSuite();
    await start?.();
  });
  setup(async () => {
    await newChat();
  });
  teardown(async () => {
    await revertAndCloseAll();
  });
}

/** The suite runs with the hooks bridge on (and live), and leaves it off. */
export function withBridgeOn(): void {
  suiteSetup(async function () {
    await setGuardBuiltinTools(true);
    await waitUntilHooksAreLive();
  });
  suiteTeardown(async () => {
    await setGuardBuiltinTools(false);
  });
}
