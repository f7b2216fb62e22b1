// One line of the benchmark table (and of bench/results.json).
import type { Stat } from './measure';

export interface Row {
  id: string;
  group: string;
  label: string;
  unit: 'ms' | 'µs' | 'MB' | 'KB' | 'files';
  /** The measured figure: median, min, max over the samples. */
  value: Stat | { median: number; min: number; max: number; n: number };
  /** What it is compared against in the same run, in `unit`. */
  baseline?: { label: string; median: number; min: number; max: number; n: number };
  /** Per-round ratios value / baseline (median, min, max). */
  ratio?: { median: number; min: number; max: number; n: number };
  goal?: { text: string; max: number; on: 'ratio' | 'value' };
  note?: string;
}
