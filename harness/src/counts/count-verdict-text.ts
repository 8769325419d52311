/**
 * A point's counted work in words: "work changed: instructions per read 15,243 → 15,701 (+3.0 %),
 * exact", "same work (within 1 %)", "counts not deterministic here", or why it was not counted.
 * Pure; the caller escapes.
 */
import { median } from '../analysis/two-sample.js';
import type { PairsComparison, PairsPoint, PairsWork } from '../formats/pairs-format.js';

type Counted = Extract<PairsWork, { status: 'counted' }>;

const number = (x: number) =>
  x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toLocaleString('en-US', { maximumSignificantDigits: 4 });
const pct = (x: number) =>
  `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(x !== 0 && Math.abs(x) < 0.001 ? 3 : 1)} %`;

/** "instructions per read", "instructions per run (start-up included)". */
function quantity(w: Counted): string {
  return w.metric === 'instructions_per_op'
    ? `instructions per ${w.per ?? 'operation'}`
    : 'instructions per run (start-up included)';
}

/** Whether the point's counts decide a change: counted, deterministic, beyond the tolerance, and not evidence. */
export function decidedCountChange(p: Pick<PairsPoint, 'work'>, trusted = true): boolean {
  return trusted && p.work?.status === 'counted' && p.work.role === 'decides' && p.work.verdict === 'changed';
}

/** The point's work in one line, and where its base's count came from when the store gave it. */
export function countVerdictText(p: Pick<PairsPoint, 'work'>): string {
  const w = p.work;
  if (!w) return '';
  if (w.status === 'not-counted') return `work not counted: ${w.reason}`;
  const from = w.baseStored
    ? `; the base's count from the stored counts (counted at ${w.baseStored.commit.slice(0, 12)})`
    : '';
  return `${verdictText(w)}${from}`;
}

function verdictText(w: Counted): string {
  const [b, h] = [median(w.base), median(w.head)];
  const evidence = w.role === 'evidence' ? ` (evidence only: ${w.because ?? 'its counts do not decide'})` : '';
  if (w.verdict === 'not-deterministic')
    return `counts not deterministic here: its repeats spread ${(w.spread * 100).toFixed(2)} %, over the ${(w.tolerance * 100).toFixed(0)} % tolerance`;
  if (w.verdict === 'changed')
    return `work changed: ${quantity(w)} ${number(b)} → ${number(h)} (${pct(w.change ?? (h - b) / b)}), exact${evidence}`;
  return `same work: ${quantity(w)} ${number(h)} (${pct(w.change ?? 0)}, within ${(w.tolerance * 100).toFixed(0)} %)${evidence}`;
}

/** Where the base's counts came from, in one sentence (PairsComparison.counts.storedBase), or nothing. */
export function storedBaseText(c: Pick<PairsComparison, 'counts'>): string {
  const s = c.counts?.storedBase;
  if (!s) return '';
  if (s.store !== 'used') return `Base counts: all counted live (stored counts ${s.store}).`;
  const checks = s.rechecked.map(
    (r) =>
      `${r.family} ${r.agreed ? 'agreed' : 'disagreed, so its bases were counted live'} (${r.benchmark}, ${r.by === 'head' ? "by its head's live count" : 'its base counted live'})`,
  );
  const counted = c.counts!.counted;
  const rest = s.taken < counted ? ', the rest counted live' : '';
  return `Base counts: ${s.taken} of ${counted} taken from this machine's stored counts (their keys matched)${rest}${checks.length ? `; re-checked live: ${checks.join('; ')}` : ''}.`;
}

/** Whether this diff's counts can decide: its control agreed (PairsComparison.counts). */
export const countsTrusted = (c: Pick<PairsComparison, 'counts'>) => c.counts?.trusted !== false;
