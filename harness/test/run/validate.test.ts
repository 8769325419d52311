// validate: a program's declared result line against what the harness sent.
import { describe, expect, it } from 'vitest';
import type { Variant } from '../../src/formats/manifest-format.js';
import { parseReport, runChecks } from '../../src/run/validate.js';

const v = (over: Partial<Variant> = {}) => ({ id: 'x', output: 'json-line' as const, skipChecks: {}, ...over });
const checks = [
  { field: 'bytes', equals: 'bytes' },
  { field: 'reads', atLeast: 'ceil(bytes / bs)' },
];

describe('parseReport', () => {
  it('takes the last line of stdout as the JSON result', () => {
    expect(parseReport(v(), 'warming up\n{"bytes":10,"reads":2}\n')).toEqual({
      ok: true,
      fields: { bytes: 10, reads: 2 },
    });
  });

  it.each([
    ['', 'the program printed no result line'],
    ['bytes: 10', 'garbled result line (not JSON): "bytes: 10"'],
    ['[1,2]', 'result line is not a JSON object: "[1,2]"'],
    ['{"bytes":"10"}', 'result field "bytes" is not a number: "10"'],
  ])('refuses %j', (stdout, reason) => {
    expect(parseReport(v(), stdout)).toEqual({ ok: false, reason });
  });

  it('reads a bare number into the declared field, and nothing for output "none"', () => {
    expect(parseReport(v({ output: 'number', numberField: 'bytes' }), '  4096\n')).toEqual({
      ok: true,
      fields: { bytes: 4096 },
    });
    expect(parseReport(v({ output: 'number', numberField: 'bytes' }), '4096 -')).toMatchObject({ ok: false });
    expect(parseReport(v({ output: 'none' }), 'anything')).toEqual({ ok: true, fields: {} });
  });
});

describe('runChecks', () => {
  const scope = { bytes: 1000, bs: 100 };

  it('passes a correct count', () => {
    expect(runChecks(checks, v(), { bytes: 1000, reads: 10 }, scope)).toMatchObject({ ok: true });
  });

  it('fails a miscount with seen and expected values', () => {
    const r = runChecks(checks, v(), { bytes: 999, reads: 9 }, scope);
    expect(r.ok).toBe(false);
    expect(r.message).toBe('bytes = 999, expected 1000; reads = 9, expected at least 10');
  });

  it('fails a missing field', () => {
    expect(runChecks(checks, v(), { bytes: 1000 }, scope).message).toBe('reads missing from the result line');
  });

  it('skips a check the variant declares inapplicable, with the reason', () => {
    const r = runChecks(checks, v({ skipChecks: { reads: 'libuv picks the size' } }), { bytes: 1000, reads: 1 }, scope);
    expect(r.ok).toBe(true);
    expect(r.checks[1]).toMatchObject({ skipped: 'libuv picks the size', seen: 1, expected: 10 });
  });

  it('skips fields a number-reporting variant cannot report', () => {
    const r = runChecks(checks, v({ output: 'number', numberField: 'bytes' }), { bytes: 1000 }, scope);
    expect(r.ok).toBe(true);
    expect(r.checks[1]?.skipped).toBe('x does not report reads');
  });
});
