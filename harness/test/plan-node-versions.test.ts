// --param node=<major> picks among the Node majors the manifests list; node variants run once
// per chosen major, other variants are unaffected.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/lib/errors.js';
import { CURRENT_NODE_MAJOR } from '../src/machine/toolchains.js';
import { loadExperiment } from '../src/plan/experiments.js';
import { expand } from '../src/plan/plan.js';
import { ROOT } from './helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const majors = [...new Set([CURRENT_NODE_MAJOR, '22', '24'])];

describe('node versions', () => {
  it('runs node variants under every listed major by default, each as a runtime and a parameter', () => {
    const points = expand([wc], 'smoke', { variants: ['node-pipe'], params: { bs: [65536] } });
    expect(points.map((p) => [p.runtime, p.params.node])).toEqual(majors.map((m) => [`node@${m}`, m]));
  });

  it('keeps only the chosen majors, and leaves other variants alone', () => {
    const points = expand([wc], 'smoke', { variants: ['c', 'node-stream'], params: { node: ['24'], bs: [4096] } });
    expect(points.map((p) => p.id)).toEqual(['wc/c/bs=4096', 'wc/node-stream/bs=4096,node=24']);
  });

  // A major no manifest lists must not silently drop every node variant.
  it('refuses a major no manifest lists, naming the valid ones', () => {
    let err: unknown;
    try {
      expand([wc], 'smoke', { variants: ['c', 'node-stream'], params: { node: ['18'] } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `unknown node version "18"; valid node versions: ${[...majors].sort().join(', ')}`,
    );
  });

  it('takes a list per profile, so a short profile can run only the current node', () => {
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
      expand([perProfile], profile, { variants: ['node-pipe'], params: { bs: [65536] } }).map((p) => p.params.node);
    expect(at('quick')).toEqual([CURRENT_NODE_MAJOR]);
    expect(at('standard')).toEqual(majors);
    expect(() => expand([perProfile], 'quick', { variants: ['node-pipe'], params: { node: ['24'] } })).toThrow(
      `unknown node version "24"; valid node versions: ${CURRENT_NODE_MAJOR}`,
    );
  });
});
