/** npm run pages: publishes results into a gh-pages checkout and rebuilds the site there, in place. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mergeRunCounts, readCountFile, readCountStore, writeCountStore } from '../../counts/count-store.js';
import { RUN_COUNTS_FILE } from '../../counts/stored-counts.js';
import type { CountStoreFile } from '../../formats/count-store-format.js';
import { readResultsArtifact } from '../../formats/read-results.js';
import type { Results } from '../../formats/results-format.js';
import type { TraceStoreFile } from '../../formats/trace-store-format.js';
import type { StoredRecording } from '../../formats/transcript-format.js';
import { readVerdictFile, type TranscriptVerdictFile } from '../../formats/transcript-format.js';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { existingDirectory } from '../../lib/paths.js';
import { RUN_TRACES_FILE } from '../../pipeline/bench-traces.js';
import { buildSite } from '../../site/build-site.js';
import { previousRun, storeMarks } from '../../store/mark-store.js';
import { publishRun } from '../../store/publish-run.js';
import { RUN_RECORDING_FILE, readRecordingFile, storeRecording } from '../../store/recording-store.js';
import { readTraceFile, storeTraces } from '../../store/trace-store.js';
import { marksOf } from '../../workflow/derive-marks.js';
import { ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SITE_DATA_CHECKS } from '../site-checks.js';

export const pagesSpec = {
  name: 'pages',
  brief: 'publish into a gh-pages checkout and rebuild its site',
  summary: 'Publishes results into a gh-pages checkout (its data/) and rebuilds the site app files there, in place.',
  positionals: 'RESULTS.json...',
  options: { dir: { type: 'string', value: 'DIR', description: 'the gh-pages checkout (required)' } },
  example: 'npm run pages -- results/latest/results.json --dir ../gh-pages',
  notes: [
    "A run's traces.json beside its results.json (bench --trace-profiles) goes into the store too, as <machine>/traces/<sha>.json.",
    'So does its recording.json (transcript --side --recording), gzipped, as <machine>/recordings/<sha>.json.gz: a pull request based on that commit records only its head.',
    "A run's counts.json beside it (bench --no-store --count-store) is merged into <machine>/counts.json: the counts it made",
    "or re-checked are added (with bench --count-profiles, the other profiles' points it counted too), and a family whose re-check disagreed in that run loses its stored counts first.",
    'Trend marks (<machine>/marks.json): a commit measured in the sandbox after one that was not, or with another toolchain; a live re-count that dropped stored counts; and, from transcripts/transcripts.json beside results.json (transcript --base-side PREVIOUS --head-side THIS), a harness that runs or computes differently.',
  ],
} as const satisfies CommandSpec;

/** Where bench.yml leaves the transcript verdict of a harness change, beside results.json. */
const RUN_TRANSCRIPTS_FILE = join('transcripts', 'transcripts.json');

/**
 * The transcript verdict beside a run (bench.yml records one when the harness changed since the
 * previous published commit), or undefined; a verdict whose head is another commit is refused.
 */
function verdictBeside(resultsFile: string, results: Results): TranscriptVerdictFile | undefined {
  const file = join(dirname(resultsFile), RUN_TRANSCRIPTS_FILE);
  if (!existsSync(file)) return undefined;
  const verdict = readVerdictFile(file);
  if (verdict.head.commit !== results.run.commit.sha)
    throw new UserError(
      `${file} recorded the harness of commit ${verdict.head.commit.slice(0, 12)}, but ${resultsFile} is a run of ${results.run.commit.sha.slice(0, 12)}: nothing was published`,
    );
  return verdict;
}

/**
 * The run's traces (`bench --trace-profiles` writes traces.json beside results.json), validated,
 * or undefined when the run has none; traces of another commit than the run's are refused.
 */
function tracesBeside(resultsFile: string, results: Results): TraceStoreFile | undefined {
  const file = join(dirname(resultsFile), RUN_TRACES_FILE);
  if (!existsSync(file)) return undefined;
  const traces = readTraceFile(file);
  if (traces.commit !== results.run.commit.sha)
    throw new UserError(
      `${file} holds the traces of commit ${traces.commit.slice(0, 12)}, but ${resultsFile} is a run of ${results.run.commit.sha.slice(0, 12)}: nothing was published`,
    );
  return traces;
}

/**
 * The run's recording (`transcript --side --recording`, written beside results.json on main's
 * pushes), validated, or undefined when it has none; one of another commit or machine is refused.
 */
function recordingBeside(resultsFile: string, results: Results): StoredRecording | undefined {
  const file = join(dirname(resultsFile), RUN_RECORDING_FILE);
  if (!existsSync(file)) return undefined;
  const r = readRecordingFile(file);
  if (r.commit !== results.run.commit.sha || r.machine !== results.run.machine.id)
    throw new UserError(
      `${file} is the recording of ${r.commit.slice(0, 12)} on ${r.machine}, but ${resultsFile} is a run of ${results.run.commit.sha.slice(0, 12)} on ${results.run.machine.id}: nothing was published`,
    );
  return r;
}

/**
 * The counts a run made or re-checked apart from the store (`bench --count-store` writes counts.json
 * beside results.json), validated, or undefined when it has none; a count of a point the run did
 * not measure is refused.
 */
function countsBeside(resultsFile: string, results: Results): CountStoreFile | undefined {
  const file = join(dirname(resultsFile), RUN_COUNTS_FILE);
  if (!existsSync(file)) return undefined;
  const counts = readCountFile(file);
  const ids = new Set(results.benchmarks.map((b) => b.id));
  // A run that counted other profiles' points (bench --count-profiles) made their counts itself.
  const others = results.run.counting?.profiles?.length ? results.run.commit.sha : undefined;
  for (const [key, c] of Object.entries(counts.counts))
    if (!ids.has(c.id) && c.commit !== others)
      throw new UserError(
        `${file}: counts.${key} is a count of ${c.id}, which ${resultsFile} did not measure${others ? ' nor count for another profile' : ''}: nothing was published`,
      );
  return counts;
}

export async function pagesCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(pagesSpec, argv);
  if (!values.dir || !positionals.length)
    throw new UserError('pages needs RESULTS.json... and --dir <gh-pages checkout>');
  const dir = existingDirectory(values.dir, '--dir');
  // Every input is read and checked before the checkout is touched.
  const runs = positionals.map((file) => {
    const results = readResultsArtifact(file);
    if (results.run.partial) throw new UserError(`${file} is a partial (interrupted) run: it is never published`);
    return results;
  });
  const traces = positionals.map((file, i) => tracesBeside(file, runs[i]!));
  const counts = positionals.map((file, i) => countsBeside(file, runs[i]!));
  const verdicts = positionals.map((file, i) => verdictBeside(file, runs[i]!));
  const recordings = positionals.map((file, i) => recordingBeside(file, runs[i]!));
  const data = join(dir, 'data');
  for (const [i, results] of runs.entries()) {
    // Against the commit before, as the store has it before this run goes in.
    const prev = previousRun(data, results);
    await publishRun(data, results);
    const machine = results.run.machine.id;
    const t = traces[i];
    if (t) storeTraces(data, machine, t);
    const rec = recordings[i];
    if (rec) storeRecording(data, rec);
    const c = counts[i];
    if (c)
      writeCountStore(
        data,
        machine,
        mergeRunCounts(readCountStore(data, machine), c, results.run.counting?.dropped ?? []),
      );
    const { decided, marks } = marksOf(results, prev, verdicts[i]);
    const { sha, date, subject } = results.run.commit;
    storeMarks(data, machine, {
      commit: { sha, date, subject },
      profile: results.run.profile,
      decided,
      marks,
    });
  }
  await buildSite(ROOT, data, dir, { inPlace: true, dataChecks: SITE_DATA_CHECKS });
  // A plain static host must not run Jekyll over the data files.
  writeFileAtomic(join(dir, '.nojekyll'), '');
  process.stdout.write(`published ${positionals.length} run(s) into ${dir}\n`);
  return EXIT.ok;
}
