/**
 * The views, one table: the URL's view name -> the function that renders it. A new view is one
 * file under views/ and one line here (and its name in state.ts's VIEWS).
 */
import type { View as Name } from '../state.js';
import { compare } from './compare.js';
import type { View } from './ctx.js';
import { overview } from './overview.js';
import { regressions } from './regressions.js';
import { runtimes } from './runtimes.js';
import { sweeps } from './sweeps.js';
import { trends } from './trends.js';

export const VIEW_TABLE: Record<Name, View> = {
  overview,
  trends,
  sweeps,
  compare,
  regressions,
  runtimes,
};

export type { Ctx } from './ctx.js';
