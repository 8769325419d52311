/**
 * comparison.json for an older reader. The PR-comment workflow validates a pull request's artifact
 * with the DEFAULT BRANCH's reader (pr-comment.yml never runs pull-request code), which refuses a
 * newer schema and any field it does not know. A pull request that introduces a schema would get
 * no comment at all; so when its base reads an older one, the artifact's comparison.json is written
 * at that one. For a reader of 4 that is the document without where its base counts came from; for
 * a reader of 3, without its `kind` too. For a reader of 2, what 2
 * cannot hold is said in words its renderer shows at the top (warnings): a point whose workload
 * changed goes to `incomparable` with its measured change, another timed metric that moved is a
 * warning line. The full comparison is kept beside it. Pure.
 */

import { countsTrusted, countVerdictText, decidedCountChange } from '../../counts/count-verdict-text.js';
import { PAIRS_COMPARISON_OLDEST, PAIRS_COMPARISON_SCHEMA } from '../../formats/comparison-format.js';
import {
  type PairsComparison,
  PairsComparisonV2,
  PairsComparisonV3,
  PairsComparisonV4,
  type PairsPoint,
} from '../../formats/pairs-format.js';
import { plural } from '../../lib/format.js';
import { assertValid } from '../../lib/json-file.js';
import { movedOthers } from '../decide/point-answers.js';
import { alsoText, pointLabel, workloadVerdict } from './point-tables.js';

/** At most this many warnings: the schema's bound. */
const MAX_WARNINGS = 20;

function stripPoint(p: PairsPoint): PairsComparisonV2['points'][number] {
  const { workloadChanged: _w, also: _a, work: _k, lead, folded, ...rest } = p;
  const metric = ({ of: _of, ...m }: PairsPoint['lead']) => m;
  return { ...rest, lead: metric(lead), folded: folded.map(metric) };
}

/** `c` as a schema-2 reader reads it, its schema-3 findings said in its warnings and lists. */
export function forSchema2(c: PairsComparison): PairsComparisonV2 {
  const workload = c.points.filter((p) => p.workloadChanged);
  const moved = c.points.filter((p) => p.pairs > 0 && !p.workloadChanged && movedOthers(p).length);
  const note = `this comment is rendered by the default branch's reader of comparison.json schema ${PAIRS_COMPARISON_OLDEST}, older than this diff's (${PAIRS_COMPARISON_SCHEMA}): ${plural(workload.length, 'point')} whose workload changed ${workload.length === 1 ? 'was' : 'were'} measured (listed as not comparable, with the change), and another timed metric moved on ${plural(moved.length, 'point')} (below); the diff run's job summary has the full comparison`;
  const movedLines = [
    ...c.points
      .filter((p) => decidedCountChange(p, countsTrusted(c)))
      .map((p) => `${pointLabel(p)}: ${countVerdictText(p)}`.slice(0, 500)),
    ...moved.map((p) => `${pointLabel(p)}: ${alsoText(p)}`.slice(0, 500)),
  ];
  const room = MAX_WARNINGS - 1 - (c.warnings?.length ?? 0);
  const shown = movedLines.slice(0, Math.max(0, room));
  const warnings = [
    ...(workload.length || moved.length ? [note.slice(0, 500)] : []),
    ...shown,
    ...(c.warnings ?? []),
  ].slice(0, MAX_WARNINGS);
  const incomparable = [
    ...(c.incomparable ?? []),
    ...workload.map((p) => ({
      benchmark: p.benchmark,
      metric: p.lead.metric,
      reason: `${workloadVerdict(p)} — ${p.workloadChanged}`.slice(0, 300),
    })),
  ];
  const { kind: _kind, summary: _s, points: _points, warnings: _w, incomparable: _i, counts: _c, ...rest } = c;
  const out = {
    ...rest,
    schema: PAIRS_COMPARISON_OLDEST,
    points: c.points.filter((p) => !p.workloadChanged).map(stripPoint),
    ...(warnings.length ? { warnings } : {}),
    ...(incomparable.length ? { incomparable } : {}),
  };
  // What we write must pass the older reader's checks, or the pull request gets no comment.
  return assertValid('comparison.json (schema 2)', out, PairsComparisonV2);
}

/** `c` without what schema 5 added: where a base's count came from (the store or this diff). */
function withoutStoredBase(c: PairsComparison) {
  const points = c.points.map((p) => {
    if (p.work?.status !== 'counted') return p;
    const { baseStored: _b, ...work } = p.work;
    return { ...p, work };
  });
  const counts = c.counts && (({ storedBase: _s, ...rest }) => rest)(c.counts);
  return { ...c, points, ...(counts ? { counts } : {}) };
}

/** `c` as a schema-4 reader reads it: the same document without the stored-base fields 5 added. */
export function forSchema4(c: PairsComparison): PairsComparisonV4 {
  return assertValid('comparison.json (schema 4)', { ...withoutStoredBase(c), schema: 4 }, PairsComparisonV4);
}

/** `c` as a schema-3 reader reads it: schema 4's document without `kind`, the one field 4 added. */
export function forSchema3(c: PairsComparison): PairsComparisonV3 {
  const { kind: _kind, ...rest } = withoutStoredBase(c);
  return assertValid('comparison.json (schema 3)', { ...rest, schema: 3 }, PairsComparisonV3);
}

/**
 * `c` as the reader of schema `reader` (the base's, workflow/reader-schema.ts) takes it, or
 * undefined where that reader takes `c` itself (it knows this schema, or declares none: it is then
 * older than any reader that could be helped).
 */
export function forReader(
  c: PairsComparison,
  reader: number | undefined,
): PairsComparisonV2 | PairsComparisonV3 | PairsComparisonV4 | undefined {
  if (reader === PAIRS_COMPARISON_OLDEST) return forSchema2(c);
  if (reader === 3) return forSchema3(c);
  if (reader === 4) return forSchema4(c);
  return undefined;
}
