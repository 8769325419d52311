// --require <runtime>: on a benchmark runner a missing runtime is an error (a UserError the CLI
// prints with its hint), not a skipped variant; runtimes that resolved are left alone.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import type { Resolved } from '../../src/machine/toolchains.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { planJobs } from '../../src/plan/jobs.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const ok: Resolved = { ok: true, path: '/usr/bin/x', version: '1' };
const missing = (what: string): Resolved => ({
  ok: false,
  reason: `${what} is not installed`,
  hint: `install ${what}`,
});

const applyRuntimes = (points: ReturnType<typeof expand>, runtimes: Map<string, Resolved>, require: string[]) =>
  planJobs(points, { runtimes, inputs: new Map(), cacheDir: '/nonexistent', require });

const errorOf = (f: () => unknown): UserError => {
  try {
    f();
  } catch (e) {
    return e as UserError;
  }
  throw new Error('expected an error');
};

describe('--require', () => {
  const points = expand([wc], 'smoke', {
    variants: ['c', 'node-stream', 'just-sync'],
    params: { runtime: ['node22', 'just'] },
  });

  it('fails on a missing required runtime with its reason and install hint', () => {
    const err = errorOf(() =>
      applyRuntimes(
        points,
        new Map([
          ['gcc', ok],
          ['node@22', ok],
          ['just', missing('just(js)')],
        ]),
        ['just'],
      ),
    );
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe('required runtime just is unavailable: just(js) is not installed');
    expect(err.hint).toBe('install just(js)');
  });

  it('matches a runtime family by name: node covers node@22', () => {
    const err = errorOf(() =>
      applyRuntimes(
        points,
        new Map([
          ['gcc', ok],
          ['node@22', missing('node 22')],
          ['just', ok],
        ]),
        ['node'],
      ),
    );
    expect(err.message).toBe('required runtime node@22 is unavailable: node 22 is not installed');
  });

  it('only skips when the missing runtime is not required', () => {
    const resolved = new Map([
      ['gcc', ok],
      ['node@22', ok],
      ['just', missing('just(js)')],
    ]);
    const out = applyRuntimes(points, resolved, ['node', 'gcc']);
    expect(out.filter((p) => p.blocked).map((p) => p.id)).toEqual([
      'wc/just-sync/bs=4096,runtime=just',
      'wc/just-sync/bs=65536,runtime=just',
    ]);
    expect(out.filter((p) => !p.blocked).map((p) => p.runtime)).toEqual(['gcc', 'gcc', 'node@22', 'node@22']);
  });

  it('leaves every point runnable when all runtimes resolved', () => {
    const out = applyRuntimes(
      points,
      new Map([
        ['gcc', ok],
        ['node@22', ok],
        ['just', ok],
      ]),
      ['just', 'node'],
    );
    expect(out.every((p) => p.blocked === undefined)).toBe(true);
    expect(out).toHaveLength(6);
  });
});
