/**
 * One side's harness making its numbers from raw samples it did not measure (`bench --reduce`),
 * fenced and recorded as a recording is (its transcript is not kept: it runs no program), so two
 * analyses can be handed the same raw output, self-timed runs and GNU time included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_SAMPLES_FILE } from '../../formats/raw-samples-format.js';
import { Results, type Results as ResultsDoc } from '../../formats/results-format.js';
import { recordHarness } from './transcript-record.js';

/** A harness's numbers made from raw samples: its results, or how it ended. */
export interface Reduction {
  results?: string;
  exit: number | null;
  said: string;
  /** Wall seconds of the reducing run (recorded and fenced: its set-up included). */
  seconds: number;
}

/** A results.json as another harness wrote it, if it is one. */
export function parsedResults(text: string | undefined): ResultsDoc | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = Results.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The folders of a reduction named `name` in a pair's folder: its strace logs and its own. */
export const reduceFolders = (pair: string, name: string) => [join(pair, `${name}-logs`), join(pair, name)] as const;

/** The folder of a pair's recordings' strace logs (harness-transcripts.ts): hidden from every reduction. */
export const RECORDING_LOGS = 'logs';

/** The least time a reduction is given (it runs no program: seconds, normally). */
export const REDUCE_MIN_MS = 120_000;

export interface ReduceJob {
  /** The reduction's folders in the pair's folder (reduceFolders). */
  name: string;
  /** The other checkout: the reducing harness's to read, never to change (as in its recording). */
  other: string;
  /** The bench arguments it reduces with (the profile the raw samples were measured at). */
  bench: readonly string[];
  raw: string;
  pair: string;
  player: string | undefined;
  /** Folders of the pair the reducing harness must not see (the other runs' own). */
  hidden: readonly string[];
}

/** `side`'s harness reduces `job.raw` (`bench --reduce FILE --no-store`). */
export async function reduceBy(side: string, job: ReduceJob, timeoutMs: number): Promise<Reduction> {
  const [logs, work] = reduceFolders(job.pair, job.name);
  for (const d of [logs, work]) mkdirSync(d, { recursive: true });
  const file = join(work, RAW_SAMPLES_FILE);
  writeFileSync(file, job.raw);
  const started = performance.now();
  const r = await recordHarness(side, job.bench, timeoutMs, {
    logs,
    work,
    // The recordings' strace logs too: a reduction may run while a recording is still being written.
    hidden: [RECORDING_LOGS, ...job.hidden].map((n) => join(job.pair, n)),
    readOnly: [job.other],
    player: job.player,
    reduce: file,
  });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return { ...(r.results !== undefined ? { results: r.results } : {}), exit: r.exit, said: r.said, seconds };
}
