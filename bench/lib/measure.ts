// Timing helpers shared by the core benchmark (plain Node) and the host benchmark (extension host).
// Every figure is a set of samples taken *interleaved* with its baseline, after warm-up; we report the
// median, min and max of the samples and of the per-round ratios (variant / baseline in the same round),
// so load from other processes on this shared machine hits both sides alike.

export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function stat(values: number[]): Stat {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1], n: s.length };
}

export const now = (): number => performance.now();

/** A compared operation: `run` does `batch` operations and is timed as one sample (ms per operation). */
export interface Variant {
  name: string;
  /** Runs once before each timed sample, untimed (e.g. bump a version, read a file first). */
  setup?: () => unknown | Promise<unknown>;
  run: () => unknown | Promise<unknown>;
  /** Operations per sample for this variant (overrides `CompareOptions.batch`). */
  batch?: number;
  /** Untimed, after each sample. */
  teardown?: () => unknown | Promise<unknown>;
}

export interface CompareOptions {
  warmup: number;
  rounds: number;
  /** Operations per sample; the sample's time is divided by it. */
  batch?: number;
}

export interface Compared {
  /** ms per operation, per variant */
  times: Record<string, Stat>;
  /** per-round ratios `variant / first variant` */
  ratios: Record<string, Stat>;
  /** the raw samples (ms per operation), in round order */
  samples: Record<string, number[]>;
}

/** Per-round ratios of two variants of one `compare` run. */
export function ratioOf(c: Compared, variant: string, baseline: string): Stat {
  const b = c.samples[baseline];
  return stat(c.samples[variant].map((t, i) => t / b[i]));
}

/**
 * Runs the variants in rounds, rotating their order each round, and times each `batch` times
 * (setup before each operation is untimed only when batch is 1).
 */
export async function compare(variants: Variant[], opts: CompareOptions): Promise<Compared> {
  const samples: Record<string, number[]> = {};
  for (const v of variants) samples[v.name] = [];
  const total = opts.warmup + opts.rounds;
  for (let round = 0; round < total; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const v of order) {
      const batch = v.batch ?? opts.batch ?? 1;
      let elapsed = 0;
      for (let b = 0; b < batch; b++) {
        if (v.setup) await v.setup();
        const t0 = now();
        const r = v.run();
        if (r && typeof (r as Promise<unknown>).then === 'function') await r;
        elapsed += now() - t0;
        if (v.teardown) await v.teardown();
      }
      if (round >= opts.warmup) samples[v.name].push(elapsed / batch);
    }
  }
  const base = samples[variants[0].name];
  const times: Record<string, Stat> = {};
  const ratios: Record<string, Stat> = {};
  for (const v of variants) {
    times[v.name] = stat(samples[v.name]);
    ratios[v.name] = stat(samples[v.name].map((t, i) => t / base[i]));
  }
  return { times, ratios, samples };
}

/** A flat ASCII text of `bytes` bytes that looks like source code (lines of ~40–90 characters). */
export function sourceLikeText(bytes: number, seed = 1): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const words = [
    'const',
    'value',
    'return',
    'function',
    'await',
    'this.store',
    'if',
    'result',
    'index',
    'for',
    'let',
    '=',
    '+',
    '(',
    ')',
    '{',
    '}',
    ';',
    'document',
    'hash',
  ];
  const parts: string[] = [];
  let size = 0;
  let line = 0;
  while (size < bytes) {
    const indent = '  '.repeat(Math.floor(rnd() * 4));
    let l = indent;
    const target = 40 + Math.floor(rnd() * 50);
    while (l.length < target) l += words[Math.floor(rnd() * words.length)] + ' ';
    l = `${l.trimEnd()} // ${line++}\n`;
    parts.push(l);
    size += l.length;
  }
  // cut to the exact size on a line boundary-ish, then flatten (a rope would make hashing look slower)
  const text = parts.join('').slice(0, bytes);
  return Buffer.from(text, 'latin1').toString('latin1');
}

export const KB = 1024;
export const MB = 1024 * 1024;
export const sizeLabel = (b: number) => (b >= MB ? `${b / MB} MB` : `${b / KB} KB`);

/** The value below which `q` of the samples lie (nearest rank): p95 is `percentile(values, 0.95)`. */
export function percentile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
