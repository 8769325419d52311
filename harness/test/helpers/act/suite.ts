/**
 * Whether the act tests can run here: act of the pinned version, a local copy of every pinned
 * action and just(js). Elsewhere they skip with one line saying why, except under CI, where a
 * missing piece fails them.
 */
import { it } from 'vitest';
import { findAct } from './act.js';
import { localActions } from './pins.js';
import { justHome } from './stand-ins.js';

export function actReadiness(): { ready: boolean; why: string } {
  const problems: string[] = [];
  const act = findAct();
  if (!act.bin) problems.push(act.why ?? 'act is missing');
  const { missing } = localActions();
  if (missing.length) problems.push(`no local copy of ${missing.join('; ')}`);
  if (!justHome()) problems.push('no just(js) (JUST_HOME): npm test builds it from ../shared/just');
  return { ready: problems.length === 0, why: problems.join('; ') };
}

/** Under CI a missing piece is a failure, not a skip. */
const mustRun = () => Boolean(process.env.CI) && process.env.CI !== 'false';

/**
 * The one test a file under act has when it cannot run: a failure naming what is missing under
 * CI, else one line on the console saying why (and a skipped test named after it).
 */
export function unlessActReady({ ready, why }: { ready: boolean; why: string }) {
  if (ready) return;
  if (mustRun())
    it('act, just(js) and a local copy of every pinned action are here (CI requires them)', () => {
      throw new Error(why);
    });
  else {
    // A skipped file lists no test names: say why on the console, once per file.
    console.warn(`workflows under act skipped: ${why}`);
    it.skip(`under act: skipped, ${why}`, () => {});
  }
}
