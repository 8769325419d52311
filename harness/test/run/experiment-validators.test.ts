// The streams and records manifests' checks reject a sink that drops a line and a reader that
// miscounts records or sums the wrong bytes; the read-only checksum check does not apply to writes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { deriveValues } from '../../src/plan/plan.js';
import { runChecks } from '../../src/run/validate.js';
import { ROOT } from '../helpers/cli.js';

const streams = loadExperiment(join(ROOT, 'programs', 'streams'));
const records = loadExperiment(join(ROOT, 'programs', 'records'));
const variant = (e: typeof streams, id: string) => {
  const v = e.manifest.variants.find((x) => x.id === id);
  if (!v) throw new Error(`no variant ${id}`);
  return v;
};

describe('experiment validators', () => {
  const lines = 48800;
  const bytes = 1345494;
  const sScope = { n: 10, mode: 'sync', input_lines: lines, input_bytes: bytes };

  it('streams: accepts an exact sink and rejects one that dropped a 30-byte line', () => {
    const v = variant(streams, 'core-transform');
    expect(runChecks(streams.manifest.validate, v, { lines, bytes }, sScope).ok).toBe(true);
    const dropped = runChecks(streams.manifest.validate, v, { lines: lines - 1, bytes: bytes - 30 }, sScope);
    expect(dropped.ok).toBe(false);
    expect(dropped.message).toBe(`lines = ${lines - 1}, expected ${lines}; bytes = ${bytes - 30}, expected ${bytes}`);
  });

  const params = { op: 'read', record: 16, cache: 'warm' };
  const derived = deriveValues(records.manifest, 'smoke', params);
  const rScope = { ...records.manifest.profiles.smoke.constants, ...params, ...derived, input_sum32: 123456789 };

  it('records: rejects a reader that miscounts records or sums other bytes', () => {
    const v = variant(records, 'sync');
    const good = { records: derived.records ?? NaN, bytes: derived.bytes ?? NaN, checksum: 123456789 };
    expect(runChecks(records.manifest.validate, v, good, rScope).ok).toBe(true);
    const miscounted = runChecks(records.manifest.validate, v, { ...good, records: good.records + 1 }, rScope);
    expect(miscounted.ok).toBe(false);
    expect(miscounted.message).toBe(`records = ${good.records + 1}, expected ${good.records}`);
    expect(runChecks(records.manifest.validate, v, { ...good, checksum: 1 }, rScope).message).toBe(
      'checksum = 1, expected 123456789',
    );
  });

  it('records: a writer reports no checksum, and none is asked of it', () => {
    const v = variant(records, 'c');
    const writeScope = { ...rScope, op: 'write' };
    const r = runChecks(
      records.manifest.validate,
      v,
      { records: derived.records ?? NaN, bytes: derived.bytes ?? NaN },
      writeScope,
    );
    expect(r.ok).toBe(true);
    // The checksum check only applies to reads: it is listed as skipped, with the reason.
    expect(r.checks.filter((c) => !c.skipped).map((c) => c.field)).toEqual(['records', 'bytes']);
    expect(r.checks.find((c) => c.field === 'checksum')?.skipped).toMatch(/^applies only at op=read/);
  });
});
