// The scripted agent of the outcomes suite: it plays a scenario's acts as the fake model's answers in
// Copilot's real agent loop, keeping a copy of each file as it believes it to be. Its one rule after
// a refusal or a failed call, the same in every configuration: take in the current text the result
// showed (a whole numbered content, a diff applied to its copy, numbered lines put in at their
// numbers) and make the edit again from it (the same intent); when the result showed no text, or
// its diff does not apply to the copy, read the file and then make the edit again. It counts every call.
import * as assert from 'assert';
import type { Step, ToolResultSeen } from '../copilot/agent';
import { BLOCKED, DENIED } from '../copilot/turns';
import type { Call, Configuration, FileRef, PlannedEdit } from './configurations';
import { applyToCopy, type Intent } from './edits';
import type { Act, World } from './scenarios';
import { shownOf, splicedInto, textOfRead } from './shown';

export interface Tally {
  /** calls the script makes when nothing is refused or fails */
  scripted: number;
  /** every call made */
  calls: number;
  /** calls refused by the guard (a denied built-in call counts once, whatever number of files it names) */
  blocks: number;
  /** calls that failed without a refusal (the tool's own error) */
  failures: number;
}

/** A text with its line breaks folded to LF and without a BOM. */
export const folded = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');

/** What a result means to the agent. */
export function outcomeOf(text: string): 'done' | 'refused' | 'failed' {
  if (text.startsWith(BLOCKED) || DENIED.test(text)) return 'refused';
  if (/^ERROR\b/i.test(text)) return 'failed';
  return 'done';
}

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
  readonly tally: Tally = { scripted: 0, calls: 0, blocks: 0, failures: 0 };
  private readonly copies = new Map<string, string | undefined>();
  private readonly firstReads = new Map<string, string>();

  constructor(
    private readonly config: Configuration,
    private readonly files: AgentFiles,
    private readonly world: World,
  ) {}

  /** The fake model's answers for one turn: each request gets the next call of the acts, then a closing text. */
  turn(acts: Act[]): Step[] {
    const program = this.play(acts);
    let asked: Call[] = [];
    const step = async (req: { toolResults: ToolResultSeen[] }): Promise<Step> => {
      const results = asked.map((call) => resultOf(req.toolResults, call));
      const next = await program.next(results);
      if (next.done) return { text: 'Done.' };
      asked = next.value;
      return asked.length === 1 ? asked[0] : { calls: asked };
    };
    // one answer per model request; a turn of this suite makes far fewer
    return Array.from({ length: 60 }, () => step);
  }

  private async *play(acts: Act[]): AsyncGenerator<Call[], void, ToolResultSeen[]> {
    for (const act of acts) {
      if ('world' in act) await act.world(this.world);
      else if ('assume' in act) this.copies.set(act.assume, act.text);
      else if ('summarize' in act) this.copies.set(act.summarize, this.firstReads.get(act.summarize));
      else if ('read' in act) yield* this.read(act.read, true);
      else if ('overflow' in act) {
        for (const start of OVERFLOW_READS) {
          this.tally.scripted++;
          this.tally.calls++;
          yield [this.config.read(this.files.big, { start, count: 400 })];
        }
      } else if ('edit' in act) yield* this.edit([{ name: act.edit, intent: act.intent }], 'calls', 1);
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

  private async *read(name: string, scripted: boolean): AsyncGenerator<Call[], void, ToolResultSeen[]> {
    if (scripted) this.tally.scripted++;
    this.tally.calls++;
    const [result] = yield [this.config.read(this.files.ref(name))];
    const text = textOfRead(result.text);
    // the copy is what the read showed; if that is not the file's text, this suite misreads the result
    assert.strictEqual(
      folded(text),
      await this.files.textNow(name),
      `the agent's copy of ${name} is what its read showed:\n${result.text}`,
    );
    this.copies.set(name, text);
    if (!this.firstReads.has(name)) this.firstReads.set(name, text);
  }

  private async *edit(
    wanted: Array<{ name: string; intent: Intent }>,
    shape: 'calls' | 'patch',
    attempt: number,
  ): AsyncGenerator<Call[], void, ToolResultSeen[]> {
    const planned = wanted
      .map((w) => ({ ...w, copy: this.copies.get(w.name) }))
      .map((w) => ({ ...w, edit: w.intent(w.copy) }))
      .filter((w): w is typeof w & { edit: NonNullable<typeof w.edit> } => w.edit !== undefined);
    if (planned.length === 0) return;
    const batch: PlannedEdit[] = planned.map((p) => ({ file: this.files.ref(p.name), copy: p.copy, edit: p.edit }));
    const calls = this.config.edits(batch, shape);
    if (attempt === 1) this.tally.scripted += calls.length;
    this.tally.calls += calls.length;
    const results = yield calls;

    const again: typeof wanted = [];
    const toRead = new Set<string>();
    results.forEach((result, i) => {
      // a patch is one call for every edit; otherwise call i is edit i
      const covered = calls.length === planned.length ? [planned[i]] : planned;
      const outcome = outcomeOf(result.text);
      if (outcome === 'done') {
        for (const p of covered) this.copies.set(p.name, applyToCopy(p.copy, p.edit));
        return;
      }
      if (outcome === 'refused') this.tally.blocks++;
      else {
        this.tally.failures++;
        // the host's log says what the tool answered (the figures alone would not)
        console.log(`[outcomes] ${calls[i].tool} failed: ${result.text.slice(0, 400)}`);
      }
      for (const p of covered) {
        const spliced = outcome === 'failed' ? splicedInto(result.text, p.copy) : undefined;
        const shown =
          outcome === 'refused'
            ? shownOf(result.text, this.files.ref(p.name).rel, p.copy)
            : spliced !== undefined
              ? { text: spliced }
              : undefined;
        if (shown && 'text' in shown) this.copies.set(p.name, shown.text);
        // only some lines shown (a duplicate refusal): the agent knows them to be in the file as well
        else if (shown) this.copies.set(p.name, `${p.copy ?? ''}\n${shown.lines}\n`);
        else toRead.add(p.name);
        again.push({ name: p.name, intent: p.intent });
      }
    });
    if (again.length === 0 || attempt >= MAX_ATTEMPTS) return;
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
