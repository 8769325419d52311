// The preloader, inlined at the top of index.html by the site build: before the bundle arrives, it
// fetches the data files of the view the URL names and hands them to the app (data/preloaded.ts),
// and where the view draws charts it imports their module (preload-files.ts). It never stops the
// page: a failure preloads less, and the app fetches the rest itself.
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { handOver } from './data/preloaded.js';
import { preloadFiles, preloadModules } from './preload-files.js';

try {
  const plan = JSON.parse(document.getElementById('preload-plan')?.textContent ?? 'null') as PreloadPlan | null;
  if (plan) {
    // Imported, not only fetched: uPlot is then evaluated (building its number and date formats
    // loads the locale data) while the page still waits for its files, not once they are there.
    // The bundle's import of the same URL finds it done; a failure is the bundle's to report.
    for (const href of preloadModules(plan, location.hash))
      import(new URL(href, document.baseURI).href).catch(() => undefined);
    handOver(preloadFiles(plan, location.hash));
  }
} catch {
  // Nothing preloaded: the app fetches what it needs itself.
}
