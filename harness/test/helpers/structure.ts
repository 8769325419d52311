/**
 * The structure of a run's outputs with every measured number taken out: which benchmarks exist,
 * their statuses, metrics (names, units, directions, sources), validation checks, derived values,
 * analyses, the summary's lines and the github-action-benchmark series. A refactoring of the
 * harness must leave it unchanged; a deliberate change of behaviour updates the fixture.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** Syscall names differ between runs of the same program (signals, restarts): only the total is structural. */
const structuralMetric = (name: string) => !name.startsWith('syscalls.') || name === 'syscalls.total';

/** Numbers, durations and sizes become '#', so only the shape of a line remains. */
function maskNumbers(line: string): string {
  return (
    line
      .replace(/\b[0-9a-f]{7,40}\b/g, '<sha>')
      .replace(/\d{8}T\d{6}Z-\S+/g, '<run>')
      .replace(/[−+-]?\d[\d,]*(\.\d+)?(e[+-]?\d+)?/g, '#')
      // The unit a value is printed in depends on its size (950 µs, 1.2 ms).
      .replace(/# (µs|ms|s)\b/g, '# <time>')
      .replace(/# (B|KiB|MiB|GiB)\b/g, '# <bytes>')
  );
}

/**
 * A fit's metrics (cost per operation, start-up, steady throughput) exist only when the larger
 * input was measurably slower; at smoke sizes on a busy machine that is chance, so the structure
 * records "fit reported or explained" and leaves the fit's metrics, series and cells out.
 */
const FIT_METRICS = ['read_cost', 'startup', 'steady_throughput'];
const FIT_HEADERS = /^(cost per|steady throughput|start-up)/;
const fitAccounted = (b: Json) =>
  Object.values((b.metrics as Record<string, Json>) ?? {}).some((m) => m.source === 'fit') ||
  /no cost per operation/.test(String(b.reason ?? ''));

function resultsStructure(results: Json): Json {
  const run = results.run as Json;
  const benchmarks = (results.benchmarks as Json[]).map((b) => ({
    id: b.id,
    status: b.status,
    ...(fitAccounted(b) ? { fit: true } : {}),
    ...(b.status === 'skipped' ? { reason: b.reason } : {}),
    derived: Object.keys((b.derived as Json) ?? {}).sort(),
    validation: ((b.validation as Json | undefined)?.checks as Json[] | undefined)?.map((c) => ({
      field: c.field,
      op: c.op,
      expected: c.expected,
      ...(c.skipped ? { skipped: c.skipped } : {}),
    })),
    metrics: Object.fromEntries(
      Object.entries((b.metrics as Record<string, Json>) ?? {})
        .filter(([name, m]) => structuralMetric(name) && m.source !== 'fit')
        .sort(([a], [c]) => a.localeCompare(c))
        .map(([name, m]) => [
          name,
          {
            unit: m.unit,
            direction: m.direction,
            deterministic: m.deterministic,
            source: m.source,
            samples: Array.isArray(m.samples) && m.samples.length > 0,
          },
        ]),
    ),
    build: b.build ? { kind: (b.build as Json).kind, flags: (b.build as Json).flags } : undefined,
  }));
  return {
    schema: results.schema,
    run: Object.keys(run).sort(),
    profile: run.profile,
    experiments: Object.fromEntries(
      Object.entries(results.experiments as Record<string, Json>).map(([k, v]) => [k, Object.keys(v).sort()]),
    ),
    benchmarks: benchmarks.sort((a, c) => String(a.id).localeCompare(String(c.id))),
    analyses: ((results.analyses as Json[] | undefined) ?? []).map((a) => ({
      experiment: a.experiment,
      variant: a.variant,
      params: a.params,
      x: a.x,
      metric: a.metric,
      unit: a.unit,
      xs: a.xs,
    })),
  };
}

/** Table cells under a fit metric's column (or its ratio column) become '#', present or not. */
function maskFitColumns(lines: string[]): string[] {
  let fitColumns: number[] = [];
  return lines.map((l) => {
    if (!l.startsWith('|')) {
      fitColumns = [];
      return l;
    }
    const cells = l.split('|');
    if (!fitColumns.length && cells.some((c) => FIT_HEADERS.test(c.trim()))) {
      fitColumns = cells.flatMap((c, i) => (FIT_HEADERS.test(c.trim()) ? [i] : []));
      return l;
    }
    if (/^\|[\s:-]+\|/.test(l)) return l;
    return cells.map((c, i) => (fitColumns.includes(i) ? ' # ' : c)).join('|');
  });
}

function summaryStructure(md: string): string[] {
  return maskFitColumns(
    md
      .split('\n')
      .filter((l) => !/^Toolchains:/.test(l) && !(l.startsWith('|') && /syscalls?\b/.test(l)))
      .map(maskNumbers)
      // Which commit ran, and its subject, are not part of the structure.
      .map((l) => l.replace(/commit `<sha>`.*$/, 'commit <commit>'))
      // The CPU model differs from one machine to the next (AMD EPYC, Intel Xeon): not structure.
      .map((l) => l.replace(/on machine `vm-<sha>` \([^,]*,/, 'on machine `vm-<sha>` (<cpu>,')),
  );
}

function gabStructure(dir: string): Record<string, { name: string; unit: string }[]> {
  const read = (f: string) =>
    (JSON.parse(readFileSync(join(dir, 'gab', f), 'utf8')) as { name: string; unit: string }[])
      .filter((e) => !FIT_METRICS.some((m) => e.name.endsWith(` ${m}`)))
      .map((e) => ({
        name: e.name,
        unit: e.unit,
      }));
  return { smaller: read('customSmallerIsBetter.json'), bigger: read('customBiggerIsBetter.json') };
}

/**
 * The guard runs its Node variants under the Node running the tests (runtime=node20 under Node
 * 20, node22 under 22): like the CPU model, which Node that is is not structure.
 */
export function maskCurrentNode<T>(structure: T): T {
  const current = new RegExp(`\\bnode${process.versions.node.split('.')[0]}\\b`, 'g');
  return JSON.parse(JSON.stringify(structure).replace(current, 'node<current>')) as T;
}

export function runStructure(outDir: string): Json {
  return maskCurrentNode({
    results: resultsStructure(JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as Json),
    summary: summaryStructure(readFileSync(join(outDir, 'summary.md'), 'utf8')),
    gab: gabStructure(outDir),
  });
}
