/**
 * results.json while a run is in progress: rewritten atomically after each benchmark is recorded
 * (a crash or an interrupt loses nothing; a partial run says so).
 */
import { join } from 'node:path';
import type { Experiment } from '../formats/manifest-format.js';
import type { ExperimentInfo } from '../formats/results-format.js';
import {
  type Benchmark,
  type Commit,
  type Machine,
  RESULTS_SCHEMA,
  type Results,
  type SlopeFit,
} from '../formats/results-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import type { Conditions } from '../machine/conditions.js';

export interface RunFacts {
  started: Date;
  profile: string;
  commit: Commit;
  machine: Machine;
  toolchains: Record<string, string>;
  conditions: Conditions;
  experiments: readonly Experiment[];
}

export interface ResultsFile {
  outDir: string;
  readonly benchmarks: readonly Benchmark[];
  add(b: Benchmark): void;
  /** Replaces a recorded benchmark (by id) with what `f` makes of it; a later stage's additions. */
  update(id: string, f: (b: Benchmark) => Benchmark): void;
  finish(end: {
    partial: boolean;
    timing: NonNullable<Results['run']['timing']>;
    analyses: SlopeFit[];
    counting?: Results['run']['counting'];
  }): Results;
}

function runId(start: Date, sha: string): string {
  return `${start
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${sha.slice(0, 7)}`;
}

/** What the summary, the site and github-action-benchmark read of each experiment: the results carry it, so readers need no manifest. */
function experimentInfo(e: Experiment): ExperimentInfo {
  const m = e.manifest;
  return {
    title: m.title,
    question: m.question,
    parameters: Object.fromEntries(
      Object.entries(m.parameters).map(([k, v]) => [
        k,
        { description: v.description, ...(v.unit ? { unit: v.unit } : {}) },
      ]),
    ),
    ...(m.summary ? { summary: m.summary } : {}),
    headline: m.headline,
  };
}

export function startResults(outDir: string, facts: RunFacts): ResultsFile {
  const results: Results = {
    schema: RESULTS_SCHEMA,
    run: {
      id: runId(facts.started, facts.commit.sha),
      profile: facts.profile,
      partial: true,
      start: facts.started.toISOString(),
      end: facts.started.toISOString(),
      commit: facts.commit,
      machine: facts.machine,
      toolchains: facts.toolchains,
      conditions: facts.conditions,
    },
    experiments: Object.fromEntries(facts.experiments.map((e) => [e.id, experimentInfo(e)])),
    benchmarks: [],
  };
  const path = join(outDir, 'results.json');
  // Written first with the first benchmark: until then a previous run's file stays as it was.
  const save = () => writeFileAtomic(path, `${JSON.stringify(results, null, 1)}\n`);
  return {
    outDir,
    benchmarks: results.benchmarks,
    add(b) {
      results.benchmarks.push(b);
      save();
    },
    update(id, f) {
      const i = results.benchmarks.findIndex((b) => b.id === id);
      if (i < 0) return;
      results.benchmarks[i] = f(results.benchmarks[i]!);
      save();
    },
    finish({ partial, timing, analyses, counting }) {
      results.run.partial = partial;
      results.run.end = new Date().toISOString();
      if (counting) results.run.counting = counting;
      results.run.timing = timing;
      if (analyses.length) results.analyses = analyses;
      save();
      return results;
    },
  };
}
