/**
 * `npm run transcript`: what a checkout's harness runs, recorded from outside (transcript/record.ts),
 * and two recordings compared — the exact answer to "does this harness change run the programs
 * any differently?" that timing cannot give on a 2-core runner.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { RAW_SAMPLES_FILE } from '../../formats/raw-samples-format.js';
import { readResults } from '../../formats/read-results.js';
import {
  type RecorderContext,
  StoredRecording,
  Transcript,
  type TranscriptVerdictFile,
} from '../../formats/transcript-format.js';
import { writeFileAtomic, writeFilesAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, ensureParentDirectory, existingDirectory } from '../../lib/paths.js';
import { readUntrustedJson } from '../../lib/untrusted.js';
import { commitInfo, machineInfo } from '../../machine/machine.js';
import { recordBoth } from '../../pairs/harness-shift/harness-transcripts.js';
import { fromStored, toStored, unusableBecause } from '../../pairs/harness-shift/stored-recording.js';
import { compareTranscripts, type TranscriptComparison } from '../../pairs/harness-shift/transcript-compare.js';
import {
  hyperfineVersion,
  type MeasuredRaw,
  type Recording,
  recordHarness,
} from '../../pairs/harness-shift/transcript-record.js';
import { verdictText } from '../../pairs/harness-shift/verdict-text.js';
import { readRawSamples } from '../../pipeline/raw-samples.js';
import { readStoredRecording } from '../../store/recording-store.js';
import { intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const transcriptSpec = {
  name: 'transcript',
  brief: "record what a checkout's harness runs (strace from outside), or compare two recordings",
  summary:
    "Records every program a checkout's `bench` starts — arguments, environment, working directory, CPUs, limits — " +
    'with strace from outside the harness (--side DIR --out FILE, bench flags after `--`), or compares two ' +
    'recordings and names each difference (--base FILE --head FILE).',
  options: {
    side: { type: 'string', value: 'DIR', description: 'record this checkout (its harness runs bench)' },
    out: { type: 'string', value: 'FILE', description: 'with --side: where the transcript goes (required)' },
    results: {
      type: 'string',
      value: 'FILE',
      description:
        "with --side: also keep the recorded bench's results.json (its numbers come from the recording's hyperfine)",
    },
    recording: {
      type: 'string',
      value: 'FILE',
      description:
        "with --side: also write the whole recording (transcript, results, the harness's CPU time) for the trend store (`npm run pages` stores a run's recording.json)",
    },
    measured: {
      type: 'string',
      value: 'DIR',
      description:
        "with --recording: the folder of this commit's timed run (its results.json and raw-samples.json, main's push), kept in the recording so that a pull request's two analyses are handed real runs and a move's size is what the trend will show",
    },
    timeout: { type: 'string', default: '30', value: 'MINUTES', description: 'bound on the recording' },
    'base-side': {
      type: 'string',
      value: 'DIR',
      description: 'record this checkout and --head-side at once, and compare what both ran and computed (needs --dir)',
    },
    'head-side': { type: 'string', value: 'DIR', description: 'with --base-side: the other checkout' },
    dir: {
      type: 'string',
      value: 'DIR',
      description:
        'with --base-side: a new or empty folder for transcripts.json (the verdict), both transcripts and both results',
    },
    store: {
      type: 'string',
      value: 'DIR',
      description:
        "with --base-side: a trend store whose recording of the base's commit on this machine (<machine>/recordings/<sha>.json.gz, kept by main's pushes) stands for the base's, when it was made the same way: then only the head is recorded",
    },
    base: { type: 'string', value: 'FILE', description: "compare: the base's transcript" },
    head: { type: 'string', value: 'FILE', description: "compare: the head's transcript" },
    json: { type: 'boolean', default: false, description: 'compare: the comparison as JSON on stdout' },
    'run-every-sandbox': {
      type: 'boolean',
      default: false,
      description:
        'record: run every sandbox, also one started again unchanged (by default it is played back: recorded at its start, not run again)',
    },
  },
  example: 'npm run transcript -- --base-side ../base --head-side ../head --dir transcripts -- --profile quick',
  notes: [
    'The recording is not a measurement: strace slows every start, and the harness’s own strace and Valgrind passes are recorded, not run.',
    'A sandbox started again with nothing it could see changed is recorded at its start and played back, not run again (docs/paired-design.md).',
    'Normalized before comparing: the checkout, temporary and output folders, mkdtemp suffixes, /proc pids (docs/paired-design.md).',
    'The recorded harness gets only the variables it reads and a PATH of its own, so recordings made in different jobs compare (docs/paired-design.md).',
    'A stored recording (--store) is used only when made with the same bench arguments, by the same recorder, hyperfine and Node.js; otherwise both sides are recorded, and the reason is said.',
  ],
} as const satisfies CommandSpec;

const MAX_TRANSCRIPT_BYTES = 512 * 2 ** 20;

/** A transcript, or the transcript of a whole recording (`--recording`). */
const readTranscript = (file: string) =>
  readUntrustedJson(resolve(file), z.union([Transcript, StoredRecording.transform((r) => r.transcript)]), {
    maxBytes: MAX_TRANSCRIPT_BYTES,
    what: 'transcript',
  });

/** How this checkout records: what a stored recording must have been made with to stand for a side. */
async function recorderContext(values: TranscriptValues): Promise<RecorderContext> {
  return {
    recorder: commitInfo(ROOT).sha,
    player: !values['run-every-sandbox'],
    hyperfine: await hyperfineVersion(),
    node: process.version,
  };
}

/**
 * The base's recording from the trend store, when `--store` holds one made the same way; else
 * undefined, having said why (a malformed file included: the diff records the base instead).
 */
async function storedBase(
  values: TranscriptValues,
  base: string,
  bench: readonly string[],
): Promise<Recording | undefined> {
  if (!values.store) return undefined;
  const store = existingDirectory(values.store, '--store');
  const machine = machineInfo().id;
  const commit = commitInfo(base).sha;
  const say = (m: string) => process.stderr.write(`${m}\n`);
  let stored: StoredRecording | undefined;
  try {
    stored = readStoredRecording(store, machine, commit);
  } catch (e) {
    say(`${(e as Error).message.split('\n')[0]}: recording the base too`);
    return undefined;
  }
  if (!stored) {
    say(`no stored recording of the base (${commit.slice(0, 12)}) on ${machine}: recording both sides`);
    return undefined;
  }
  const why = unusableBecause(stored, { commit, bench, context: await recorderContext(values) });
  if (why) {
    say(`the stored recording of the base is not used (${why}): recording both sides`);
    return undefined;
  }
  say(`the base's recording from the trend store (${stored.recorded}): recording only the head`);
  return fromStored(stored);
}

/**
 * A recording's progress (the recorded bench's own `[N/M] …` lines) on stderr, each side's at most
 * every `everyMs`: a recording takes minutes, and a job log should show where it is.
 */
export function progressPrinter(
  write: (s: string) => void,
  everyMs: number,
  now: () => number = () => Date.now(),
): (side: string, line: string) => void {
  const last = new Map<string, number>();
  return (side, line) => {
    const t = now();
    const before = last.get(side);
    if (before !== undefined && t - before < everyMs) return;
    last.set(side, t);
    write(`recording (${side}): ${line}\n`);
  };
}

const everyHalfMinute = () => progressPrinter((s) => process.stderr.write(s), 30_000);

/** A checkout to record, or a clear refusal. */
function sideDir(path: string, flag: string): string {
  const side = existingDirectory(path, flag);
  if (!existsSync(join(side, 'harness', 'bootstrap.mjs')))
    throw new UserError(`${flag} ${side}: not a jsio-bench checkout (it has no harness/bootstrap.mjs to record)`);
  return side;
}

/** A folder for the pair's files that holds nothing yet: nothing of anyone's is overwritten. */
function freshDir(path: string): string {
  const dir = ensureDirectory(path, '--dir');
  if (readdirSync(dir).length)
    throw new UserError(`--dir ${dir}: not empty (the recordings go into a new or empty folder)`);
  return dir;
}

/** The recorder's own checkout, whose sandbox player the recordings use, unless every sandbox is to run. */
const playerFrom = (values: TranscriptValues) => (values['run-every-sandbox'] ? undefined : ROOT);

async function recordBothCommand(values: TranscriptValues, benchArgs: readonly string[]): Promise<number> {
  if (!values['base-side'] || !values['head-side'] || !values.dir)
    throw new UserError('transcript --base-side DIR needs --head-side DIR and --dir DIR');
  if (values.side || values.base || values.head)
    throw new UserError('--base-side records both checkouts: it takes no --side, --base or --head');
  const base = sideDir(values['base-side'], '--base-side');
  const head = sideDir(values['head-side'], '--head-side');
  const minutes = intFlag('--timeout', values.timeout, 1, 600);
  const dir = freshDir(values.dir);
  const kept = await storedBase(values, base, benchArgs);
  process.stderr.write(
    `recording ${kept ? head : `${base} and ${head} at once`}: bench ${benchArgs.join(' ')} under strace (not a measurement)\n`,
  );
  const r = await recordBoth({ base, head }, benchArgs, minutes * 60_000, playerFrom(values), kept, everyHalfMinute());
  const file: TranscriptVerdictFile = {
    schema: 1,
    kind: 'transcript-verdict',
    base: { commit: r.base.transcript.side.commit, ...(kept ? { stored: true as const } : {}) },
    head: { commit: r.head.transcript.side.commit },
    verdict: r.verdict,
  };
  writeFilesAtomic([
    { file: join(dir, 'base.transcript.json'), data: `${JSON.stringify(r.base.transcript)}\n` },
    { file: join(dir, 'head.transcript.json'), data: `${JSON.stringify(r.head.transcript)}\n` },
    ...(r.base.results !== undefined ? [{ file: join(dir, 'base.results.json'), data: r.base.results }] : []),
    ...(r.head.results !== undefined ? [{ file: join(dir, 'head.results.json'), data: r.head.results }] : []),
    ...(r.reduction?.results !== undefined
      ? [{ file: join(dir, 'head.reduced.json'), data: r.reduction.results }]
      : []),
    { file: join(dir, 'transcripts.json'), data: `${JSON.stringify(file, null, 1)}\n` },
  ]);
  process.stdout.write(`${verdictText(r.verdict)}\n`);
  if (r.reduction)
    process.stderr.write(
      `the head's analysis of the base's raw samples (bench --reduce): exit ${r.reduction.exit}, ${r.reduction.seconds} s\n`,
    );
  if (r.trend)
    process.stderr.write(
      `both analyses of main's timed run of the base: ${r.trend.trend ? `${r.trend.trend.moves.length} move(s) on ${r.trend.trend.benchmarks} benchmarks of its ${r.trend.trend.profile} profile` : r.trend.why}, ${r.trend.seconds} s\n`,
    );
  process.stderr.write(`transcripts: ${join(dir, 'transcripts.json')}\n`);
  return EXIT.ok;
}

/** The comparison as text: the answer first, then each difference with how many runs it touches. */
function renderComparison(c: TranscriptComparison): string {
  if (c.same) return `runs the same programs the same way: ${c.alike} starts alike\n`;
  const lines = c.differences.slice(0, 50).map((d) => `  ${d.what} (${d.runs} run${d.runs === 1 ? '' : 's'})`);
  const more = c.differences.length > 50 ? [`  … and ${c.differences.length - 50} more differences`] : [];
  return [
    `runs differently: ${c.differences.length} difference(s); ${c.alike} starts alike`,
    ...lines,
    ...more,
    '',
  ].join('\n');
}

/** `--side DIR`: one checkout recorded, its transcript (--out) and, for the store, its whole recording (--recording). */
async function recordSideCommand(values: TranscriptValues, benchArgs: readonly string[]): Promise<number> {
  if (!values.out && !values.recording)
    throw new UserError('transcript --side DIR needs --out FILE or --recording FILE');
  if (values.base || values.head) throw new UserError('--side records; --base and --head compare: one or the other');
  if (values.store)
    throw new UserError('--store is read by --base-side: --side writes a recording with --recording FILE');
  const side = sideDir(values.side!, '--side');
  // Read before recording, as the destinations are checked: a wrong folder must not cost minutes first.
  const measured = values.measured === undefined ? undefined : measuredRun(values.measured, side, values.recording);
  const out = values.out ? ensureParentDirectory(values.out, '--out') : undefined;
  const results = values.results ? ensureParentDirectory(values.results, '--results') : undefined;
  const recording = values.recording ? ensureParentDirectory(values.recording, '--recording') : undefined;
  const minutes = intFlag('--timeout', values.timeout, 1, 600);
  process.stderr.write(`recording ${side}: bench ${benchArgs.join(' ')} under strace (not a measurement)\n`);
  const say = everyHalfMinute();
  const r = await recordHarness(side, benchArgs, minutes * 60_000, {
    readOnly: [],
    player: playerFrom(values),
    progress: (line) => say('side', line),
  });
  if (out) writeFileAtomic(out, `${JSON.stringify(r.transcript)}\n`);
  if (results && r.results !== undefined) writeFileAtomic(results, r.results);
  if (recording) {
    const stored = toStored(r, {
      machine: machineInfo().id,
      context: await recorderContext(values),
      recorded: new Date().toISOString(),
      ...(measured ? { measured } : {}),
    });
    writeFileAtomic(recording, `${JSON.stringify(stored)}\n`);
  }
  const wrote = [values.out && `transcript: ${values.out}`, values.recording && `recording: ${values.recording}`];
  process.stderr.write(
    `${r.transcript.runs.length} programs started; bench exited ${r.exit}${r.exit ? `:\n${r.said}` : ''}\n${wrote.filter(Boolean).join('\n')}\n`,
  );
  return EXIT.ok;
}

/**
 * `--measured DIR`: the timed run of the recorded commit — its profile (results.json) and its raw
 * samples, validated here as `bench --reduce` will read them — or a clear refusal.
 */
function measuredRun(dir: string, side: string, recording: string | undefined): MeasuredRaw {
  if (!recording) throw new UserError('--measured is kept in a recording: it needs --recording FILE');
  const folder = existingDirectory(dir, '--measured');
  const results = readResults(join(folder, 'results.json'));
  const commit = commitInfo(side).sha;
  if (results.run.commit.sha !== commit)
    throw new UserError(
      `--measured ${folder}: its results.json is a run of ${results.run.commit.sha.slice(0, 12)}, not of the recorded ${commit.slice(0, 12)}`,
    );
  const file = join(folder, RAW_SAMPLES_FILE);
  const raw = readRawSamples(file);
  if (raw.commit !== commit)
    throw new UserError(
      `--measured ${folder}: ${file} holds raw samples of ${raw.commit.slice(0, 12)}, not of ${commit.slice(0, 12)}`,
    );
  return { profile: results.run.profile, raw: readFileSync(file, 'utf8') };
}

type TranscriptValues = ReturnType<typeof parseCommand<typeof transcriptSpec>>['values'];

export async function transcriptCommand(argv: string[]): Promise<number> {
  const cut = argv.indexOf('--');
  const own = cut < 0 ? argv : argv.slice(0, cut);
  const benchArgs = cut < 0 ? [] : argv.slice(cut + 1);
  const { values } = parseCommand(transcriptSpec, own);
  if (values['base-side'] || values['head-side']) return recordBothCommand(values, benchArgs);
  if (values.side) return recordSideCommand(values, benchArgs);
  if (!values.base || !values.head)
    throw new UserError('transcript needs --side DIR --out FILE (record) or --base FILE --head FILE (compare)');
  const c = compareTranscripts(readTranscript(values.base).runs, readTranscript(values.head).runs);
  process.stdout.write(values.json ? `${JSON.stringify(c, null, 1)}\n` : renderComparison(c));
  return EXIT.ok;
}
