/** The store's files as the site reads them (store v3; the writer's schemas are harness/src/model/store-schema.ts). */
import type { JoinedSeries, ProgramRuns } from '../../../harness/src/model/store-layout.js';
import type { Answer } from '../../../harness/src/report/answers.js';
import type { Ratio } from '../../../harness/src/report/ratios.js';

export interface Machine {
  id: string;
  cpu: string;
  cores: number;
  kernel: string;
  memoryBytes: number;
  governor: string;
  runner: string;
}
export interface MachinesFile {
  schema: number;
  machines: Record<
    string,
    {
      machine: Machine;
      lastRun: string;
      commits: number;
      profiles: Record<string, { commits: number; lastRun: string }>;
    }
  >;
}
export interface Moment {
  date: string;
  sha: string;
}
export interface TrendWindow {
  id: string;
  first: Moment;
  last: Moment;
  commits: number;
}
export interface CatalogMetric {
  unit: string;
  direction: 'smaller' | 'bigger';
  source: string;
  windows: [number, number];
}
export interface CatalogFile {
  schema: number;
  machine: string;
  profile: string;
  windows: TrendWindow[];
  experiments: Record<string, { metrics: Record<string, CatalogMetric>; latest: Moment }>;
}
export interface WindowCommit {
  sha: string;
  date: string;
  subject: string;
  ref: string;
  runId: string;
  file: string;
  counts: { ok: number; skipped: number; failed: number };
  experiments: string[];
}
export interface CommitsFile {
  schema: number;
  profile: string;
  window: string;
  commits: WindowCommit[];
}
export interface ShardFile {
  schema: number;
  experiment: string;
  metric: string;
  commits: string[];
  series: Record<
    string,
    Omit<JoinedSeries, 'programs'> & {
      programs: ProgramRuns;
    }
  >;
}
export interface TrendChange {
  machine: string;
  profile: string;
  experiment: string;
  metric: string;
  benchmark: string;
  series: string;
  variant: string;
  params: Record<string, number | string>;
  workload: string;
  unit: string;
  direction: 'smaller' | 'bigger';
  from: Moment & { subject: string };
  to: Moment & { subject: string; window: string };
  before: number;
  after: number;
  ratio: number;
  ci: [number, number];
  points: [number, number];
  worse: boolean;
  programChanged: boolean;
}
export interface RegressionsFile {
  schema: number;
  machine: string;
  profile: string;
  method: string;
  regressions: TrendChange[];
}
export interface Metric {
  unit: string;
  direction: 'smaller' | 'bigger';
  value: number;
  samples?: number[];
  stats?: { n: number; stddev: number; min?: number; max?: number };
  deterministic?: boolean;
  source?: string;
}
export interface Benchmark {
  id: string;
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  hint?: string;
  definition?: string;
  workload?: string;
  derived: Record<string, number>;
  metrics: Record<string, Metric>;
}
export interface ExperimentInfo {
  title: string;
  question: string;
  parameters?: Record<string, { description: string; unit?: string }>;
  summary?: { at: Record<string, unknown>; metrics: string[]; ratios: Ratio[]; answers?: Answer[] };
  headline?: { at: Record<string, unknown>; metrics: string[] };
  overview?: unknown;
}
export interface RunFile {
  schema: number;
  run: {
    id: string;
    profile: string;
    partial: boolean;
    start: string;
    end: string;
    commit: { sha: string; subject: string; date: string; ref: string; dirty: boolean };
    machine: Machine & { hostname: string };
    toolchains: Record<string, string>;
    conditions?: { loadAverage: number[]; governor: string; turbo: string; smt: string; measuredCpus: string };
  };
  experiments: Record<string, ExperimentInfo>;
  benchmarks: Benchmark[];
  analyses?: unknown[];
}
