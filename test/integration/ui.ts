// Asks the Playwright driver (scripts/host/drive.js) to act on the rendered workbench page: the test logs
// `DRIVER:{json}` (the workbench forwards the extension host's console to the driver) and polls for the
// driver's answer in $EDITGUARD_ACK_DIR/<id>.json.
// Actions: screenshot {name, selector?} | click (dispatch?: the event sent to the element, past anything over it) | hover | text | html {selector | role+name, within?, nth?} |
// count {selector | role+name} | press {key} | type {text, selector?} | insert {text, selector?} | eval {js} | buttons {selector?, within?};
// logs {lines?}: the window's newest console lines;
// openWindow | reloadWindow | closeWindow: a second window on the workspace, which `window: 'second'` acts on.
// Answers: { ok } / { text } / { count } / { value } / { buttons } / { html } / { lines }, or { error } when the action failed.
import * as fs from 'fs';
import * as path from 'path';
import { machineLoad } from '../shared/machine';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when the tests run under the Playwright driver (not under @vscode/test-electron). */
export function driverAvailable(): boolean {
  return !!process.env.EDITGUARD_ACK_DIR;
}

/** Screenshots are wanted: the driver is there (they land in $SHOTS_DIR, default <run folder>/shots). */
export function screenshotsEnabled(): boolean {
  return driverAvailable();
}

let counter = 0;
// every test file is bundled separately with its own copy of this module: make ids unique across copies
const prefix = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function ui(action: object, timeoutMs = 20000): Promise<any> {
  const ackDir = process.env.EDITGUARD_ACK_DIR;
  if (!ackDir) throw new Error('ui(): no Playwright driver in this test host (EDITGUARD_ACK_DIR unset)');
  const id = `${prefix}-${++counter}`;
  console.log('DRIVER:' + JSON.stringify({ ...action, id }));
  const file = path.join(ackDir, id + '.json');
  const end = Date.now() + timeoutMs * machineLoad();
  while (Date.now() < end) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
    await sleep(50);
  }
  throw new Error(`the UI driver did not answer within ${timeoutMs} ms: ${JSON.stringify(action)}`);
}

/** The rendered text of the visible elements `selector` matches (empty when there is none within 3 s). */
export async function visibleText(selector: string): Promise<string> {
  const answer = await ui({ action: 'text', selector: `${selector} >> visible=true`, timeout: 3000 });
  // the editor renders spaces as no-break spaces
  return (answer.text ?? '').replace(/\u00a0/g, ' ');
}
