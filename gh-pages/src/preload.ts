// The preloader, inlined at the top of index.html by the site build: before the stylesheets and
// the bundle arrive, it asks for the data files of the view the URL names, and where the view draws
// charts it imports their module (preload-files.ts), so the app finds them downloaded or on their
// way. It never stops the page: a failure preloads less.
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { preloadFiles, preloadModules } from './preload-files.js';

function preload(href: string): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  // The app's fetch() is a CORS request with same-origin credentials: only a match reuses this one.
  link.crossOrigin = 'anonymous';
  link.href = href;
  document.head.appendChild(link);
}

try {
  const plan = JSON.parse(document.getElementById('preload-plan')?.textContent ?? 'null') as PreloadPlan | null;
  if (plan) {
    // Imported, not only fetched: uPlot is then evaluated (building its number and date formats
    // loads the locale data) while the page still waits for its files, not once they are there.
    // The bundle's import of the same URL finds it done; a failure is the bundle's to report.
    for (const href of preloadModules(plan, location.hash))
      import(new URL(href, document.baseURI).href).catch(() => undefined);
    for (const href of preloadFiles(plan, location.hash)) preload(href);
  }
} catch {
  // Nothing preloaded: the app fetches what it needs itself.
}
