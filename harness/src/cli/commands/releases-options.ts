/** The flags the releases subcommands share, each defined once (cli/options.ts tables). */
import { join } from 'node:path';
import { PROFILES } from '../../model/profiles.js';
import { releaseFamilies, title } from '../../model/runtime-families.js';
import { DEFAULT_STORE, ROOT } from '../args.js';
import type { OptionSpec } from '../options.js';

/** Where releases are stored and at which profile: every subcommand but import reads both. */
export const RELEASE_STORE_OPTIONS = {
  store: { type: 'string', value: 'DIR', default: DEFAULT_STORE, description: 'the trend store' },
  profile: { type: 'string', value: 'P', default: 'quick', description: `workload size: ${PROFILES.join(', ')}` },
} as const satisfies Record<string, OptionSpec>;

/** Where the releases' bench runs write their work. */
export const RELEASE_OUT_OPTION = {
  out: {
    type: 'string',
    value: 'DIR',
    default: join(ROOT, 'results', 'releases'),
    description: "where the releases' bench runs write",
  },
} as const satisfies Record<string, OptionSpec>;

export const RELEASE_EXPERIMENTS_OPTION = {
  experiments: { type: 'string', value: 'LIST', description: "only these experiments' release suites" },
} as const satisfies Record<string, OptionSpec>;

const AXIS = releaseFamilies();
/** "all three": every family, which `--runtime` defaults to. */
const ALL = AXIS.length === 2 ? 'both' : `all ${['', 'one', '', 'three', 'four', 'five'][AXIS.length] || AXIS.length}`;
/** One line per family for the help: a middle default line (node22), or the family whole. */
const exampleLine = (f: (typeof AXIS)[number]) => f.releases.defaults.lines?.at(1) ?? f.key;
const canaryFamilies = AXIS.filter((f) => f.releases.canaries)
  .map(title)
  .join(' and ');

/** The catalogue's filters (release-selection.ts selectFromFlags reads them), with the store and profile. */
export const RELEASE_SELECTION_OPTIONS = {
  runtime: { type: 'string', value: 'LIST', description: `${AXIS.map((f) => f.key).join(', ')} (default: ${ALL})` },
  since: { type: 'string', value: 'X.Y.Z', description: 'the oldest release (one --runtime only)' },
  until: { type: 'string', value: 'X.Y.Z', description: 'the newest release (one --runtime only)' },
  after: { type: 'string', value: 'YYYY-MM-DD', description: 'only releases published on or after that day' },
  line: { type: 'string', value: 'LIST', description: `only these lines (${AXIS.map(exampleLine).join(', ')})` },
  every: {
    type: 'string',
    value: 'minor|release',
    default: 'release',
    description: 'minor = the first release of each minor',
  },
  canaries: { type: 'boolean', default: false, description: `include ${canaryFamilies} canaries` },
  'registry-json': {
    type: 'string',
    multiple: true,
    default: [],
    value: 'FAMILY=FILE',
    description: 'a saved `npm view PKG time --json` answer instead of the registry',
  },
  ...RELEASE_STORE_OPTIONS,
} as const satisfies Record<string, OptionSpec>;
