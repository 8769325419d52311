// What a breakdown knows of a point's processes that callgrind's files cannot say: whose
// executable is the program itself and whose is a runtime running a script, and where code in no
// object file is JIT code — for every kind of variant the wc experiment has.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileContext } from '../../src/counts/callgrind.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const wc = expand(loadAllExperiments(join(ROOT, 'programs')), 'smoke', { experiments: ['wc'] });
const contextOf = (variant: string) => profileContext(jobOf(wc.find((p) => p.variant.id === variant)!));

describe('the context of a breakdown', () => {
  it.each([
    ['c', { executable: 'program', jit: false }],
    ['system-wc', { executable: 'program', jit: false }],
    ['just-static', { executable: 'program', jit: true }],
    ['just-sync', { executable: 'runtime', jit: true }],
    ['readsync', { executable: 'runtime', jit: true }],
  ])('%s', (variant, context) => {
    expect(contextOf(variant)).toEqual(context);
  });
});
