/**
 * A recording's starts with the insides of repeated sandboxes left out. The recording's sandbox
 * player (sandbox-replay.ts) plays a sandbox back, running nothing inside, when it starts again with
 * nothing it could see changed; what it could see includes the writable folders' files, and whether
 * a file another sandbox left still counts as left goes by file times the harness does not choose.
 * So one side may run a repeat that the other plays back: the same harness, "bash, taskset, time,
 * c: started only by the head". Left out on both sides, a repeat's insides matter only where they
 * differ from the first run's. Pure.
 */
import type { NormalRun } from '../../formats/transcript-format.js';
import { keyOf } from './transcript-compare.js';
import type { ProcessRun } from './transcript-starts.js';

/**
 * `normal` (the normalized `runs`, index for index) without the starts inside a sandbox whose start
 * equals an earlier one's (once normalized: its command, environment, placement, descriptors and
 * what it names) and whose insides equal that one's, as multisets. The sandbox's own start stays:
 * how often a harness starts it is compared.
 */
export function withoutRepeatedInsides(runs: readonly ProcessRun[], normal: readonly NormalRun[]): NormalRun[] {
  const insides = new Map<number, number[]>();
  runs.forEach((r, i) => {
    if (r.within !== undefined) insides.set(r.within, [...(insides.get(r.within) ?? []), i]);
  });
  const seen = new Map<string, Set<string>>();
  const dropped = new Set<number>();
  runs.forEach((r, i) => {
    const inside = insides.get(r.seq);
    if (!inside) return;
    const outer = keyOf(normal[i]!);
    const what = inside
      .map((j) => keyOf(normal[j]!))
      .sort()
      .join('\n');
    const ran = seen.get(outer) ?? new Set<string>();
    if (ran.has(what)) for (const j of inside) dropped.add(j);
    else seen.set(outer, ran.add(what));
  });
  return normal.filter((_, i) => !dropped.has(i));
}
