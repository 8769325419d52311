/** When a machine counts as busy: the harness warns (and --strict refuses); compare warns the reviewer. */
export const BUSY_LOAD_PER_CORE = 0.5;

export function isBusy(c: { loadAverage: readonly number[] }, cores: number): boolean {
  return (c.loadAverage[0] ?? 0) > BUSY_LOAD_PER_CORE * cores;
}
