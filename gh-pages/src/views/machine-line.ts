/**
 * The machine a run was measured on, in words (never "SMT notsupported" or "CPUs 1"), and the
 * cold-read latency the cold-cache answers depend on. Pure: unit tested.
 */

import type { ColdRead } from '../../../harness/src/formats/results-format.js';
import { formatParam, formatValue } from '../../../harness/src/lib/format.js';

export interface MachineFacts {
  cpu: string;
  cores: number;
  memoryBytes: number;
  kernel: string;
  governor: string;
}

export interface RunConditions {
  turbo: string;
  smt: string;
  measuredCpus: string;
  harnessCpus?: string;
  rssLayout?: 'fixed' | 'random';
  coldRead?: ColdRead;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const SMT: Record<string, string> = {
  active: 'SMT on',
  on: 'SMT on',
  off: 'SMT off',
  forceoff: 'SMT off',
  notsupported: 'no SMT',
};

/** "CPU 1", "CPUs 1-3", "CPUs 0,2". */
function cpus(set: string): string {
  return /^\d+$/.test(set) ? `CPU ${set}` : `CPUs ${set}`;
}

export function machineLine(m: MachineFacts, c?: RunConditions): string {
  const parts = [
    m.cpu,
    plural(m.cores, 'core'),
    `${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB memory`,
    `kernel ${m.kernel}`,
    m.governor === 'unavailable' ? 'frequency governor not reported' : `frequency governor ${m.governor}`,
  ];
  if (c) {
    parts.push(
      c.turbo === 'unavailable' ? 'turbo boost not reported' : `turbo boost ${c.turbo}`,
      SMT[c.smt] ?? 'SMT not reported',
      c.measuredCpus === 'all'
        ? 'programs not pinned to CPUs'
        : `programs pinned to ${cpus(c.measuredCpus)}${c.harnessCpus && c.harnessCpus !== 'all' ? ` (the harness on ${cpus(c.harnessCpus)})` : ''}`,
    );
    // Runs from before it was recorded say nothing rather than guess.
    if (c.rssLayout)
      parts.push(
        c.rssLayout === 'fixed'
          ? 'max RSS of hyperfine-timed programs read with ASLR off'
          : 'max RSS read with ASLR on (it moves a few %)',
      );
  }
  return parts.join(', ');
}

/**
 * Beside a cold-cache answer: what a cold read costs on the machine that gave it. Whether an
 * asynchronous scan beats a blocking one from a cold cache depends on the disk's latency as much
 * as on the runtime.
 */
export function coldReadNote(c: RunConditions | undefined): string {
  const r = c?.coldRead;
  if (!r)
    return 'Cold cache: this run did not record the machine’s cold-read latency, and answers from a cold cache depend on it.';
  const us = (v: number) => formatValue(v * 1e-6, 's');
  return `Cold cache on this machine: one ${formatParam(r.blockBytes, 'B')} read from an evicted file takes ${us(r.medianMicros)} (median of ${r.reads}; 90th percentile ${us(r.p90Micros)}). An SSD takes about 80–200 µs, a spinning disk milliseconds: a cold-cache answer is partly a property of the runner, not only of the runtime.`;
}
