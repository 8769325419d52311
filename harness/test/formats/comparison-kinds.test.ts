// comparison.json is two documents, told apart by `kind` (by the schema number in files from before
// kinds): each reader takes its own at every schema it knows, and refuses another document, an
// unknown kind or a newer schema in one line naming the file and the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prOutcomeCmd } from '../../src/cli/commands/pr-outcome.js';
import { compareRuns } from '../../src/compare/quick-look.js';
import { COMPARISON_SCHEMA, comparisonKind, PAIRS_COMPARISON_SCHEMA } from '../../src/formats/comparison-format.js';
import type { PairsComparison } from '../../src/formats/pairs-format.js';
import { Comparison } from '../../src/formats/quick-look-format.js';
import { forSchema2, forSchema3 } from '../../src/pairs/comment/down-level.js';
import { commentFromArtifact } from '../../src/workflow/artifact.js';
import { pairsComparison } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

function artifact(comparison: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-kinds-'));
  writeFileSync(join(dir, 'comparison.json'), JSON.stringify(comparison));
  writeFileSync(join(dir, 'pr-number'), '42');
  return dir;
}

async function outcome(comparison: unknown): Promise<{ status: number; out: string }> {
  let out = '';
  const io = { stdout: (s: string) => void (out += s), stderr: () => {} };
  const file = join(artifact(comparison), 'comparison.json');
  const status = await prOutcomeCmd(['--comparison', file, '--fail-on', 'none'], io);
  return { status, out };
}

/** The paired diff as `pairs` writes it now. */
const pairs = (): PairsComparison => ({ ...pairsComparison(), schema: PAIRS_COMPARISON_SCHEMA, kind: 'pairs' });
const quickLook = () => compareRuns([wcResults('a'.repeat(40))], [wcResults('b'.repeat(40))]);
/** A refusal: one line, no field list. */
const oneLine = (pattern: string) => new RegExp(`^[^\\n]*${pattern}[^\\n]*$`);

describe('which document a comparison.json is', () => {
  it('is its kind, or in a file from before kinds its schema number', () => {
    expect(comparisonKind('f', { schema: 4, kind: 'pairs' })).toBe('pairs');
    expect(comparisonKind('f', { schema: 4, kind: 'quick-look' })).toBe('quick-look');
    expect(comparisonKind('f', { schema: 1 })).toBe('quick-look');
    expect(comparisonKind('f', { schema: 2 })).toBe('pairs');
    expect(comparisonKind('f', { schema: 3 })).toBe('pairs');
    // Nothing says: the schema's own check names what is wrong.
    for (const raw of [null, [], {}, { schema: '3' }, { schema: 0 }]) expect(comparisonKind('f', raw)).toBeUndefined();
  });

  it('refuses a kind it does not know in one line naming the file, the field and the kinds it knows', () => {
    expect(() => comparisonKind('out/comparison.json', { schema: 5, kind: 'bisect' })).toThrow(
      /^out\/comparison\.json: field "kind" is "bisect", a comparison this harness does not know \(it knows "quick-look" and "pairs"\): refusing it$/,
    );
    expect(() => comparisonKind('f', { schema: 4, kind: 7 })).toThrow(/^f: field "kind" is 7, /);
    expect(() => comparisonKind('f', { schema: 4, kind: null })).toThrow(/^f: field "kind" is null, /);
  });

  it('refuses a schema from 4 on that names no kind', () => {
    expect(() => comparisonKind('f', { schema: 4 })).toThrow(
      /^f has schema 4 but no field "kind" \(from schema 4 a comparison\.json names its kind: "quick-look" and "pairs"\): refusing it$/,
    );
  });
});

describe("the paired diff's readers (the PR comment and the merge check)", () => {
  const documents: [string, unknown][] = [
    ['schema 2 (no kind)', forSchema2(pairs())],
    ['schema 3 (no kind)', forSchema3(pairs())],
    [`schema ${PAIRS_COMPARISON_SCHEMA} (kind "pairs")`, pairs()],
  ];
  it.each(documents)('read %s', async (_, doc) => {
    expect(commentFromArtifact(artifact(doc), '42').body).toContain('## Performance:');
    expect(await outcome(doc)).toEqual({ status: 0, out: 'fail=false\n' });
  });

  it('refuse another document, an unknown kind, a newer schema and a kindless new one, each in one line', async () => {
    const refusals: [unknown, string][] = [
      [
        quickLook(),
        'is the quick look `npm run compare` writes between stored runs \\(field "kind" is "quick-look"\\)',
      ],
      [{ ...pairs(), kind: 'pair' }, 'field "kind" is "pair", a comparison this harness does not know'],
      [{ ...pairs(), schema: PAIRS_COMPARISON_SCHEMA + 1 }, `has schema ${PAIRS_COMPARISON_SCHEMA + 1}, newer than`],
      [
        { ...forSchema3(pairs()), schema: PAIRS_COMPARISON_SCHEMA },
        `has schema ${PAIRS_COMPARISON_SCHEMA} but no field "kind"`,
      ],
    ];
    for (const [doc, said] of refusals) {
      expect(() => commentFromArtifact(artifact(doc), '42')).toThrow(oneLine(`comparison\\.json:? ${said}`));
      await expect(outcome(doc)).rejects.toThrow(oneLine(said));
    }
  });
});

describe("the quick look's schema", () => {
  it(`reads the quick look as written before kinds (schema 1) and as written now (schema ${COMPARISON_SCHEMA}, kind "quick-look")`, () => {
    const now = quickLook();
    expect(now).toMatchObject({ schema: COMPARISON_SCHEMA, kind: 'quick-look' });
    expect(Comparison.parse(now)).toEqual(now);
    const { kind: _kind, ...before } = { ...now, schema: 1 };
    expect(Comparison.parse(before)).toEqual(before);
    expect(Comparison.safeParse({ ...now, kind: 'pairs' }).success).toBe(false);
  });
});
