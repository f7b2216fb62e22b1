// What one soak run is, from its environment (scripts/soak.mjs sets it from its options).
export const SOAK = {
  /** how long the writers write, per run */
  seconds: Number(process.env.EDITGUARD_SOAK_SECONDS) || 60,
  /** runs one after the other in one host, each on fresh files */
  runs: Math.max(1, Number(process.env.EDITGUARD_SOAK_RUNS) || 1),
  /**
   * `guarded`: the guarded tools write beside the others; `baseline`: plain VS Code edits and saves in their place
   * (what VS Code alone loses under the same load)
   */
  mode: process.env.EDITGUARD_SOAK_MODE === 'baseline' ? ('baseline' as const) : ('guarded' as const),
  /** where the run's report goes as JSON (scripts/soak.mjs reads it) */
  report: process.env.EDITGUARD_SOAK_REPORT,
};
