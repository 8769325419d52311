// pairs.json comes from pull-request code beside comparison.json: the PR-comment step validates it
// against formats/pair-record-format.ts before judging a verdict again from it, and refuses a
// malformed one in one line naming the file and the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAIR_RECORD_SCHEMA, PairRecordDocument } from '../../src/formats/pair-record-format.js';
import { commentFromArtifact } from '../../src/workflow/artifact.js';
import { pairRecord, recordedPoint } from '../helpers/pair-record.js';
import { pairsComparison } from '../helpers/pairs.js';

/** An artifact folder with a valid comparison and `record` as its pairs.json. */
function artifact(record: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-pair-record-'));
  writeFileSync(join(dir, 'comparison.json'), JSON.stringify(pairsComparison()));
  writeFileSync(join(dir, 'pr-number'), '42');
  writeFileSync(join(dir, 'pairs.json'), JSON.stringify(record));
  return dir;
}

const good = () => pairRecord([recordedPoint('wc/c/bs=4096', 1)]);

describe('pairs.json (the pair record)', () => {
  it('is written at the schema its reader knows, and a good one passes it', () => {
    expect(good().schema).toBe(PAIR_RECORD_SCHEMA);
    expect(PairRecordDocument.safeParse(good()).success).toBe(true);
    expect(() => commentFromArtifact(artifact(good()), '42')).not.toThrow();
  });

  it.each([
    [
      'a pair in an order that is neither AB nor BA',
      (r: ReturnType<typeof good>) => {
        (r.points[0]!.pairs[0] as { order: string }).order = 'XY';
      },
      /pairs\.json is invalid:\n {2}points\.0\.pairs\.0\.order/,
    ],
    [
      'a point without its lead metric',
      (r: ReturnType<typeof good>) => {
        delete (r.points[0] as { lead?: unknown }).lead;
      },
      /pairs\.json is invalid:\n {2}points\.0\.lead/,
    ],
    [
      'a field the schema does not know',
      (r: ReturnType<typeof good>) => {
        (r as Record<string, unknown>).extra = 1;
      },
      /pairs\.json is invalid:[\s\S]*extra/,
    ],
  ])('refuses %s, naming the file and the field', (_what, spoil, message) => {
    const record = good();
    spoil(record);
    expect(() => commentFromArtifact(artifact(record), '42')).toThrow(message);
  });

  it('refuses another version, naming the file', () => {
    expect(() => commentFromArtifact(artifact({ ...good(), schema: 2 }), '42')).toThrow(
      /pairs\.json is invalid:\n {2}schema/,
    );
  });
});
