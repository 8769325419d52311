// Runner "self": a program's line splits into declared sample arrays and ordinary scalar fields;
// a malformed sample field fails with a reason naming it.
import { describe, expect, it } from 'vitest';
import { splitSamples } from '../../src/run/validate.js';

describe('splitSamples', () => {
  it('takes the declared arrays out and leaves the scalars as a JSON line', () => {
    const r = splitSamples('warming up\n{"files":3,"latency":[1.5,2,3.25],"bytes":9}\n', ['latency']);
    expect(r).toEqual({ ok: true, scalarsLine: '{"files":3,"bytes":9}', samples: { latency: [1.5, 2, 3.25] } });
  });

  it('names a missing, empty or non-numeric sample field', () => {
    expect(splitSamples('{"files":3}', ['latency'])).toEqual({
      ok: false,
      reason: 'result field "latency" must be a non-empty array of numbers',
    });
    expect(splitSamples('{"latency":[]}', ['latency'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"latency"'),
    });
    expect(splitSamples('{"latency":[1,"x"]}', ['latency'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not a finite number'),
    });
    expect(splitSamples('garbage', ['latency'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not JSON'),
    });
  });
});
