/**
 * What can make numbers drift, recorded with every run: load before the run, frequency
 * governor and turbo, SMT, and the CPU sets used for measured programs and for the harness.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { ColdRead } from '../formats/results-format.js';

/** A /proc or /sys file's text, trimmed; undefined where it does not exist or cannot be read. */
export function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export interface Conditions {
  loadAverage: [number, number, number];
  governor: string;
  turbo: string;
  smt: string;
  /** CPUs measured programs are pinned to ("all" when not pinned). */
  measuredCpus: string;
  /** CPUs the harness and input generators run on. */
  harnessCpus: string;
  /** How the untimed check of a hyperfine-timed program laid out its memory for max RSS (tools.ts setarch). */
  rssLayout?: 'fixed' | 'random';
  /** One cold 4 KiB read's latency (cold-read.ts), when the run has cold-cache points. */
  coldRead?: ColdRead;
  /** "bubblewrap" when the programs ran sandboxed, else "none: <why>" (pipeline/setup.ts). */
  sandbox?: string;
}

function turboState(): string {
  const intel = read('/sys/devices/system/cpu/intel_pstate/no_turbo');
  if (intel !== undefined) return intel === '1' ? 'off' : 'on';
  const boost = read('/sys/devices/system/cpu/cpufreq/boost');
  if (boost !== undefined) return boost === '1' ? 'on' : 'off';
  return 'unavailable';
}

function smtState(): string {
  return read('/sys/devices/system/cpu/smt/active') === '1'
    ? 'active'
    : (read('/sys/devices/system/cpu/smt/control') ?? 'unavailable');
}

/**
 * With two or more cores, measured programs get every core but the first; the harness, hyperfine
 * and generators stay on core 0 so they do not compete with what is measured.
 */
export function cpuPlan(cores: number): { measured: string; harness: string } | undefined {
  if (cores < 2) return undefined;
  return { measured: cores === 2 ? '1' : `1-${cores - 1}`, harness: '0' };
}

export function currentConditions(plan: { measured: string; harness: string } | undefined): Conditions {
  const [l1 = 0, l5 = 0, l15 = 0] = os.loadavg();
  return {
    loadAverage: [l1, l5, l15],
    governor: read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor') ?? 'unavailable',
    turbo: turboState(),
    smt: smtState(),
    measuredCpus: plan?.measured ?? 'all',
    harnessCpus: plan?.harness ?? 'all',
  };
}
