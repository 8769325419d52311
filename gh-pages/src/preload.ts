// The preloader, inlined at the top of index.html by the site build: it asks for the data files
// of the view the URL names, and the charts' module where it draws any (preload-files.ts), before
// the stylesheets and the bundle arrive, so the app finds them downloaded or on their way. It
// never stops the page: a failure preloads less.
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { preloadFiles, preloadModules } from './preload-files.js';

function preload(href: string, module: boolean): void {
  const link = document.createElement('link');
  link.rel = module ? 'modulepreload' : 'preload';
  if (!module) {
    link.as = 'fetch';
    // The app's fetch() is a CORS request with same-origin credentials: only a match reuses this one.
    link.crossOrigin = 'anonymous';
  }
  link.href = href;
  document.head.appendChild(link);
}

try {
  const plan = JSON.parse(document.getElementById('preload-plan')?.textContent ?? 'null') as PreloadPlan | null;
  if (plan) {
    // The charts' module first: it is evaluated while the data is still coming.
    for (const href of preloadModules(plan, location.hash)) preload(href, true);
    for (const href of preloadFiles(plan, location.hash)) preload(href, false);
  }
} catch {
  // Nothing preloaded: the app fetches what it needs itself.
}
