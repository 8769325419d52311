/**
 * How a run's counting stage used the stored counts (Results run.counting), in one sentence for
 * the summary and the site: reused, counted, left for later (the budget), and any family whose
 * stored counts a live re-check found wrong. Pure; the caller escapes.
 */
import type { Results } from '../formats/results-format.js';

type Counting = NonNullable<Results['run']['counting']>;

const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;

export function countingSentence(c: Counting): string {
  const parts = [
    `Counted work: ${points(c.reused)} took the count stored under ${c.reused === 1 ? 'its' : 'their'} key, ${points(c.counted)} counted by this run`,
  ];
  if (c.store !== 'reused') parts.push(` (stored counts ${c.store})`);
  if (c.deferred)
    parts.push(
      `; ${points(c.deferred)} with a new key left for a later run (the budget of ${c.budget} new points per run was spent)`,
    );
  const compared = c.rechecked.filter((r) => !r.otherWork);
  const agreed = compared.filter((r) => r.agreed).length;
  if (compared.length) parts.push(`; re-checked live: ${agreed} of ${compared.length} agreed with the store`);
  const other = c.rechecked.filter((r) => r.otherWork);
  if (other.length)
    parts.push(
      `; not compared: ${other.map((r) => `${r.id} (${r.family})`).join(', ')} made another number of operations live than stored (its work follows the scheduler), so another variant of ${other.length === 1 ? 'its family' : 'their families'} is re-checked next run`,
    );
  if (c.unchecked?.length)
    parts.push(
      `; not re-checked: ${c.unchecked.join(', ')} (no stored point of ${c.unchecked.length === 1 ? 'that family' : 'those families'} repeated steadily enough to stand for it)`,
    );
  if (c.dropped.length)
    parts.push(
      `; a re-count disagreed with the stored counts of ${c.dropped.join(', ')}: those stored counts were dropped on this machine and counted again`,
    );
  return `${parts.join('')}.`;
}
