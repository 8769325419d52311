// The preloader, inlined at the top of index.html by the site build: it asks for the data files
// of the view the URL names (preload-files.ts) before the stylesheets and the bundle arrive, so
// the app finds them downloaded or on their way. It never stops the page: a failure preloads less.
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { preloadFiles } from './preload-files.js';

try {
  const plan = JSON.parse(document.getElementById('preload-plan')?.textContent ?? 'null') as PreloadPlan | null;
  for (const href of plan ? preloadFiles(plan, location.hash) : []) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'fetch';
    // The app's fetch() is a CORS request with same-origin credentials: only a match reuses this one.
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  }
} catch {
  // Nothing preloaded: the app fetches what it needs itself.
}
