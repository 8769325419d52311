// A pull request that introduces a comparison.json schema still gets its comment: pr-comment.yml
// reads the artifact with the default branch's reader, so when the base's harness reads an older
// schema the artifact is written at it: at 4 without where its base counts came from; at 3 without `kind` too; at 2 with what 2 cannot hold said in
// the lines its renderer shows.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAIRS_COMPARISON_SCHEMA } from '../../../src/formats/comparison-format.js';
import {
  PairsComparison,
  PairsComparisonV2,
  PairsComparisonV3,
  PairsComparisonV4,
  type PairsPoint,
} from '../../../src/formats/pairs-format.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { forReader, forSchema2, forSchema3, forSchema4 } from '../../../src/pairs/comment/down-level.js';
import { pairsSchemaReadBy } from '../../../src/workflow/reader-schema.js';
import { ROOT } from '../../helpers/cli.js';
import { pairsComparison, pairsPoint } from '../../helpers/pairs.js';

/** A paired diff as `pairs` writes it now, with what schemas 3, 4 and 5 added. */
function current(): PairsComparison {
  const lead = pairsPoint().lead;
  const c = pairsComparison([
    pairsPoint({
      benchmark: 'scan/c-blocking/cache=warm,files=100',
      experiment: 'scan',
      variant: 'c-blocking',
      params: { cache: 'warm', files: 100 },
      impact: 'affected',
      changed: true,
      workloadChanged: 'input_bytes 40000 → 80000',
      lead: { ...lead, metric: 'scan_seconds', ratio: 1.96, ci: [1.91, 2.01], verdict: 'slower' },
    }),
    pairsPoint({
      benchmark: 'threadpool/node-promises/cache=warm,pool=4,work=read',
      experiment: 'threadpool',
      variant: 'node-promises',
      params: { cache: 'warm', pool: 4, work: 'read' },
      impact: 'affected',
      changed: true,
      lead: { ...lead, metric: 'latency_p50', verdict: 'unchanged', of: undefined },
      folded: [
        { ...lead, metric: 'batch_ms', unit: 'ms', ratio: 1.051, ci: [1.03, 1.073], verdict: 'slower' },
        { ...lead, metric: 'files_per_s', unit: 'files/s', verdict: 'slower', of: 'batch_ms' },
      ],
      also: ['batch_ms'],
      work: {
        status: 'counted',
        metric: 'instructions',
        unit: 'instructions',
        base: [1000, 1000],
        head: [1000, 1000],
        verdict: 'same',
        change: 0,
        spread: 0,
        tolerance: 0.01,
        role: 'evidence',
        settings: 'V8 predictable',
        baseStored: { commit: 'a'.repeat(40) },
      },
    }),
  ] as PairsPoint[]);
  c.counts = {
    counted: 1,
    notCounted: 0,
    seconds: 3,
    trusted: true,
    tolerance: 0.01,
    storedBase: { store: 'used', taken: 1, rechecked: [] },
  };
  c.schema = PAIRS_COMPARISON_SCHEMA;
  c.kind = 'pairs';
  c.warnings = ['other processes used 0.40 of the 2 cores while the pairs ran'];
  c.notAffected = [];
  c.affectedBecause = c.points.map((p) => ({ benchmark: p.benchmark, reason: 'changed' }));
  return c;
}

describe('comparison.json for an older reader', () => {
  it('holds only what schema 2 has; the changed workload and the moved metric are said where 2 shows them', () => {
    const c = current();
    expect(() => PairsComparisonV2.parse(c)).toThrow();
    const v2 = forSchema2(c);
    expect(PairsComparisonV2.safeParse(v2).success).toBe(true);
    expect(v2.schema).toBe(2);
    expect(v2).not.toHaveProperty('summary');
    expect(v2.points.map((p) => p.benchmark)).toEqual(['threadpool/node-promises/cache=warm,pool=4,work=read']);
    expect(JSON.stringify(v2)).not.toMatch(/"(of|also|workloadChanged)"/);
    expect(v2).not.toHaveProperty('kind');
    expect(v2.incomparable).toEqual([
      {
        benchmark: 'scan/c-blocking/cache=warm,files=100',
        metric: 'scan_seconds',
        reason: 'workload changed: +96 % (+91 … +101 %) — input_bytes 40000 → 80000',
      },
    ]);
    expect(v2.warnings![0]).toMatch(
      new RegExp(
        `rendered by the default branch's reader of comparison.json schema 2, older than this diff's \\(${PAIRS_COMPARISON_SCHEMA}\\): 1 point whose workload changed was measured`,
      ),
    );
    expect(v2.warnings![1]).toBe(
      'threadpool node-promises cache=warm pool=4 work=read: also: batch_ms +5.1 % (+3.0 … +7.3 %)',
    );
    // The run's own warnings are kept.
    expect(v2.warnings).toContain(c.warnings![0]);
    // As a schema-2 renderer shows them: at the top, beside the merge check.
    const md = renderPairsComparison(PairsComparison.parse(v2));
    expect(md.indexOf('also: batch_ms +5.1 %')).toBeLessThan(md.indexOf('| | points | |'));
  });

  it('holds for a reader of schema 4 the same document without where its base counts came from', () => {
    const c = current();
    expect(() => PairsComparisonV4.parse({ ...c, schema: 4 })).toThrow(/baseStored|storedBase/);
    const v4 = forSchema4(c);
    expect(v4.schema).toBe(4);
    expect(JSON.stringify(v4)).not.toMatch(/baseStored|storedBase/);
    const { points, counts, ...rest } = c;
    const { schema: _s, points: p4, counts: c4, ...rest4 } = v4;
    expect(rest4).toEqual((({ schema: _x, ...r }) => r)(rest));
    expect(c4).toEqual({ counted: 1, notCounted: 0, seconds: 3, trusted: true, tolerance: 0.01 });
    expect(p4.map((p) => p.work?.status)).toEqual(points.map((p) => p.work?.status));
    expect(counts?.storedBase).toBeDefined();
    // A schema-4 renderer says nothing of the store: the rest of the comment is the same.
    expect(renderPairsComparison(PairsComparison.parse(v4))).toBe(
      renderPairsComparison(c)
        .replace(/; the base's count from the stored counts \(counted at [0-9a-f]{12}\)/g, '')
        .replace(/\n\nBase counts: [^\n]*/, ''),
    );
  });

  it('holds for a reader of schema 3 the schema-4 document without its kind', () => {
    const c = current();
    expect(() => PairsComparisonV3.parse({ ...c, schema: 3 })).toThrow(/kind/);
    const v3 = forSchema3(c);
    const { kind: _kind, ...rest } = forSchema4(c);
    expect(v3).toEqual({ ...rest, schema: 3 });
    expect(renderPairsComparison(PairsComparison.parse(v3))).toBe(
      renderPairsComparison(PairsComparison.parse(forSchema4(c))),
    );
  });

  it("writes for the base's reader: 2, 3 and 4 down-levelled, its own schema or none as it is", () => {
    const c = current();
    expect(forReader(c, 2)).toEqual(forSchema2(c));
    expect(forReader(c, 3)).toEqual(forSchema3(c));
    expect(forReader(c, 4)).toEqual(forSchema4(c));
    expect(forReader(c, PAIRS_COMPARISON_SCHEMA)).toBeUndefined();
    expect(forReader(c, undefined)).toBeUndefined();
  });

  it('a diff with nothing schema 2 lacks is only relabelled', () => {
    const c: PairsComparison = {
      ...pairsComparison([pairsPoint()]),
      schema: PAIRS_COMPARISON_SCHEMA,
      kind: 'pairs',
    };
    const v2 = forSchema2(c);
    const { kind: _kind, ...rest } = c;
    expect(v2).toEqual({ ...rest, schema: 2 });
  });

  it("the base's reader is read from its source, in every layout", () => {
    const layout = (file: string, text: string) => {
      const root = mkdtempSync(join(tmpdir(), 'jsio-reader-'));
      mkdirSync(dirname(join(root, 'harness', 'src', file)), { recursive: true });
      writeFileSync(join(root, 'harness', 'src', file), text);
      return root;
    };
    // Both spellings of the constant's name, written apart so that renaming it leaves them be.
    const [paired, pairs] = ['PAIRED', 'PAIRS'].map((p) => `export const ${p}_COMPARISON_SCHEMA`);
    expect(pairsSchemaReadBy(layout('model/comparison.ts', `x\n${paired} = 2;\ny`))).toBe(2);
    expect(pairsSchemaReadBy(layout('model/comparison-version.ts', `${paired} = 3;\n`))).toBe(3);
    expect(pairsSchemaReadBy(layout('model/comparison-version.ts', `${pairs} = 5;\n`))).toBe(5);
    expect(pairsSchemaReadBy(layout('formats/comparison-format.ts', `${pairs} = 6;\n`))).toBe(6);
    expect(pairsSchemaReadBy(mkdtempSync(join(tmpdir(), 'jsio-reader-')))).toBeUndefined();
    expect(pairsSchemaReadBy(ROOT)).toBe(PAIRS_COMPARISON_SCHEMA);
  });
});
