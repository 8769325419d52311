/**
 * Whether the act tests can run here: act of the pinned version and a local copy of every pinned
 * action. Elsewhere they skip saying why, except under CI=true, where a missing piece fails them.
 */
import { findAct } from './act.js';
import { localActions } from './pins.js';
import { justHome } from './stand-ins.js';

export function actReadiness(): { ready: boolean; why: string } {
  // Opt-in until the pr.yml act run passes again and the suite fits npm test's budget.
  if (process.env.JSIO_ACT !== '1') return { ready: false, why: 'the workflows under act run with JSIO_ACT=1' };
  const problems: string[] = [];
  const act = findAct();
  if (!act.bin) problems.push(act.why ?? 'act is missing');
  const { missing } = localActions();
  if (missing.length) problems.push(`no local copy of ${missing.join('; ')}`);
  if (!justHome()) problems.push('no just(js) (JUST_HOME): npm test builds it from ../shared/just');
  return { ready: problems.length === 0, why: problems.join('\n') };
}

/** Under CI a missing piece is a failure, not a skip. */
export const mustRun = () => Boolean(process.env.CI) && process.env.JSIO_ACT === '1';
