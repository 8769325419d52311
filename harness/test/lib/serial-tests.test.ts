// The test files that measure for real run one at a time (vitest.config.ts, SERIAL); the rest
// run two at a time, with those that measure only briefly and assert only what load does not
// change (BRIEF). A new file that starts a benchmark, a paired diff, a calibration, a release
// measure or a workflow replay and is listed in neither would compete with another for the cores:
// this finds it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIEF, SERIAL } from '../../../vitest.config.js';
import { ROOT } from '../helpers/cli.js';

/** What starts a measurement from a test: the CLI's measuring commands, the shared run, a replay. */
const STARTS_MEASURING = [
  /'bench',\s*(?:\.\.\.\w+,\s*)?'--(?:profile|programs|experiments|variants)'/,
  /\[\s*'(?:pairs|calibrate)',/,
  /'releases',\s*'(?:measure|nightly)'/,
  /\bbench\(\{/,
  /\b(?:sharedSmokeRun|makeWorld|runJob|runAct)\(/,
];

/** A glob of vitest.config.ts as a regular expression (`**` any folders, `*` within one name). */
function globRegex(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) =>
      part === '**/'
        ? '(?:.*/)?'
        : part === '**'
          ? '.*'
          : part === '*'
            ? '[^/]*'
            : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`);
}

const testFiles = ['harness/test', 'gh-pages/test'].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name))),
);
const serial = (file: string) => SERIAL.some((g) => globRegex(g).test(file)) && !BRIEF.includes(file);

/**
 * Files that only spell a bench command line as data (an expected argument list), or run one that
 * measures nothing (`pairs --plan`, a refused trusted plan).
 */
const NAMES_A_COMMAND_ONLY = [
  'harness/test/pairs/harness-shift/sample.test.ts',
  'harness/test/pairs/diff/what-to-measure.test.ts',
  'harness/test/workflow/replan.test.ts',
];

describe('the test files that run alone', () => {
  it('globs like vitest: ** any folders, * within a name', () => {
    expect(globRegex('**/*.integration.test.ts').test('harness/test/a/b.integration.test.ts')).toBe(true);
    expect(globRegex('harness/test/pipeline/**').test('harness/test/pipeline/x/y.test.ts')).toBe(true);
    expect(globRegex('harness/test/programs/*-smoke.test.ts').test('harness/test/programs/a/b-smoke.test.ts')).toBe(
      false,
    );
  });

  it('are listed in vitest.config.ts when they start a measurement', () => {
    const unlisted = testFiles.filter(
      (f) =>
        STARTS_MEASURING.some((p) => p.test(readFileSync(join(ROOT, f), 'utf8'))) &&
        !serial(f) &&
        !BRIEF.includes(f) &&
        !NAMES_A_COMMAND_ONLY.includes(f),
    );
    expect(unlisted).toEqual([]);
  });

  it('name files that exist (a renamed file would silently run in parallel)', () => {
    for (const f of NAMES_A_COMMAND_ONLY) expect(testFiles, f).toContain(f);
    for (const g of SERIAL.filter((x) => !x.includes('*'))) expect(existsSync(join(ROOT, g)), g).toBe(true);
    for (const f of BRIEF) expect(testFiles, f).toContain(f);
    for (const g of SERIAL)
      expect(
        testFiles.some((f) => globRegex(g).test(f)),
        g,
      ).toBe(true);
  });
});
