// One mechanism for "the same program under another runtime or version": every JavaScript point
// has the parameter `runtime` (node20, node22, node24, bun, deno, just). --param runtime=... picks
// among the runtimes the manifests list; other variants are unaffected.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { CURRENT_NODE_MAJOR } from '../../src/machine/toolchains.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const streams = loadExperiment(join(ROOT, 'programs', 'streams'));
const majors = [...new Set([CURRENT_NODE_MAJOR, '22', '24'])];

describe('runtimes as a parameter', () => {
  it('runs node variants under every listed major by default, each as a runtime and a parameter', () => {
    const points = expand([wc], 'smoke', { variants: ['node-pipe'], params: { bs: [65536] } });
    expect(points.map((p) => [p.runtime, p.params.runtime])).toEqual(majors.map((m) => [`node@${m}`, `node${m}`]));
  });

  it('runs one program under several runtimes as points of one variant, not as copies', () => {
    const points = expand([streams], 'smoke', { variants: ['core-transform'], params: { n: [0], mode: ['sync'] } });
    expect(points.map((p) => p.id)).toEqual([
      `streams/core-transform/mode=sync,n=0,runtime=node${CURRENT_NODE_MAJOR}`,
      'streams/core-transform/mode=sync,n=0,runtime=bun',
      'streams/core-transform/mode=sync,n=0,runtime=deno',
    ]);
    expect(new Set(points.map((p) => p.variant.source))).toEqual(new Set(['streams-core-transform-node.mjs']));
  });

  it('keeps only the chosen runtimes, and leaves native variants alone', () => {
    const points = expand([wc], 'smoke', {
      variants: ['c', 'node-stream'],
      params: { runtime: ['node24'], bs: [4096] },
    });
    expect(points.map((p) => p.id)).toEqual(['wc/c/bs=4096', 'wc/node-stream/bs=4096,runtime=node24']);
  });

  // A runtime no manifest lists must not silently drop every JavaScript point.
  it('refuses a runtime no variant runs under, naming the valid ones', () => {
    let err: unknown;
    try {
      expand([wc], 'smoke', { variants: ['c', 'node-stream'], params: { runtime: ['node18'] } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/^unknown runtime "node18"; valid runtimes: .*node24/);
  });

  it('takes a Node list per profile, so a short profile can run only the current node', () => {
    const perProfile = {
      ...wc,
      manifest: {
        ...wc.manifest,
        runtimes: {
          node: {
            smoke: ['current'],
            quick: ['current'],
            standard: ['current', '22', '24'],
            full: ['current', '22', '24'],
          },
        },
      },
    };
    const at = (profile: 'quick' | 'standard') =>
      expand([perProfile], profile, { variants: ['node-pipe'], params: { bs: [65536] } }).map((p) => p.params.runtime);
    expect(at('quick')).toEqual([`node${CURRENT_NODE_MAJOR}`]);
    expect(at('standard')).toEqual(majors.map((m) => `node${m}`));
    expect(() => expand([perProfile], 'quick', { variants: ['node-pipe'], params: { runtime: ['node24'] } })).toThrow(
      /unknown runtime "node24"/,
    );
  });
});
