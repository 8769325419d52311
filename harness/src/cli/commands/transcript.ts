/**
 * `npm run transcript`: what a checkout's harness runs, recorded from outside (transcript/record.ts),
 * and two recordings compared — the exact answer to "does this harness change run the programs
 * any differently?" that timing cannot give on a 2-core runner.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { existingDirectory } from '../../lib/paths.js';
import { readUntrustedJson } from '../../lib/untrusted.js';
import { Transcript } from '../../model/transcript-document.js';
import { compareTranscripts, type TranscriptComparison } from '../../pairs/harness-shift/transcript-compare.js';
import { recordHarness } from '../../pairs/harness-shift/transcript-record.js';
import { intFlag } from '../args.js';
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
    timeout: { type: 'string', default: '30', value: 'MINUTES', description: 'with --side: bound on the recording' },
    base: { type: 'string', value: 'FILE', description: "compare: the base's transcript" },
    head: { type: 'string', value: 'FILE', description: "compare: the head's transcript" },
    json: { type: 'boolean', default: false, description: 'compare: the comparison as JSON on stdout' },
  },
  example: 'npm run transcript -- --side ../base --out base.json -- --profile smoke --counts all',
  notes: [
    'The recording is not a measurement: strace slows every start, and the harness’s own strace and Valgrind passes are recorded, not run.',
    'Normalized before comparing: the checkout, temporary and output folders, mkdtemp suffixes, /proc pids (docs/paired-design.md).',
  ],
} as const satisfies CommandSpec;

const MAX_TRANSCRIPT_BYTES = 512 * 2 ** 20;

const readTranscript = (file: string) =>
  readUntrustedJson(resolve(file), Transcript, { maxBytes: MAX_TRANSCRIPT_BYTES, what: 'transcript' });

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

export async function transcriptCommand(argv: string[]): Promise<number> {
  const cut = argv.indexOf('--');
  const own = cut < 0 ? argv : argv.slice(0, cut);
  const benchArgs = cut < 0 ? [] : argv.slice(cut + 1);
  const { values } = parseCommand(transcriptSpec, own);
  if (values.side) {
    if (!values.out) throw new UserError('transcript --side DIR needs --out FILE');
    if (values.base || values.head) throw new UserError('--side records; --base and --head compare: one or the other');
    const side = existingDirectory(values.side, '--side');
    if (!existsSync(join(side, 'harness', 'bootstrap.mjs')))
      throw new UserError(`--side ${side}: not a jsio-bench checkout (it has no harness/bootstrap.mjs to record)`);
    const minutes = intFlag('--timeout', values.timeout, 1, 600);
    process.stderr.write(`recording ${side}: bench ${benchArgs.join(' ')} under strace (not a measurement)\n`);
    const r = await recordHarness(side, benchArgs, minutes * 60_000);
    writeFileAtomic(resolve(values.out), `${JSON.stringify(r.transcript)}\n`);
    process.stderr.write(
      `${r.transcript.runs.length} programs started; bench exited ${r.exit}${r.exit ? `:\n${r.said}` : ''}\ntranscript: ${values.out}\n`,
    );
    return EXIT.ok;
  }
  if (!values.base || !values.head)
    throw new UserError('transcript needs --side DIR --out FILE (record) or --base FILE --head FILE (compare)');
  const c = compareTranscripts(readTranscript(values.base).runs, readTranscript(values.head).runs);
  process.stdout.write(values.json ? `${JSON.stringify(c, null, 1)}\n` : renderComparison(c));
  return EXIT.ok;
}
