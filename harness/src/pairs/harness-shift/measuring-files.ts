/**
 * Which files make up the harness's measuring code, and which of them a pull request changed.
 * Pure: the listings and the bytes come in from ./harness-change.ts.
 *
 * By exclusion: every file under harness/ (the sources, the bootstrap, the pins, the C tools and
 * scripts), the package.json fields npm and the bootstrap act on (its scripts among them),
 * tsconfig.json (the bundler reads it) and the lockfile entries of the packages the harness loads
 * is measuring code, unless it stands on NOT_MEASURING below: files that run only after the
 * numbers exist, or never in a diff. A file added later counts until it is listed there.
 */

/** Files that cannot move a number, each entry with the reason; harness/test/lib checks every path exists. */
export const NOT_MEASURING: readonly { paths: readonly string[]; reason: string }[] = [
  { paths: ['harness/test/'], reason: 'tests: vitest runs them, never bench or pairs' },
  { paths: ['harness/src/site/'], reason: 'builds the site from results already written' },
  {
    paths: [
      'harness/src/report/answers.ts',
      'harness/src/report/comparison-sections.ts',
      'harness/src/report/metric-labels.ts',
      'harness/src/report/overview-answer.ts',
      'harness/src/report/overview-model.ts',
      'harness/src/report/ratios.ts',
      'harness/src/report/summary-model.ts',
      'harness/src/report/summary.ts',
    ],
    reason: "report text: summary.md and the tables printed after the run (not gab.ts, which makes the trends' values)",
  },
  {
    // Not comparison-json.ts or down-level.ts: they make the document the comment job judges.
    paths: [
      'harness/src/pairs/comment/comment.ts',
      'harness/src/pairs/comment/forest-chart.ts',
      'harness/src/pairs/comment/moved-lists.ts',
      'harness/src/pairs/comment/plan-text.ts',
      'harness/src/pairs/comment/point-tables.ts',
      'harness/src/pairs/comment/summary-table.ts',
      'harness/src/counts/count-breakdown-text.ts',
      'harness/src/counts/count-verdict-text.ts',
    ],
    reason: "the PR comment's text, written from verdicts made elsewhere (pairs/decide/)",
  },
  {
    paths: ['harness/src/releases/counter-groups.ts', 'harness/src/releases/spread-text.ts'],
    reason: "the release sweep's text, written after it measured",
  },
  { paths: ['harness/src/calibration/figures.ts'], reason: "calibration's text, written after it measured" },
  {
    paths: [
      'harness/src/cli/commands/transcript.ts',
      'harness/src/formats/transcript-format.ts',
      'harness/src/pairs/harness-shift/transcript-compare.ts',
      'harness/src/pairs/harness-shift/transcript-places.ts',
      'harness/src/pairs/harness-shift/transcript-record.ts',
      'harness/src/pairs/harness-shift/transcript-starts.ts',
    ],
    reason: 'records and compares what a harness runs (npm run transcript): never run by bench or pairs',
  },
  {
    paths: [
      'harness/tools/setup-runner.sh',
      'harness/tools/runner-job-started.sh',
      'harness/tools/runner-job-completed.sh',
    ],
    reason:
      "a runner's set-up and hooks: its administrator installs them from the default branch; no diff runs a pull request's copy",
  },
  { paths: ['harness/tools/publish-to-branch.sh'], reason: 'publishes results already measured to a branch' },
];

/** package.json fields that only describe the project: nothing npm, the bootstrap or a runtime acts on. */
const PACKAGE_PRESENTATION = ['description', 'license', 'author', 'homepage', 'keywords', 'repository', 'bugs'];

/** Whether a repository-relative path stands on NOT_MEASURING (an entry ending in "/" is a folder). */
export function notMeasuring(file: string): boolean {
  return NOT_MEASURING.some((e) => e.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/**
 * The measuring files among a checkout's files under harness/, plus the root files that count:
 * tsconfig.json (esbuild reads it) and .npmrc (npm reads it for every `npm run` that starts the
 * harness; a file on one side only counts, as elsewhere).
 */
export function measuringFiles(harnessListing: readonly string[]): string[] {
  return [...harnessListing.filter((f) => !notMeasuring(f)), '.npmrc', 'tsconfig.json'].sort();
}

/** Bytes of a file on one side, or undefined where that side has no such file. */
export type ReadSide = (file: string) => Uint8Array | undefined;

/** The files whose bytes differ between the sides (a file missing on one side differs). */
export function changedFiles(files: readonly string[], base: ReadSide, head: ReadSide): string[] {
  return files.filter((f) => {
    const a = base(f);
    const b = head(f);
    if (!a || !b) return a !== b;
    return Buffer.compare(a, b) !== 0;
  });
}

/** package.json as measuring code: every field but the presentation ones, as stable JSON. */
export function packageFields(text: string | undefined): string {
  if (text === undefined) return 'absent';
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    for (const f of PACKAGE_PRESENTATION) delete pkg[f];
    return JSON.stringify(pkg);
  } catch {
    return text;
  }
}

/**
 * Packages pinned differently on the two sides ("package zod"), sorted. A side with a package its
 * lockfile does not pin (undefined) differs in its lockfile as a whole: failing closed.
 */
export function changedPins(
  base: Readonly<Record<string, string>> | undefined,
  head: Readonly<Record<string, string>> | undefined,
): string[] {
  if (!base || !head) return ['package-lock.json'];
  const names = [...new Set([...Object.keys(base), ...Object.keys(head)])].sort();
  return names.filter((n) => base[n] !== head[n]);
}

/** Whether every changed entry is a TypeScript source of the harness (what compiling can prove unchanged). */
export const onlySources = (changed: readonly string[]) =>
  changed.every((f) => f.startsWith('harness/src/') && f.endsWith('.ts'));
