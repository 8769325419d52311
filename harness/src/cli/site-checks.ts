/** The feature rooms' checks of the site's data copy, which every site build runs (site/build-site.ts DataCheck). */
import { checkReleaseCopy } from '../releases/release-site-copy.js';
import type { DataCheck } from '../site/build-site.js';

export const SITE_DATA_CHECKS: readonly DataCheck[] = [checkReleaseCopy];
