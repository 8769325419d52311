// The just(js) programs exist and parse as JavaScript, and where `just` is absent their
// variants resolve to skipped with the install hint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPins, resolveRuntime } from '../../src/machine/toolchains.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { planJobs } from '../../src/plan/jobs.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const justVariants = wc.manifest.variants.filter((v) => v.runtime === 'just');

describe('just(js) variants', () => {
  it('are sync, async and static', () => {
    expect(justVariants.map((v) => v.id)).toEqual(['just-sync', 'just-async', 'just-static']);
  });

  it.each(['wc-just-sync.js', 'wc-just-async.js', 'wc-just-static.config.js'])('%s parses as a script', (file) => {
    const text = readFileSync(join(wc.dir, file), 'utf8');
    expect(() => new Function('just', 'module', text)).not.toThrow();
  });

  it('the static config makes the program its entry point', () => {
    const mod = { exports: {} as { main?: string } };
    new Function('module', readFileSync(join(wc.dir, 'wc-just-static.config.js'), 'utf8'))(mod);
    expect(mod.exports.main).toBe('wc-just-sync.js');
  });

  it('resolve to skipped with the install hint when just is absent', async () => {
    const saved = { PATH: process.env.PATH, JUST_HOME: process.env.JUST_HOME };
    process.env.PATH = '/usr/bin:/bin';
    delete process.env.JUST_HOME;
    try {
      const just = await resolveRuntime(
        'just',
        readPins(join(ROOT, 'harness', 'toolchains.json')),
        '/nonexistent',
        () => {},
      );
      expect(just).toMatchObject({ ok: false, reason: expect.stringContaining('just(js) is not installed') });
      const jobs = planJobs(expand([wc], 'smoke', { variants: justVariants.map((v) => v.id) }), {
        runtimes: new Map([['just', just]]),
        inputs: new Map(),
        cacheDir: '/nonexistent',
        require: [],
      });
      expect(jobs).toHaveLength(6);
      for (const j of jobs) {
        expect(j.blocked?.reason).toContain('just(js) is not installed');
        expect(j.blocked?.hint).toMatch(/install just\(js\) 0\.1\.13 from its upstream release/);
      }
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.JUST_HOME) process.env.JUST_HOME = saved.JUST_HOME;
    }
  });
});
