// What an agent's shell command changed that no check named before it ran (docs/design.md rule 16): a script, a
// build, a formatter over a folder. The disk is watched while the command runs; each file it created, changed or
// deleted is recorded as the agent's edit, reviewable and revertable, where its text from before is known: the text of
// its document when the command started, for a file the editor held; the disk's text then, for one the chat had read.
// Any other file is not recorded: neither its text from before nor whether it was there at all is known (a file renamed
// over it is reported as made). A file with unsaved
// changes in its buffer gets the command's change merged into the buffer, or both with conflict markers where they
// overlap: the user's unsaved text is never lost, and the agent's change never silently dropped.
import type { DiskChange } from './editor';
import type { Gate } from './gate';
import { shellMergeLabels } from './messages';
import type { CallContext, HeldFile } from './ports';

/** The most files the chat has read whose disk text is taken when a command starts (the newest marks first). */
export const READ_FILES_KEPT = 64;

/** How long the editor's file watcher's late reports are awaited after a command (tens of milliseconds here, seconds under load). */
export const WATCH_SETTLE_MS = 1000;

export interface ShellRun {
  /**
   * The command is done: each file it changed, other than those the check named (`named`: they are recorded as the
   * agent's own writes), is recorded as the call `callOn` names on it.
   */
  finish(named: ReadonlySet<string>, callOn: (uri: string) => CallContext): Promise<void>;
}

/**
 * Starts watching for a command of the chat `session` about to run; `undefined` where the editor cannot watch the disk.
 * The files the editor holds have their text from before in the editor; the files the chat has read, besides, on disk:
 * they are what its command most likely changes.
 */
export async function startShellRun(gate: Gate, session: string): Promise<ShellRun | undefined> {
  const port = gate.port;
  if (!port.watchShell) return undefined;
  const { watch, held: inEditor } = await port.watchShell();
  const held = new Map(inEditor);
  const read = gate.store
    .newestPerFile(session)
    .filter((m) => !held.has(m.uri))
    .sort((a, b) => b.seq - a.seq)
    .slice(0, READ_FILES_KEPT);
  const onDisk = await Promise.all(read.map(async (m) => [m.uri, await port.diskVersion(m.uri)] as const));
  for (const [uri, text] of onDisk) if (text) held.set(uri, { text });
  // a write recorded meanwhile (a guarded tool's, another agent's edit tool's) is its own call's
  const recorded = new Set<string>();
  const listening = gate.onDidWrite((w) => recorded.add(w.uri));
  return {
    async finish(named, callOn) {
      let changes: DiskChange[];
      try {
        changes = await watch.stop(WATCH_SETTLE_MS, [...held.keys()]);
      } finally {
        listening.dispose();
      }
      for (const change of changes) {
        if (named.has(change.uri) || recorded.has(change.uri)) continue;
        const ctx = callOn(change.uri);
        gate.name(ctx);
        await gate.lock.run(change.uri, () => record(gate, ctx, change, held.get(change.uri)));
      }
    },
  };
}

async function record(gate: Gate, ctx: CallContext, change: DiskChange, held: HeldFile | undefined): Promise<void> {
  const port = gate.port;
  // what the file held before: the disk's text under a buffer's unsaved changes, else the document's
  const before = held?.disk ?? held?.text;
  // reported made, and no editor held it: made by the command — or renamed over a file that was there (`sed -i` does),
  // which no report tells apart; recorded as made, a revert would delete what was there, so neither is recorded
  if (change.kind === 'created' && !before) {
    gate.log.info(`${ctx.agentName ?? ctx.tool} ${ctx.tool} made or replaced ${ctx.path}, which no editor held: not recorded`);
    return;
  }
  const now = await port.diskVersion(ctx.uri);
  if (change.kind === 'deleted') {
    if (!now && before) gate.recordDeletion(ctx, before);
    return;
  }
  if (!now || now.hash === before?.hash) return;
  if (!before) {
    gate.log.info(`${ctx.agentName ?? ctx.tool} ${ctx.tool} changed ${ctx.path}, which no editor held: not recorded (no text from before)`);
    return;
  }
  gate.recordUnseenWrite(ctx, now, before);
  if (!held?.disk || !port.mergeIntoBuffer) return;
  const merged = await port.mergeIntoBuffer(ctx.uri, held.disk, now, shellMergeLabels(ctx.agentName ?? ctx.tool));
  if (merged === 'merged')
    gate.log.info(`${ctx.path}: ${ctx.agentName}'s command changed the file under unsaved changes; merged into the buffer`);
  else if (merged === 'conflict')
    gate.log.warn(
      `${ctx.path}: ${ctx.agentName}'s command changed the lines the unsaved changes change; both are in the buffer, between conflict markers`,
    );
}
