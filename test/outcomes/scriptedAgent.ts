// The scripted agent of the outcomes suite: it plays a scenario's acts as the fake model's answers in
// Copilot's real agent loop, keeping a copy of each file as it believes it to be. Its one rule after
// a refusal or a failed call, the same in every configuration: take in the current text the result
// showed (a whole numbered content, a diff applied to its copy, numbered lines put in at their
// numbers) and make the edit again from it (the same intent); when the result showed no text, or
// its diff does not apply to the copy, read the file and then make the edit again. A refusal that asks
// the user to save their unsaved changes first is answered by the user saving. It counts every call.
import * as assert from 'assert';
import * as fs from 'fs';
import type { Step, ToolResultSeen } from '../copilot/agent';
import type { Call, Configuration, FileRef, PlannedEdit } from './configurations';
import { applyToCopy, type Intent, shellWord } from './edits';
import type { Act, World } from './scenarios';
import { asksTheUserToSave, shownOf, splicedInto } from './shown';

export interface Tally {
  /** calls the script makes when nothing is refused or fails */
  scripted: number;
  /** every call made */
  calls: number;
  /** calls refused by the guard (a denied built-in call counts once, whatever number of files it names) */
  blocks: number;
  /** calls that failed without a refusal (the tool's own error) */
  failures: number;
  /**
   * reads after a stop whose result showed no text: the agent's own tool's failure (it costs the read unguarded
   * too), or a refusal of a write whose sibling in the same response is still landing (there is no text yet to show)
   */
  readsAfterBlankStops: number;
}

/** A text with its line breaks folded to LF and without a BOM. */
export const folded = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');

/** A refused or failed edit is made again at most this often. */
const MAX_ATTEMPTS = 3;

/** Reads of the big file that overflow the small model's context (as builtinAfterCompactionTurn does). */
const OVERFLOW_READS = [1, 401, 801, 1201, 1601];

export interface AgentFiles {
  /** the scenario's file by its name in the scenario */
  ref(name: string): FileRef;
  /** the large file the overflow reads read */
  big: FileRef;
  /** the document's text now, line breaks folded and without a BOM: what a read must have shown (folded alike) */
  textNow(name: string): Promise<string>;
}

export class ScriptedAgent {
  readonly tally: Tally = { scripted: 0, calls: 0, blocks: 0, failures: 0, readsAfterBlankStops: 0 };
  private readonly copies = new Map<string, string | undefined>();
  private readonly firstReads = new Map<string, string>();

  constructor(
    private readonly config: Configuration,
    private readonly files: AgentFiles,
    readonly world: World,
  ) {}

  /**
   * The model's side of the acts: each call of `next` takes the results of the calls it answered last
   * (in their order; none at first) and answers with the next calls, or nothing once the acts are done.
   */
  calls(acts: Act[]): (results: string[]) => Promise<Call[] | undefined> {
    const program = this.play(acts);
    return async (results) => {
      const next = await program.next(results);
      return next.done ? undefined : next.value;
    };
  }

  /** Copilot's fake model's answers for one turn: each request gets the next calls of the acts, then a closing text. */
  turn(acts: Act[]): Step[] {
    const next = this.calls(acts);
    let asked: Call[] = [];
    const step = async (req: { toolResults: ToolResultSeen[] }): Promise<Step> => {
      const calls = await next(asked.map((call) => resultOf(req.toolResults, call).text));
      if (!calls) return { text: 'Done.' };
      asked = calls;
      return asked.length === 1 ? asked[0] : { calls: asked };
    };
    // one answer per model request; a turn of this suite makes far fewer
    return Array.from({ length: 60 }, () => step);
  }

  private async *play(acts: Act[]): AsyncGenerator<Call[], void, string[]> {
    for (const act of acts) {
      if ('world' in act) await act.world(this.world);
      else if ('assume' in act) this.copies.set(act.assume, act.text);
      else if ('slip' in act) yield* this.slip(act.slip, act.quote, act.replacement);
      else if ('summarize' in act) this.copies.set(act.summarize, this.firstReads.get(act.summarize));
      else if ('read' in act) yield* this.read(act.read, true);
      else if ('overflow' in act) {
        if (!this.config.overflows) continue;
        for (const start of OVERFLOW_READS) {
          this.tally.scripted++;
          this.tally.calls++;
          yield [this.config.read(this.files.big, { start, count: 400 })];
        }
      } else if ('edit' in act) yield* this.edit([{ name: act.edit, intent: act.intent }], 'calls', 1);
      else if ('shell' in act) yield* this.edit([{ name: act.shell, intent: act.intent }], 'shell', 1);
      else if ('script' in act) yield* this.script(act.script, act.changes, act.line);
      else if ('together' in act)
        yield* this.edit(
          act.together.map((e) => ({ name: e.edit, intent: e.intent })),
          'calls',
          1,
        );
      else
        yield* this.edit(
          act.patch.map((e) => ({ name: e.edit, intent: e.intent })),
          'patch',
          1,
        );
    }
  }

  /** A call the agent's own tool fails by itself: made once, as the script says, and not made again. */
  private async *slip(name: string, quote: string, replacement: string): AsyncGenerator<Call[], void, string[]> {
    this.tally.scripted++;
    this.tally.calls++;
    const call = this.config.slip(this.files.ref(name), this.copies.get(name) ?? '', quote, replacement);
    const [result] = yield [call];
    const outcome = this.config.outcomeOf(result);
    // a refusal of ours here is a false block (the copy was current): counted, and the test says so
    if (outcome === 'refused') this.tally.blocks++;
    else {
      assert.strictEqual(outcome, 'failed', `the agent's own tool refuses ${call.tool} by itself (the scenario's slip): ${result}`);
      this.tally.failures++;
    }
  }

  /**
   * A script run through the agent's shell, made once: a program the gate cannot see through (rule 16), which it does
   * not refuse. A refusal is counted (the guarded asserts then see the file lost); a failure is the suite's own.
   */
  private async *script(script: string, changes: string, line: string): AsyncGenerator<Call[], void, string[]> {
    this.tally.scripted++;
    this.tally.calls++;
    const [result] = yield [this.config.run(`sh ${shellWord(this.files.ref(script).abs)}`)];
    const outcome = this.config.outcomeOf(result);
    if (outcome === 'refused') {
      this.tally.blocks++;
      console.log(`[outcomes] the script ${script} was refused: ${result.slice(0, 400)}`);
      return;
    }
    assert.strictEqual(outcome, 'done', `the agent's shell ran ${script}: ${result}`);
    // the script ran: the disk holds its change (a command that never ran would pass for a loss)
    const disk = fs.readFileSync(this.files.ref(changes).abs, 'utf8');
    assert.ok(disk.split(/\r?\n/).includes(line), `${script} changed ${changes} on disk to hold ${line}:\n${disk}\n${result}`);
  }

  private async *read(name: string, scripted: boolean): AsyncGenerator<Call[], void, string[]> {
    if (scripted) this.tally.scripted++;
    this.tally.calls++;
    const [result] = yield [this.config.read(this.files.ref(name))];
    const text = this.config.textOfRead(result);
    // the copy is what the read showed; if that is not the file's text, this suite misreads the result
    assert.strictEqual(folded(text), await this.files.textNow(name), `the agent's copy of ${name} is what its read showed:\n${result}`);
    this.copies.set(name, text);
    if (!this.firstReads.has(name)) this.firstReads.set(name, text);
  }

  private async *edit(
    wanted: Array<{ name: string; intent: Intent }>,
    shape: 'calls' | 'patch' | 'shell',
    attempt: number,
  ): AsyncGenerator<Call[], void, string[]> {
    const planned = wanted
      .map((w) => ({ ...w, copy: this.copies.get(w.name) }))
      .map((w) => ({ ...w, edit: w.intent(w.copy) }))
      .filter((w): w is typeof w & { edit: NonNullable<typeof w.edit> } => w.edit !== undefined);
    if (planned.length === 0) return;
    const batch: PlannedEdit[] = planned.map((p) => ({ file: this.files.ref(p.name), copy: p.copy, edit: p.edit }));
    // through the shell: the whole text the agent believes the file will hold, written over it
    const calls =
      shape === 'shell' ? batch.map((p) => this.config.shell(p.file, applyToCopy(p.copy, p.edit))) : this.config.edits(batch, shape);
    if (attempt === 1) this.tally.scripted += calls.length;
    this.tally.calls += calls.length;
    const results = yield calls;

    /** the files a shell command the tool ran wrote over, with the text it wrote */
    const rewritten: Array<{ name: string; text: string; result: string }> = [];
    const again: typeof wanted = [];
    const toRead = new Set<string>();
    /** files whose refusal asked the user to save first (rule 13): the user does, as the agent asked */
    const toSave = new Set<string>();
    results.forEach((result, i) => {
      // a patch is one call for every edit; otherwise call i is edit i
      const covered = calls.length === planned.length ? [planned[i]] : planned;
      const outcome = this.config.outcomeOf(result);
      if (outcome === 'done') {
        for (const p of covered) this.copies.set(p.name, applyToCopy(p.copy, p.edit));
        if (shape === 'shell') rewritten.push(...covered.map((p) => ({ name: p.name, text: applyToCopy(p.copy, p.edit), result })));
        return;
      }
      if (outcome === 'refused') this.tally.blocks++;
      else {
        this.tally.failures++;
        // the host's log says what the tool answered (the figures alone would not)
        console.log(`[outcomes] ${calls[i].tool} failed: ${result.slice(0, 400)}`);
      }
      for (const p of covered) {
        if (outcome === 'refused' && asksTheUserToSave(result)) toSave.add(p.name);
        const spliced = outcome === 'failed' ? splicedInto(result, p.copy) : undefined;
        const shown =
          outcome === 'refused'
            ? shownOf(result, this.files.ref(p.name).rel, p.copy)
            : spliced !== undefined
              ? { text: spliced }
              : undefined;
        if (shown && 'text' in shown) this.copies.set(p.name, shown.text);
        // only some lines shown (a duplicate refusal): the agent knows them to be in the file as well
        else if (shown) this.copies.set(p.name, `${p.copy ?? ''}\n${shown.lines}\n`);
        else {
          if (!toRead.has(p.name)) this.tally.readsAfterBlankStops++;
          toRead.add(p.name);
        }
        again.push({ name: p.name, intent: p.intent });
      }
    });
    // the command ran, in the agent's shell: the file holds what it wrote (a command that never ran would pass for a loss)
    for (const r of rewritten)
      assert.strictEqual(await this.files.textNow(r.name), r.text, `the shell command wrote ${r.name}:\n${r.result}`);
    if (again.length === 0 || attempt >= MAX_ATTEMPTS) return;
    for (const name of toSave) await this.world.save(name);
    for (const name of toRead) yield* this.read(name, false);
    yield* this.edit(again, shape, attempt + 1);
  }
}

/** The result of `call` in the request's history: the last one of that tool with that input. */
function resultOf(results: ToolResultSeen[], call: Call): ToolResultSeen {
  const same = (input: Record<string, unknown> | undefined) => JSON.stringify(input) === JSON.stringify(call.input);
  const found = [...results].reverse().find((r) => r.name === call.tool && same(r.input));
  assert.ok(
    found,
    `the model received the result of ${call.tool} ${JSON.stringify(call.input).slice(0, 200)}; results: ${results.map((r) => r.name).join(', ')}`,
  );
  return found;
}
