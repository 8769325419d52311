/**
 * A/A calibration: the same checkout measured as base and head in alternating rounds. Writes
 * comparison.md/json (what compare calls between identical builds), calibration.md, noise.json
 * (per-benchmark thresholds that compare and the site use) and stores noise.json for the site.
 */
import { join } from 'node:path';
import { calibrateRuns } from '../calibrate/run.js';
import { writeComparison } from '../compare/run-compare.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { markdownTable } from '../lib/markdown.js';
import { NOISE_SCHEMA, type NoiseFile } from '../model/noise.js';
import { readResults } from '../model/read-results.js';
import { publishNoise } from '../store/store.js';
import { runRounds } from './rounds.js';

export async function calibrate(opts: {
  root: string;
  rounds: number;
  out: string;
  store: string;
  benchArgs: readonly string[];
  log: (s: string) => void;
}): Promise<{ markdown: string; stopped?: { reason: string; status: number } }> {
  const { files, stopped } = await runRounds({
    base: opts.root,
    head: opts.root,
    rounds: opts.rounds / 2,
    out: opts.out,
    benchArgs: opts.benchArgs,
    log: opts.log,
  });
  if (!files.base.length) return { markdown: '', stopped: stopped ?? { reason: 'no round was measured', status: 3 } };
  const { comparison } = writeComparison(files.base, files.head, () => ({ thresholds: {}, note: '' }), opts.out);
  const runs = files.base.flatMap((b, i) => [readResults(b), readResults(files.head[i]!)]);
  const rows = calibrateRuns(runs);
  const called = comparison.metrics.filter((m) => m.verdict !== 'unchanged').length;
  const machine = runs[0]!.run.machine.id;
  const noise: NoiseFile = {
    schema: NOISE_SCHEMA,
    machine,
    created: new Date().toISOString(),
    rounds: runs.length,
    thresholds: Object.fromEntries(rows.map((r) => [r.key, Number(r.threshold.toFixed(4))])),
  };
  writeFileAtomic(join(opts.out, 'noise.json'), `${JSON.stringify(noise, null, 1)}\n`);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const markdown = [
    `# A/A calibration on \`${machine}\``,
    '',
    `${runs.length} rounds of the same build, alternating as base and head. compare called ${called} of ${comparison.metrics.length} benchmark metrics significant (expected: about ${pct(0.05)} or fewer). Over every split of the rounds into two sides, the mean false-positive rate is ${pct(rows.reduce((a, r) => a + r.falsePositiveRate, 0) / Math.max(1, rows.length))}.`,
    '',
    markdownTable(
      [
        'benchmark metric',
        'CV (samples)',
        'CV (rounds)',
        'false positives',
        'MDE (95%/80%)',
        'threshold',
        'samples/side',
      ],
      rows.map((r) => [
        r.key,
        pct(r.cv),
        pct(r.roundCv),
        `${pct(r.falsePositiveRate)} of ${r.splits}`,
        pct(r.mde),
        pct(r.threshold),
        String(r.n),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    "Thresholds are max(compare's 2% minimum effect, the MDE, the 95th percentile of A/A effects); `npm run compare -- --noise noise.json` and the site (from the store) use them.",
    '',
  ].join('\n');
  writeFileAtomic(join(opts.out, 'calibration.md'), markdown);
  publishNoise(opts.store, noise);
  return { markdown, ...(stopped ? { stopped } : {}) };
}
