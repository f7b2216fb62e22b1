// One scenario in one configuration of one agent, in the agent's own loop: its files made fresh, its
// turns played by the scripted agent, then every file compared byte for byte with the intended result.
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import { liveWatcher, makeWatchedFolder, reportedBy, userEdit, workspaceRoot } from '../copilot/agent';
import { WATCH_SETTLE_MS } from '../../src/core/shellRuns';
import { waitFor } from '../integration/helpers';
import type { OutcomeAgent } from './agents';
import type { Configuration, FileRef } from './configurations';
import type { Outcome } from './table';
import type { Scenario, World } from './scenarios';
import { folded, ScriptedAgent } from './scriptedAgent';

/**
 * How long the editor and the disk stay unchanged before the user acts after the agent (`Scenario.afterwards`): a moment
 * longer than the editor's file watcher takes to report a change (WATCH_SETTLE_MS), twice over.
 */
const QUIET_MS = 2 * WATCH_SETTLE_MS;

/**
 * The user's Ctrl+S: true if the editor wrote the buffer. A save that meets a newer file on disk ("The content of the
 * file is newer") fails in the editor, as it would for the user: logged and answered false, the buffer left dirty.
 */
async function userSave(doc: vscode.TextDocument): Promise<boolean> {
  const saved = await doc.save().then(
    (ok) => ok,
    (e: unknown) => {
      console.log(`[outcomes] the save of ${doc.uri.fsPath} threw: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    },
  );
  if (!saved || doc.isDirty) console.log(`[outcomes] the save of ${doc.uri.fsPath} failed: its buffer is still unsaved`);
  return saved && !doc.isDirty;
}

/** 2000 lines of ~60 characters: five reads of 400 lines overflow the small model's 30 000 tokens. */
const BIG = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join('\n') + '\n';

export async function runScenario(scenario: Scenario, agent: OutcomeAgent, config: Configuration, run: number): Promise<Outcome> {
  const folder = `outcomes/${agent.id}/${config.id}/${scenario.id}-${run}`;
  const refOf = (rel: string): FileRef & { uri: vscode.Uri } => {
    const abs = path.join(workspaceRoot(), ...folder.split('/'), rel);
    return { rel: `${folder}/${rel}`, abs, uri: vscode.Uri.file(abs) };
  };
  const write = (ref: FileRef, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(ref.abs), { recursive: true });
    fs.writeFileSync(ref.abs, content);
  };
  const loaded = (rel: string) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === refOf(rel).uri.toString());
  const folderAbs = path.join(workspaceRoot(), ...folder.split('/'));
  await makeWatchedFolder(folderAbs);
  for (const f of scenario.files) write(refOf(f.rel), f.initial);
  // the touch below waits on it: a file written after the touch is reported after the touch's own event
  const watcher = await liveWatcher(folderAbs);
  const big = refOf('big.txt');
  if (scenario.turns.some((t) => t.some((a) => 'overflow' in a))) write(big, BIG);

  const open = async (rel: string) =>
    (await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(refOf(rel).uri), { preview: false })).document;
  for (const f of scenario.files) if (f.open) await open(f.rel);

  /** A clean buffer shows an agent's disk write once VS Code has loaded it: until then. */
  const caughtUp = async (doc: vscode.TextDocument, rel: string) => {
    if (doc.isDirty) return;
    const disk = () => folded(fs.readFileSync(refOf(rel).abs, 'utf8'));
    await waitFor(() => folded(doc.getText()) === disk(), `the editor to show what the disk holds of ${rel}`, 10_000, 20);
  };
  const world: World = {
    open,
    type: async (rel, search, replacement) => {
      const doc = loaded(rel) ?? (await open(rel));
      // the user types into what the editor shows
      await caughtUp(doc, rel);
      await userEdit(doc, search, replacement);
    },
    save: async (rel) => {
      const doc = loaded(rel) ?? (await open(rel));
      // a save of a clean buffer writes nothing; this one was typed in (and maybe back), so VS Code writes it
      await userSave(doc);
    },
    format: async (rel, text) => {
      const doc = loaded(rel) ?? (await open(rel));
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      await vscode.workspace.applyEdit(edit);
      await doc.save();
    },
    touch: async (rel) => {
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(refOf(rel).abs, later, later);
      // the watcher's change event, if any, arrives before the agent's next call: a file written after
      // the touch is reported after it
      const after = refOf(`touched-after-${rel.replace(/\W/g, '-')}`);
      write(after, 'written after the touch\n');
      await reportedBy(watcher, after);
    },
    append: async (rel, text) => {
      // straight to the disk, as a program outside the editor writes
      fs.appendFileSync(refOf(rel).abs, text);
    },
    script: async (rel, text) => write(refOf(rel), text),
  };
  const scripted = new ScriptedAgent(
    config,
    {
      ref: refOf,
      big,
      textNow: async (rel) => {
        const doc = loaded(rel);
        if (!doc) return folded(fs.readFileSync(refOf(rel).abs, 'utf8'));
        // (a read of the disk saw an agent's write already)
        await caughtUp(doc, rel);
        return folded(doc.getText());
      },
    },
    world,
  );

  const started = Date.now();
  try {
    await agent.play(scenario, config, scripted, `o-${agent.id}-${config.id}-${scenario.id}-${run}`);
  } finally {
    watcher.dispose();
  }
  const wallMs = Date.now() - started;

  if (scenario.afterwards) {
    // the user acts once the agent is done and nothing moves any more: no document's version and no file's bytes or
    // time changed for QUIET_MS (the scripted world cannot know when a background change is over; a user waits a moment)
    const state = () =>
      JSON.stringify(
        scenario.files.map((f) => {
          const stat = fs.statSync(refOf(f.rel).abs, { throwIfNoEntry: false });
          return [loaded(f.rel)?.version, loaded(f.rel)?.isDirty, stat?.mtimeMs, stat?.size];
        }),
      );
    let last = state();
    let since = Date.now();
    await waitFor(
      () => {
        const now = state();
        if (now !== last) [last, since] = [now, Date.now()];
        return Date.now() - since >= QUIET_MS;
      },
      `the editor and the disk to stop changing after ${scenario.id}`,
      30_000,
      50,
    );
    await scenario.afterwards(world);
  }

  const wrongFiles: string[] = [];
  for (const f of scenario.files) {
    const doc = loaded(f.rel);
    // the user keeps what the editor holds: unsaved text counts, so it is saved before the bytes are compared (a save
    // that meets a newer file on disk fails, as it does for the user: the disk's bytes are then what is compared)
    if (doc?.isDirty) await userSave(doc);
    const intended = Buffer.isBuffer(f.intended) ? f.intended : Buffer.from(f.intended, 'utf8');
    if (!fs.readFileSync(refOf(f.rel).abs).equals(intended)) wrongFiles.push(f.rel);
  }
  const { blocks, failures, calls, scripted: planned, readsAfterBlankStops } = scripted.tally;
  return {
    agent: agent.id,
    scenario: scenario.id,
    configuration: config.id,
    kind: scenario.kind,
    wrongFiles,
    blocks,
    falseBlocks: scenario.kind === 'false-alarm' ? blocks : 0,
    failures,
    calls,
    extraCalls: calls - planned,
    readsAfterBlankStops,
    wallMs,
  };
}
