/**
 * A store shaped like a busy day on one machine: six commits of one day, sixteen
 * series in one wc chart, an A/A pair (commits 3 and 4: the same programs, only run-to-run noise
 * between them), a partial run on top (commit 5), and the implausible values a noisy run produces
 * (an async path cheaper per read than C, a steady throughput above the pipe's ceiling), and a
 * planted 30% step (node-stream on node22 from commit 2). The
 * machine is calibrated (noise.json): the A/A pair must read as within noise. Work is counted at
 * wc's headline point (64 KiB) for C and node-stream (node22's step is more work too); Bun's could
 * not be, with its reason.
 *
 * Every free-text field goes through `text()`, so the same store with markup in each of them is
 * the site's XSS fixture (hostileStore).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe as stats } from '../../harness/src/analysis/describe.js';
import { prng } from '../../harness/src/analysis/two-sample.js';
import type { Benchmark, Metric, Results } from '../../harness/src/formats/results-format.js';
import { publishRun } from '../../harness/src/store/publish-run.js';

export const DAY_MACHINE = 'bench-day-1a2b3c4d';
const DAY_COMMITS = 6;
/** The A/A pair: the same build measured twice. */
export const AA = [3, 4] as const;
/** The partial run (a narrowed dispatch) on top of the last complete one. */
export const PARTIAL = 5;
/** node-stream on node22 gets 30% slower per read from this commit on: a real change. */
export const STEP = 2;
export const daySha = (i: number) => `d${String(i).padStart(3, '0')}`.padEnd(40, 'a');

const BS = [4096, 16384, 65536];
const NODES = ['node20', 'node22', 'node24'];
/** Sixteen lines in one wc chart: what the palette must tell apart. */
const WC: { variant: string; runtime?: string; cost: number }[] = [
  { variant: 'c', cost: 1 },
  { variant: 'dd-null', cost: 0.6 },
  { variant: 'system-wc', cost: 1.3 },
  ...NODES.map((runtime, i) => ({ variant: 'node-stream', runtime, cost: 3 + i * 0.2 })),
  ...NODES.map((runtime, i) => ({ variant: 'node-readsync', runtime, cost: 1.8 + i * 0.1 })),
  // node-pipe on node20 is the implausible one: cheaper per read than C (a noisy fit).
  ...NODES.map((runtime, i) => ({ variant: 'node-pipe', runtime, cost: i === 0 ? 0.31 : 2.5 + i * 0.1 })),
  { variant: 'bun', cost: 1.4 },
  { variant: 'deno', cost: 2.1 },
  { variant: 'just-sync', cost: 1.2 },
  { variant: 'just-app', cost: 1.15 },
];
export const WC_SERIES = WC.length;

type Text = (field: string, value: string) => string;
const plain: Text = (_f, v) => v;

function sampled(values: number[], unit: string, direction: 'smaller' | 'bigger', source: string): Metric {
  const s = stats(values);
  return { unit, direction, value: s.median, samples: values, stats: s, deterministic: false, source };
}

/** Ten samples around `center`: 1% within a run, and the run's own offset (run-to-run noise). */
function samples(rand: () => number, center: number, shift: number): number[] {
  return Array.from({ length: 10 }, () => center * shift * (1 + 0.01 * (rand() - 0.5)));
}

function wcPoint(rand: () => number, v: (typeof WC)[number], bs: number, i: number, text: Text): Benchmark {
  const shift = 1 + 0.08 * (rand() - 0.5);
  const step = v.variant === 'node-stream' && v.runtime === 'node22' && i >= STEP ? 1.3 : 1;
  const costNs = v.cost * step * (400 + bs / 40);
  const bytes = 256 * 2 ** 20;
  const reads = bytes / bs;
  const wall = samples(rand, (reads * costNs) / 1e9 + 0.03, shift);
  const steady = v.variant === 'node-stream' && v.runtime === 'node24' ? 3.24 * (bs / 0.6 / (400 + bs / 40)) * 1e3 : 0;
  const params: Record<string, number | string> = { bs, ...(v.runtime ? { runtime: v.runtime } : {}) };
  const key = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
  return {
    id: `wc/${v.variant}/${key}`,
    experiment: 'wc',
    variant: v.variant,
    params,
    status: 'ok',
    derived: { count: reads },
    definition: `${v.variant}-def`,
    workload: `wc-${key}`,
    metrics: {
      wall_time: sampled(wall, text('unit', 's'), 'smaller', 'hyperfine'),
      throughput: sampled(
        wall.map((t) => bytes / t / 1e6),
        'MB/s',
        'bigger',
        'derived',
      ),
      read_cost: sampled(samples(rand, costNs, shift), 'ns', 'smaller', 'fit'),
      // Steady throughput: bytes per read over the cost; one series 3.24x above the pipe's ceiling.
      steady_throughput: sampled(samples(rand, steady || (bs / costNs) * 1e3, shift), 'MB/s', 'bigger', 'fit'),
      max_rss: { unit: 'B', direction: 'smaller', value: 1.5e6 * v.cost, deterministic: true, source: 'time' },
      reads: { unit: 'calls', direction: 'smaller', value: reads + 1, deterministic: true, source: 'program' },
    },
  };
}

/** wc's headline point as bench counts it: C and node-stream counted, Bun not countable. */
function withCounts(b: Benchmark, i: number, text: Text): Benchmark {
  if (b.params.bs !== 65536) return b;
  if (b.variant === 'bun')
    return { ...b, counts: { status: 'unavailable', reason: text('reason', 'bun has no deterministic settings') } };
  if (b.variant !== 'c' && b.variant !== 'node-stream') return b;
  const perRead = b.variant === 'c' ? 17.1 : 15_243 * (b.params.runtime === 'node22' && i >= STEP ? 1.3 : 1);
  const work = (value: number): Metric => ({
    unit: 'instructions',
    direction: 'smaller',
    value,
    deterministic: false,
    source: 'valgrind',
  });
  return {
    ...b,
    metrics: {
      ...b.metrics,
      instructions: work(Math.round(4e7 + perRead * 4096)),
      instructions_per_op: work(perRead),
    },
    counts: {
      status: 'ok',
      settings: text('settings', b.variant === 'c' ? 'the program as compiled' : 'V8 made predictable'),
      role: 'decides',
      spread: 0,
      tolerance: 0.005,
      repeats: 1,
      deterministic: true,
    },
  };
}

function otherPoints(rand: () => number, text: Text): Benchmark[] {
  const out: Benchmark[] = [];
  for (const mode of ['sync', 'async'])
    for (const n of [0, 10, 20]) {
      const s = samples(rand, 0.05 + n * (mode === 'sync' ? 0.0004 : 0.0009), 1 + 0.04 * (rand() - 0.5));
      out.push({
        id: `streams/core-transform/mode=${mode},n=${n},runtime=node22`,
        experiment: 'streams',
        variant: 'core-transform',
        params: { mode: text('param', mode), n, runtime: 'node22' },
        status: 'ok',
        derived: {},
        workload: `streams-${mode}-${n}`,
        metrics: { wall_time: sampled(s, 's', 'smaller', 'hyperfine') },
      });
    }
  for (const pool of [1, 4, 12]) {
    const p50 = samples(rand, 12 / Math.min(pool, 4), 1 + 0.04 * (rand() - 0.5));
    out.push({
      id: `threadpool/c-pool/cache=warm,pool=${pool},work=read`,
      experiment: 'threadpool',
      variant: 'c-pool',
      params: { cache: 'warm', pool, work: 'read' },
      status: 'ok',
      derived: {},
      workload: `tp-${pool}`,
      metrics: {
        latency_p50: sampled(p50, 'ms', 'smaller', 'program'),
        latency_p99: sampled(
          p50.map((x) => x * 2),
          'ms',
          'smaller',
          'program',
        ),
      },
    });
  }
  return out;
}

function dayRun(i: number, text: Text = plain): Results {
  // The A/A pair is the same build: one seed per commit still, so only the run-to-run noise differs.
  const rand = prng(7000 + i);
  const partial = i === PARTIAL;
  const benchmarks: Benchmark[] = [];
  for (const bs of partial ? [65536] : BS)
    for (const v of WC) benchmarks.push(withCounts(wcPoint(rand, v, bs, i, text), i, text));
  if (!partial) benchmarks.push(...otherPoints(rand, text));
  benchmarks.push({
    id: 'wc/just-static/bs=65536',
    experiment: 'wc',
    variant: 'just-static',
    params: { bs: 65536 },
    status: 'skipped',
    reason: text('reason', 'just(js) is not installed'),
    hint: text('hint', 'npm run install-just'),
    derived: {},
    metrics: {},
  });
  const date = new Date(Date.UTC(2026, 10, 24, 9 + i, 30 * (i % 2))).toISOString();
  const experiments: Results['experiments'] = {
    wc: {
      title: text('title', 'the cost of a read() system call'),
      question: text('question', 'What does a read() cost from JavaScript compared with C?'),
      parameters: { bs: { description: text('description', 'read block size'), unit: 'B' } },
      summary: { at: { bs: 65536 }, metrics: ['read_cost', 'throughput'], ratios: [{ metric: 'read_cost', to: 'c' }] },
      headline: { at: { bs: 65536 }, metrics: ['read_cost', 'steady_throughput'] },
    },
  };
  if (!partial) {
    experiments.streams = {
      title: text('title', 'the cost of a stream transform'),
      question: text('question', 'What does one stream transform cost in Node.js?'),
      parameters: {
        n: { description: text('description', 'transforms'), unit: 'transforms' },
        mode: { description: 'sync or async' },
      },
      headline: { at: { n: 20 }, metrics: ['wall_time'] },
    };
    experiments.threadpool = {
      title: text('title', 'does UV_THREADPOOL_SIZE change file I/O latency?'),
      question: text('question', 'How does per-file latency change with the pool size?'),
      parameters: {
        work: { description: 'read or parse' },
        cache: { description: 'cold or warm' },
        pool: { description: 'threads', unit: 'threads' },
      },
      headline: { at: { pool: 4 }, metrics: ['latency_p50', 'latency_p99'] },
    };
  }
  return {
    schema: 1,
    run: {
      id: `day-${i}`,
      profile: 'standard',
      partial,
      start: date,
      end: date,
      commit: {
        sha: daySha(i),
        ref: text('ref', 'main'),
        subject: text('subject', i === AA[1] ? 'Empty commit (A/A)' : `Day commit ${i} (#${40 + i})`),
        date,
        dirty: false,
      },
      machine: {
        id: DAY_MACHINE,
        hostname: text('hostname', 'bench-day'),
        cpu: text('cpu', 'Day CPU 7'),
        cores: 4,
        memoryBytes: 16 * 2 ** 30,
        kernel: text('kernel', 'Linux 6.1'),
        governor: text('governor', 'performance'),
        runner: text('runner', 'jsio-bench-day'),
      },
      toolchains: { node: text('toolchain', '22.23.3'), gcc: '12.2.0' },
    },
    experiments,
    benchmarks,
  };
}

/** Every A/A-pair benchmark and metric gets a calibrated threshold of 8% (run-to-run noise here). */
function noiseFile(): string {
  const thresholds: Record<string, number> = {};
  for (const b of dayRun(AA[0]).benchmarks)
    for (const [m, v] of Object.entries(b.metrics)) if (v.samples) thresholds[`${b.id} ${m}`] = 0.08;
  return `${JSON.stringify({ schema: 1, machine: DAY_MACHINE, created: '2026-11-24T08:00:00.000Z', rounds: 6, thresholds })}\n`;
}

export async function writeDayStore(dir: string, text: Text = plain): Promise<void> {
  for (let i = 0; i < DAY_COMMITS; i++) await publishRun(dir, dayRun(i, text));
  mkdirSync(join(dir, DAY_MACHINE), { recursive: true });
  writeFileSync(join(dir, DAY_MACHINE, 'noise.json'), noiseFile());
}

/** Markup a reader's browser must show as text, never run. */
export const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload="window.__pwned=2">',
  "'><script>window.__pwned=3</script>",
  '<a href="javascript:window.__pwned=4" onmouseover="window.__pwned=5">x</a>',
];

/**
 * The day store with markup in every free-text field. Published with placeholder tokens; the
 * returned function replaces the tokens in the JSON files under a directory. The store check
 * refuses markup where a field has a pattern (a unit), so the tokens are replaced in the built
 * site's data/ copy: data that reached the page without the check (pushed to the branch by hand)
 * must still be shown as text.
 */
export async function writeHostileStore(dir: string): Promise<(tree: string) => void> {
  const tokens = new Map<string, string>();
  const text: Text = (field, value) => {
    const token = `XSSTOKEN${tokens.size}X`;
    tokens.set(token, `${value} ${PAYLOADS[tokens.size % PAYLOADS.length]} ${field}`);
    return token;
  };
  await writeDayStore(dir, text);
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  return (tree) => {
    for (const file of walk(tree).filter((f) => f.endsWith('.json'))) {
      const before = readFileSync(file, 'utf8');
      const after = before.replace(/XSSTOKEN\d+X/g, (t) => JSON.stringify(tokens.get(t) ?? t).slice(1, -1));
      if (after !== before) writeFileSync(file, after);
    }
  };
}
