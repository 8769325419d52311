// The Overview's counted work at an experiment's headline point, from a real smoke run of wc with
// every point counted (`npm run bench -- --profile smoke --experiments wc --param bs=65536
// --counts all`, per-name syscalls other than the summary's dropped): per read where the point is
// a fit, the summary's system calls per read, the headline metric with its interval, and what
// makes a count no figure to act on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caveat, countModel, coverageSentence, lineSentence, opNoun } from '../../src/counts/count-lines.js';
import { parseResults } from '../../src/formats/read-results.js';
import type { Benchmark } from '../../src/formats/results-format.js';
import { metricLabel } from '../../src/report/metric-labels.js';
import { FIXTURES } from '../helpers/cli.js';

const file = join(FIXTURES, 'results-counted-wc.json');
const run = parseResults(file, readFileSync(file, 'utf8'));
const info = run.experiments.wc as Parameters<typeof countModel>[0];
const labels = { read_cost: 'cost per read', instructions_per_op: 'instructions per read' };
const label = (m: string) => metricLabel(m, labels);
const refs = [
  { variant: 'c', label: 'C' },
  { variant: 'dd-null', label: 'pipe ceiling' },
];

describe('countModel', () => {
  const model = countModel(info, run.benchmarks, label, refs)!;
  const lines = model.groups[0]!.lines;
  const sentences = lines.map((l) => lineSentence(l, model.op, label));

  it('states per read: instructions, the summary’s system calls and the time with its interval', () => {
    expect(model.op).toBe('read');
    expect(model.groups.map((g) => g.at)).toEqual(['bs 64 KiB']);
    expect(sentences[0]).toBe(
      'C (c): 17.1 instructions and 1.01 read() per read; cost per read 14.0 µs (range of the runs: -6.41 µs … 44.0 µs)',
    );
    expect(sentences.find((s) => s.startsWith('node-stream (node20)'))).toBe(
      'node-stream (node20): 74,269 instructions, 1.13 read() and 0.09 epoll_pwait() per read; cost per read 162 µs (range of the runs: 67.2 µs … 259 µs)',
    );
  });

  it('puts the references first, in the Overview’s order, then the rest by label', () => {
    expect(lines.slice(0, 2).map((l) => l.label)).toEqual(['C (c)', 'pipe ceiling (dd-null)']);
    expect(lines.every((l) => l.reference === l.label.startsWith('C (') || l.label.startsWith('pipe'))).toBe(true);
  });

  it('says when a runtime could not be counted, and why', () => {
    expect(sentences.find((s) => s.startsWith('readsync (bun)'))).toMatch(
      /^readsync \(bun\): not counted \(bun has no deterministic settings to count with\); 288 read\(\) per run; cost per read /,
    );
  });

  it('lists each setting once with the lines counted with it', () => {
    expect(model.settings.map((s) => s.settings)).toEqual([
      'the program as compiled: no runtime settings needed',
      'V8 made predictable (--predictable --predictable-gc-schedule --random-seed=1 --hash-seed=1 --single-threaded)',
    ]);
    expect(model.settings[1]!.lines).toContain('readsync (node22)');
  });

  it('says what a count covers and what it leaves out', () => {
    const s = coverageSentence(model);
    expect(s).toContain('user-space instructions of the measured process');
    expect(s).toContain('kernel work is not in the count, the system calls (traced with strace) stand for it');
    expect(s).toContain('Instructions per read come from two input sizes, start-up cancelled.');
    expect(s).toContain('System calls per read are a run’s calls over its reads, start-up included.');
  });

  it('is nothing where no headline point was counted', () => {
    const uncounted = run.benchmarks.map(({ counts: _c, ...b }) => b as Benchmark);
    expect(countModel(info, uncounted, label)).toBeUndefined();
    expect(countModel({ ...info, headline: undefined }, run.benchmarks, label)).toBeUndefined();
  });
});

describe('a count that is no figure to act on', () => {
  const ok = {
    status: 'ok' as const,
    settings: 's',
    role: 'decides' as const,
    spread: 0,
    tolerance: 0.005,
    repeats: 1,
    deterministic: true,
  };
  it('says evidence only, with why, and not deterministic, with its spread against the tolerance', () => {
    expect(caveat(ok)).toBe('');
    expect(caveat({ ...ok, role: 'evidence', because: 'a cold-cache point' })).toBe(
      ' (evidence only: a cold-cache point)',
    );
    expect(caveat({ ...ok, deterministic: false, spread: 0.012 })).toBe(
      ' (not deterministic here: its repeated counts differed by 1.20% (tolerance 0.5%))',
    );
  });

  it('a count per run without operations is said per run, system calls whole', () => {
    const b: Benchmark = {
      ...run.benchmarks[0]!,
      id: 'scan/c/files=100',
      experiment: 'scan',
      params: { files: 100 },
      metrics: {
        scan_seconds: { ...run.benchmarks[0]!.metrics.wall_time!, unit: 's' },
        instructions: {
          unit: 'instructions',
          direction: 'smaller',
          value: 1234567,
          deterministic: false,
          source: 'valgrind',
        },
        'syscalls.total': { unit: 'calls', direction: 'smaller', value: 412, deterministic: true, source: 'strace' },
      },
      counts: { ...ok, role: 'evidence', because: 'a cold-cache point' },
    };
    const m = countModel({ headline: { at: { files: 100 }, metrics: ['scan_seconds'] } }, [b], (x) => x)!;
    expect(m.op).toBe('operation');
    expect(lineSentence(m.groups[0]!.lines[0]!, m.op, (x) => x)).toMatch(
      /^c: 1,234,567 instructions and 412 system calls per run; scan_seconds \S+ ms \(range of the runs: .+\) \(evidence only: a cold-cache point\)$/,
    );
  });
});

describe('opNoun', () => {
  it('takes the noun after "per", else "operation"', () => {
    expect(opNoun('instructions per read')).toBe('read');
    expect(opNoun('instructions per operation')).toBe('operation');
    expect(opNoun('work')).toBe('operation');
  });
});

describe('a count per operation that is no cost', () => {
  const c = run.benchmarks.find((b) => b.variant === 'c')!;
  const withCounts = (b: Benchmark, counts: Benchmark['counts'], perOp?: number): Benchmark => {
    const { instructions_per_op: _p, ...metrics } = b.metrics;
    return {
      ...b,
      counts,
      metrics:
        perOp === undefined
          ? metrics
          : { ...metrics, instructions_per_op: { ...b.metrics.instructions_per_op!, value: perOp } },
    };
  };
  const sentenceOf = (b: Benchmark) => {
    const m = countModel(info, [b], label)!;
    return lineSentence(m.groups[0]!.lines[0]!, m.op, label);
  };
  const ok = c.counts?.status === 'ok' ? c.counts : undefined;

  it('is said as its two totals, not as a number of instructions per read', () => {
    const s = sentenceOf(
      withCounts(c, {
        ...ok!,
        unmeasurable: {
          why: 'negative',
          small: { ops: 256, instructions: 314_800_000 },
          large: { ops: 1024, instructions: 151_896_500 },
          spread: 7000,
        },
      }),
    );
    const work = s.split(';')[0];
    expect(work).toBe(
      'c: instructions per read not measurable at this span: 314,800,000 instructions at 256 reads and 151,896,500 instructions at 1,024 reads (the larger size counted no more)',
    );
  });

  it('within the spread, says the spread', () => {
    const s = sentenceOf(
      withCounts(c, {
        ...ok!,
        unmeasurable: {
          why: 'within-spread',
          small: { ops: 256, instructions: 100_150_000 },
          large: { ops: 1024, instructions: 100_300_000 },
          spread: 300_000,
        },
      }),
    );
    expect(s).toContain('not measurable at this span');
    expect(s).toContain('(a difference within the repeats’ spread of 300,000)');
  });

  it('an older run’s negative count per read is not shown as a cost', () => {
    const s = sentenceOf(withCounts(c, ok, -212_126));
    expect(s).toContain('instructions per read not measurable at this span (its count per read was negative)');
    expect(s).not.toContain('212,126');
  });

  it('a measurable count is still said as one', () => {
    expect(sentenceOf(c)).toMatch(/^c: 17\.1 instructions and 1\.01 read\(\) per read/);
  });
});
