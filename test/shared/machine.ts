// How busy the machine is, for the bounds of the host suites' waits. The suites share two cores with
// other work; VS Code, its extension host and the browser then all take longer, so a wait's limit is a
// quiet-machine bound times this factor. A wait returns the moment its condition holds, so a longer
// limit costs nothing when all is well; it only keeps a slow machine from failing a test that works.
import * as os from 'os';

/** The 1-minute load average per core, at least 1: how many times slower than a quiet machine this one runs now. */
export function machineLoad(): number {
  return Math.max(1, os.loadavg()[0] / Math.max(1, os.cpus().length));
}
