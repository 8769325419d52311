/** When a machine counts as busy: the harness warns (and --strict refuses); compare warns the reviewer. */
const BUSY_LOAD_PER_CORE = 0.5;

export function isBusy(c: { loadAverage: readonly number[] }, cores: number): boolean {
  return (c.loadAverage[0] ?? 0) > BUSY_LOAD_PER_CORE * cores;
}

/**
 * Share of the machine other processes may use during a paired diff before the comment warns
 * (machine/cpu-share.ts measures it; the diff's own programs are not counted).
 */
const FOREIGN_SHARE = 0.1;

export function busyByOthers(foreignCores: number, cores: number): boolean {
  return foreignCores > FOREIGN_SHARE * cores;
}
