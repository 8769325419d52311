/**
 * Trend windows: a profile's commits cut into ranges of dates of about WINDOW_COMMITS commits, so
 * what the site loads does not grow with the history. Windows are only ever appended; a commit
 * keeps the window it was first put in, and a back-filled older commit joins the window its date
 * falls in (which may then hold a few more than WINDOW_COMMITS). Pure.
 */

import { commitOrder, WINDOW_COMMITS, windowId } from '../formats/parts/store-layout.js';
import type { TrendWindow } from '../formats/trend-store-format.js';

type Moment = { date: string; sha: string };

/** The windows with `c` added, and the id of the window it went into. */
export function placeInWindow(
  windows: readonly TrendWindow[],
  c: Moment,
  size = WINDOW_COMMITS,
): { windows: TrendWindow[]; id: string } {
  const out = windows.map((w) => ({ ...w, first: { ...w.first }, last: { ...w.last } }));
  const moment = { date: c.date, sha: c.sha };
  const last = out.at(-1);
  if (!last || (last.commits >= size && commitOrder(moment, last.last) > 0)) {
    const w: TrendWindow = { id: windowId(out.length), first: moment, last: moment, commits: 1 };
    out.push(w);
    return { windows: out, id: w.id };
  }
  // The newest window that starts at or before c; a commit older than every window joins the first.
  let i = out.length - 1;
  while (i > 0 && commitOrder(moment, out[i]!.first) < 0) i--;
  const w = out[i]!;
  if (commitOrder(moment, w.first) < 0) w.first = moment;
  if (commitOrder(moment, w.last) > 0) w.last = moment;
  w.commits++;
  return { windows: out, id: w.id };
}
