// The preloader, inlined at the top of index.html by the site build: before the rest of the page
// (the app's bundle last) is parsed, it fetches the data files of the view the URL names
// (preload-files.ts) and hands them to the app (data/preloaded.ts). It never stops the page: a
// failure preloads less, and the app fetches the rest itself.
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { handOver } from './data/preloaded.js';
import { preloadFiles } from './preload-files.js';

try {
  const plan = JSON.parse(document.getElementById('preload-plan')?.textContent ?? 'null') as PreloadPlan | null;
  if (plan) handOver(preloadFiles(plan, location.hash));
} catch {
  // Nothing preloaded: the app fetches what it needs itself.
}
