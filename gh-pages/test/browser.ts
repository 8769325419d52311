// The browser the site tests use is the one site:perf uses: one launcher, in the harness.
export { launch } from '../../harness/src/site/browser.js';
