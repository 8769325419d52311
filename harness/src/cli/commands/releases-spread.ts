/** npm run releases -- spread: how steady the reference was over a sweep, and what the sweep cost. */
import { EXIT, UserError } from '../../lib/errors.js';
import { machineInfo } from '../../machine/machine.js';
import { referenceSpread, sweepCost, sweepEntries } from '../../releases/judge/reference-spread.js';
import { readReleaseIndex } from '../../releases/release-files.js';
import { spreadText } from '../../releases/spread-text.js';
import { list } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { profileFlag } from '../selection.js';
import { RELEASE_STORE_OPTIONS } from './releases-options.js';

const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export const releasesSpreadSpec = {
  name: 'releases spread',
  brief: "the reference's spread across the measured releases per suite point and metric, and the cost per release",
  summary:
    'For every reference (C) point of the release suites and every suite metric: (max - min) / median of its ' +
    'per-release values across the releases this machine measured at the profile, the widest per-release 95% ' +
    'interval, and whether it is steady (at most 10% over at least 20 releases); then the wall time measuring a ' +
    'release took (median, max) and the whole. Run it after a quiet sweep; --measured-after keeps that sweep only.',
  options: {
    ...RELEASE_STORE_OPTIONS,
    line: { type: 'string', value: 'LIST', description: 'only these release lines (node20, bun, ...)' },
    'measured-after': {
      type: 'string',
      value: 'DATE',
      description: 'only releases measured at or after this ISO date or date-time (one sweep)',
    },
    json: { type: 'boolean', default: false, description: 'as JSON' },
  },
  example: 'npm run releases -- spread --profile quick --measured-after 2026-11-25T18:00Z',
} as const satisfies CommandSpec;

export async function releasesSpreadCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(releasesSpreadSpec, argv);
  const profile = profileFlag(values.profile);
  const after = values['measured-after'];
  if (after !== undefined && (!ISO.test(after) || Number.isNaN(Date.parse(after))))
    throw new UserError(`--measured-after ${after}: expected an ISO date or date-time (2026-11-25, 2026-11-25T18:00Z)`);
  const lines = list(values.line);
  const machine = machineInfo().id;
  const stored = readReleaseIndex(values.store, machine).releases;
  const have = [...new Set(stored.map((e) => e.line))].sort();
  for (const l of lines ?? [])
    if (!have.includes(l))
      throw new UserError(
        `--line ${l}: no releases of that line in ${values.store}; lines there: ${have.join(', ') || 'none'}`,
      );
  const entries = sweepEntries(stored, {
    profile,
    ...(lines ? { lines } : {}),
    ...(after ? { measuredAfter: after } : {}),
  });
  const rows = referenceSpread(entries);
  const cost = sweepCost(entries);
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ machine, profile, releases: entries.length, reference: rows, cost: cost ?? null }, null, 2)}\n`
      : spreadText(rows, cost, entries.length),
  );
  return EXIT.ok;
}
