// A results.json is data a runner or a pull request could
// shape. Each attack is first reproduced on what the schema used to accept (a plain zod record,
// an unchecked string), then shown refused by `publish-run` with exit 2 and a message naming the field.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseResults, RESULTS_MAX_BYTES } from '../../src/formats/read-results.js';
import { Metric, Results } from '../../src/formats/results-format.js';
import { publishRun } from '../../src/store/publish-run.js';
import { runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'jsio-hostile-'));
const XSS = '<img src=x onerror=alert(1)>';

function publishFile(results: unknown, text?: string) {
  const d = tmp();
  const file = join(d, 'results.json');
  writeFileSync(file, text ?? JSON.stringify(results));
  const store = join(d, 'store');
  const r = runCli(['publish-run', file, '--store', store]);
  let stored: string[] = [];
  try {
    stored = readdirSync(store);
  } catch {}
  return { ...r, stored };
}

/** A valid run with one field changed by `edit`. */
function hostile(edit: (r: Record<string, any>) => void): unknown {
  const r = JSON.parse(JSON.stringify(wcResults())) as Record<string, any>;
  edit(r);
  return r;
}

describe('identifier-like fields have strict patterns (no markup reaches the site from the schema)', () => {
  it('reproduces: a unit holding markup was accepted by the old Metric schema', () => {
    const old = z.object({ unit: z.string().min(1) }).passthrough();
    expect(old.safeParse({ unit: XSS }).success).toBe(true);
  });

  const cases: [string, (r: Record<string, any>) => void, RegExp][] = [
    ['metric unit', (r) => (r.benchmarks[0].metrics.wall_time.unit = XSS), /benchmarks\.0\.metrics\.wall_time\.unit/],
    ['metric source', (r) => (r.benchmarks[0].metrics.wall_time.source = XSS), /metrics\.wall_time\.source/],
    ['metric name', (r) => (r.benchmarks[0].metrics[XSS] = r.benchmarks[0].metrics.wall_time), /Invalid key/],
    ['experiment', (r) => (r.benchmarks[0].experiment = XSS), /benchmarks\.0\.experiment/],
    ['variant', (r) => (r.benchmarks[0].variant = `"><script>`), /benchmarks\.0\.variant/],
    ['benchmark id', (r) => (r.benchmarks[0].id = `wc/c/${XSS}`), /benchmarks\.0\.id/],
    ['parameter value', (r) => (r.benchmarks[0].params.bs = XSS), /benchmarks\.0\.params\.bs/],
    ['parameter name', (r) => (r.benchmarks[0].params[XSS] = 1), /benchmarks\.0\.params/],
    [
      'check field',
      (r) =>
        (r.benchmarks[0].validation = {
          ok: true,
          checks: [{ field: XSS, op: 'equals', expected: 1, seen: 1, ok: true }],
        }),
      /checks\.0\.field/,
    ],
    ['derived name', (r) => (r.benchmarks[0].derived = { [XSS]: 1 }), /derived/],
    [
      'build kind',
      (r) => (r.benchmarks[0].build = { kind: XSS, compiler: 'gcc', flags: [], artifact: 'c', bytes: 1, seconds: 1 }),
      /build\.kind/,
    ],
    ['run id', (r) => (r.run.id = XSS), /run\.id/],
    ['profile', (r) => (r.run.profile = XSS), /run\.profile/],
    ['commit sha', (r) => (r.run.commit.sha = XSS), /run\.commit\.sha/],
    ['machine id', (r) => (r.run.machine.id = XSS), /run\.machine\.id/],
    ['toolchain name', (r) => (r.run.toolchains[XSS] = '1'), /run\.toolchains/],
    ['experiment key', (r) => (r.experiments[XSS] = { title: 't', question: 'q' }), /experiments/],
  ];
  it.each(cases)('a %s holding markup is refused, the field named', (_n, edit, field) => {
    expect(() => parseResults('results.json', JSON.stringify(hostile(edit)))).toThrow(field);
  });

  it('through publish-run: exit 2, one message naming the field, nothing stored', () => {
    const r = publishFile(hostile(cases[0]![1]));
    expect([r.status, r.stored]).toEqual([2, []]);
    expect(r.stderr).toMatch(
      /benchmarks\.0\.metrics\.wall_time\.unit: a unit .*\(got "<img src=x onerror=alert\(1\)>"\)/,
    );
  });

  it('every unit the manifests and normalize write still passes', () => {
    for (const unit of [
      's',
      'ns',
      'ms',
      'B',
      'MB/s',
      'lines/s',
      'files/s',
      'calls',
      'µs per transform',
      'ns per line per transform',
      '%',
    ])
      expect(Metric.shape.unit.safeParse(unit).success, unit).toBe(true);
  });
});

describe('what the harness writes still passes', () => {
  it('a runtime release as a parameter value (bun@1.3.11), in params and in the id', () => {
    const r = hostile((x) => {
      x.benchmarks[0].params.runtime = 'bun@1.3.11';
      x.benchmarks[0].id = `${x.benchmarks[0].id},runtime=bun@1.3.11`;
    });
    expect(Results.safeParse(r).success).toBe(true);
  });
});

describe('map keys that are Object.prototype properties are refused, not crashes', () => {
  const PROTO = ['valueOf', 'constructor', 'toString', 'hasOwnProperty', '__proto__'];

  it('reproduces: publish crashed on a metric named valueOf (an inherited function read as a catalog entry)', async () => {
    // The schema used to let these names through (the segment pattern accepts them); publishRun
    // itself is what it was: given such a run it fails with a TypeError, an internal error.
    const r = wcResults();
    Object.defineProperty(r.benchmarks[0]!.metrics, 'valueOf', {
      value: r.benchmarks[0]!.metrics.wall_time,
      enumerable: true,
    });
    await expect(publishRun(join(tmp(), 'store'), r)).rejects.toThrow(TypeError);
  });

  it('reproduces: a plain zod record dropped a __proto__ key without a word', () => {
    const plain = z.record(z.string(), z.number());
    expect(plain.parse(JSON.parse('{"__proto__": 1, "a": 2}'))).toEqual({ a: 2 });
  });

  it.each(PROTO)('a metric named %s is refused by the schema: exit 2 naming it', (name) => {
    const text = JSON.stringify(wcResults()).replace(
      '"wall_time":{',
      `"${name}":{"unit":"s","direction":"smaller","value":1,"deterministic":false,"source":"hyperfine"},"wall_time":{`,
    );
    const r = publishFile(undefined, text);
    expect([r.status, r.stored]).toEqual([2, []]);
    expect(r.stderr).toContain(`metrics.${name}`);
    expect(r.stderr).not.toMatch(/internal error|TypeError/);
  });

  it.each(PROTO.filter((n) => /^[a-z_]+$/.test(n)))('a parameter named %s is refused too', (name) => {
    const text = JSON.stringify(wcResults()).replace('"params":{', `"params":{"${name}":1,`);
    expect(() => parseResults('results.json', text)).toThrow(`params.${name}`);
  });

  it.each(PROTO)('a derived value, a toolchain and an experiment named %s are refused', (name) => {
    const maps = [
      (r: Record<string, any>) => r.benchmarks[0].derived,
      (r: Record<string, any>) => r.run.toolchains,
      (r: Record<string, any>) => r.experiments,
    ];
    const values = [1, '1', { title: 't', question: 'q' }];
    for (const [i, map] of maps.entries()) {
      const r = JSON.parse(JSON.stringify(wcResults())) as Record<string, any>;
      Object.defineProperty(map(r), 'plain', { value: values[i], enumerable: true, configurable: true });
      expect(Results.safeParse(r).success, `a plain key in map ${i}`).toBe(true);
      // An own key, as JSON.parse makes it (an assignment would set the prototype instead).
      Object.defineProperty(map(r), name, { value: values[i], enumerable: true });
      expect(Results.safeParse(r).success, `${name} in map ${i}`).toBe(false);
    }
  });
});

describe('size limits', () => {
  it('reproduces: an uncapped commit subject of 2 MB passed the old schema', () => {
    expect(z.object({ subject: z.string() }).safeParse({ subject: 'x'.repeat(2 ** 21) }).success).toBe(true);
  });

  it('a commit subject (or any free text) over its cap is refused, the value shown cut short', () => {
    for (const edit of [
      (r: Record<string, any>) => (r.run.commit.subject = 'x'.repeat(2 ** 21)),
      (r: Record<string, any>) => (r.run.machine.cpu = 'x'.repeat(10_000)),
      (r: Record<string, any>) => (r.benchmarks[0].reason = 'x'.repeat(10_000)),
      (r: Record<string, any>) => (r.experiments.wc.question = 'x'.repeat(10_000)),
    ]) {
      const r = publishFile(hostile(edit));
      expect([r.status, r.stored]).toEqual([2, []]);
      expect(r.stderr).toMatch(/at most \d+ characters/);
      expect(r.stderr.length).toBeLessThan(2000);
    }
  });

  it('publish-run and pages refuse a results.json over the size limit with one line, before reading it', () => {
    const big = JSON.stringify(wcResults()).replace('"subject":"', `"subject":"${' '.repeat(RESULTS_MAX_BYTES)}`);
    const pub = publishFile(undefined, big);
    expect([pub.status, pub.stored]).toEqual([2, []]);
    const line = pub.stderr.split('\n').find((l) => l.includes('limit'))!;
    expect(line).toMatch(/results\.json is \d+ bytes, over the 33554432-byte limit: refusing it/);

    const d = tmp();
    writeFileSync(join(d, 'results.json'), big);
    const pages = runCli(['pages', join(d, 'results.json'), '--dir', d]);
    expect(pages.status).toBe(2);
    expect(pages.stderr).toMatch(/over the 33554432-byte limit/);
    expect(readdirSync(d)).toEqual(['results.json']);
  });
});
