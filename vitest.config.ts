import { defineConfig } from 'vitest/config';

/**
 * Test files that run alone, one at a time after the others: those that measure for real
 * (hyperfine sweeps, paired diffs, calibration, workflow replays, the shared smoke run), so no two
 * compete for the two cores, and one that counts what is in the run's shared scratch directory.
 * Everything else (parsers, statistics, renderers, the CLI's refusals and stores, the site in a
 * browser, builds that time nothing such as install-just's, and BRIEF below) runs two files at a
 * time first. `npm test` instead runs the serial files and the others as two vitest processes side
 * by side, each one file at a time (harness/bootstrap.mjs). harness/test/lib/serial-tests.test.ts
 * checks that every file starting a measurement is listed here or in BRIEF.
 */
export const SERIAL = [
  '**/*.integration.test.ts',
  '**/*.act.test.ts',
  'harness/test/cli/docs-commands.test.ts',
  'harness/test/cli/bad-input-untouched.test.ts',
  'gh-pages/test/site-real-run.e2e.test.ts',
  'gh-pages/test/site-perf.e2e.test.ts',
  'harness/test/programs/*-smoke.test.ts',
  'harness/test/programs/scan-counts-agree.test.ts',
  'harness/test/pipeline/**',
  'harness/test/run/program-env.test.ts',
  'harness/test/run/self-runner.test.ts',
  'harness/test/run/eviction.test.ts',
  'harness/test/machine/cpu-profile.test.ts',
  'harness/test/model/runtime-families.test.ts',
  'harness/test/pairs/diff/pairs.test.ts',
  'harness/test/workflow/replay.test.ts',
  'harness/test/store/noise-thresholds.test.ts',
  'harness/test/tools/bootstrap-path.test.ts',
  'harness/test/machine/tools-system-dirs.test.ts',
  'harness/test/workflow/gab-gate.test.ts',
  // Counts the browser profiles in the shared TMPDIR: another file's browser would be counted.
  'harness/test/site/scratch-tmpdir.test.ts',
];

/**
 * Files the globs above take that measure only briefly and assert nothing a busy machine changes:
 * work counted under Valgrind and exact syscall counters, which do not depend on the load, with
 * timed runs that none of their assertions read. Their counting keeps both cores busy for long
 * stretches, which the serial files need not wait for: they run with the others (project
 * `brief`), one at a time beside the serial ones under `npm test`.
 */
export const BRIEF = [
  'harness/test/pipeline/counts.integration.test.ts',
  'harness/test/releases/work.integration.test.ts',
  'harness/test/pairs/work-verdict.integration.test.ts',
  'harness/test/pairs/stored-base.integration.test.ts',
  // A sandboxed bench whose only assertion is which dd its input pipe ran.
  'harness/test/machine/tools-system-dirs.test.ts',
  // Recordings under strace: their timed runs are thrown away, the transcripts do not depend on load.
  'harness/test/pairs/harness-shift/transcript-record.integration.test.ts',
  'harness/test/pairs/harness-shift/sandbox-replay.integration.test.ts',
  'harness/test/workflow/harness-mark.integration.test.ts',
  // ci.yml under act: a typecheck, the linters and one static test file, nothing timed.
  'harness/test/workflow/act/ci.act.test.ts',
  // releases.yml and calibrate.yml under act: one release's wc suite counted under Valgrind, and
  // an A/A and a planted diff of wc at smoke; no assertion reads a time or a verdict.
  'harness/test/workflow/act/releases.act.test.ts',
  'harness/test/workflow/act/calibrate.act.test.ts',
];

const ALL = ['harness/test/**/*.test.ts', 'gh-pages/test/**/*.test.ts'];
// Integration tests run real gcc, hyperfine and strace: give them room on 2 cores.
const timeouts = { testTimeout: 180_000, hookTimeout: 180_000 };

export default defineConfig({
  test: {
    include: ALL,
    // A scratch TMPDIR per run, removed at its end (tests make GBs of temporary git worlds). Set
    // once here, for both projects: a project of its own would make a second one.
    globalSetup: ['harness/test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'parallel',
          include: ALL,
          exclude: SERIAL,
          ...timeouts,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'brief',
          include: BRIEF,
          ...timeouts,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Real benchmarks must not compete with each other for the two cores.
        test: {
          name: 'serial',
          include: SERIAL,
          exclude: BRIEF,
          ...timeouts,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
