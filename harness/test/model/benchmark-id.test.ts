// A benchmark id is encoded and decoded in one place: parameters sorted by name, and the decoder
// gives back what the encoder was given (numbers as text).
import { describe, expect, it } from 'vitest';
import { BenchmarkId } from '../../src/formats/parts/fields.js';
import { benchmarkId, paramKey, parseBenchmarkId } from '../../src/model/benchmark-id.js';

describe('benchmark ids', () => {
  it('encodes parameters sorted by name, matching the stored pattern', () => {
    const id = benchmarkId('wc', 'node-stream', { runtime: 'node20', bs: 4096 });
    expect(id).toBe('wc/node-stream/bs=4096,runtime=node20');
    expect(BenchmarkId.safeParse(id).success).toBe(true);
    expect(paramKey({})).toBe('');
  });

  it('decodes what it encodes', () => {
    expect(parseBenchmarkId(benchmarkId('wc', 'c', { bs: 4096, runtime: 'node@22.1.0' }))).toEqual({
      experiment: 'wc',
      variant: 'c',
      params: { bs: '4096', runtime: 'node@22.1.0' },
    });
    expect(parseBenchmarkId('wc/c/')).toEqual({ experiment: 'wc', variant: 'c', params: {} });
  });
});
