// Parameter values are checked at plan time against what each manifest declares (`accepts`):
// `--param bs=-1`, `bs=4096.5`, `bs=1e3`, `bs=abc` and `bs=0` used to pass planning (or blame
// derive.count, or say "got NaN"), run 14 programs that all failed, and reach the history. A
// repeated `--param bs=...` silently kept the last. Each is now one line naming the parameter,
// the value and what is allowed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseParamFlags } from '../../src/cli/args.js';
import { UserError } from '../../src/lib/errors.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { parseMutated } from '../helpers/manifest.js';

const all = loadAllExperiments(join(ROOT, 'programs'));
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};
const plan = (flags: string[], experiments = ['wc']) =>
  expand(all, 'smoke', { experiments, params: parseParamFlags(flags) });

describe('--param values against the manifest', () => {
  it.each([
    ['bs=-1', '-1'],
    ['bs=4096.5', '4096.5'],
    ['bs=1e3', '1e3'],
    ['bs=abc', 'abc'],
    ['bs=0', '0'],
    ['bs=3000', '3000'],
    ['bs=33554432', '33554432'],
  ])('refuses %s in one line naming parameter, value and what is allowed', (flag, value) => {
    const msg = refusal(() => plan([flag]));
    expect(msg).toBe(`--param bs=${value}: wc's bs must be an integer from 16 to 16777216, a power of two`);
    expect(msg).not.toContain('\n');
  });

  it('accepts values inside the declaration, listed in no profile', () => {
    expect(plan(['bs=131072']).every((p) => p.params.bs === 131072)).toBe(true);
  });

  it('refuses a word outside an enumeration, listing the words', () => {
    expect(refusal(() => plan(['cache=hot'], ['scan']))).toBe(
      "--param cache=hot: scan's cache must be one of cold, warm",
    );
  });

  it('checks every chosen experiment that has the parameter', () => {
    expect(refusal(() => plan(['pool=2048'], ['threadpool']))).toBe(
      "--param pool=2048: threadpool's pool must be an integer from 1 to 1024",
    );
  });

  it('refuses a parameter given twice, and a value listed twice', () => {
    expect(refusal(() => parseParamFlags(['bs=4096', 'bs=8192']))).toBe(
      '--param bs is given twice (bs=4096 and bs=8192)',
    );
    expect(refusal(() => parseParamFlags(['bs=4096,4096']))).toBe(
      '--param bs=4096,4096: the value 4096 is listed twice',
    );
  });
});

describe('the declarations', () => {
  it('every parameter of every experiment declares what it accepts', () => {
    for (const e of all)
      for (const [name, spec] of Object.entries(e.manifest.parameters))
        expect(spec.accepts, `${e.id}.${name}`).toBeDefined();
  });

  it('a manifest whose own values break its declaration is refused, naming the value', () => {
    const wc = all.find((e) => e.id === 'wc')!;
    const r = parseMutated(wc.manifest, (m) => {
      m.parameters.bs.values.smoke = [4096, 3000];
    });
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toContain(
      'parameters.bs.values.smoke: 3000 is not an integer from 16 to 16777216, a power of two',
    );
  });
});
