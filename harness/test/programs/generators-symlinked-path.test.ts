// Every experiment's input generator writes its input when its checkout is reached through a
// symlink, as the paired diff reaches both sides (…/jsio-pairs-sides-*/{base,head} are links).
// The scan and threadpool generators run main() only when import.meta.url (the real path) equals
// argv[1]; started by the link, they exited 0 with no output and every scan and threadpool point
// of every fresh PR diff failed ("Unexpected end of JSON input").
import { mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { ensureInput, parseFacts } from '../../src/plan/inputs.js';
import { ROOT } from '../helpers/cli.js';

// Small arguments per generator flag: a real input in well under a second.
const SMALL: Record<string, string> = { bytes: '65536', files: '20', lines: '200', copies: '3', seed: '1' };

describe('input generators of a checkout reached through a symlink', () => {
  const link = join(mkdtempSync(join(tmpdir(), 'jsio-gen-link-')), 'head');
  symlinkSync(ROOT, link, 'dir');
  const experiments = loadAllExperiments(join(link, 'programs')).filter((e) => e.manifest.generate);

  it('finds the generators to check', () => {
    expect(experiments.map((e) => e.id).sort()).toEqual(['records', 'scan', 'streams', 'threadpool']);
  });

  for (const exp of experiments) {
    it(`${exp.id}: writes its input and its facts`, async () => {
      const args = Object.fromEntries(
        Object.keys(exp.manifest.generate?.args ?? {}).map((k) => {
          expect(SMALL[k], `no small value for ${exp.id}'s generator flag --${k}`).toBeDefined();
          return [k, SMALL[k] as string];
        }),
      );
      const cache = mkdtempSync(join(tmpdir(), `jsio-gen-${exp.id}-`));
      const result = await ensureInput(exp, args, cache, () => {});
      expect(result.ok ? '' : result.reason).toBe('');
      if (!result.ok) return;
      expect(Object.keys(result.facts).length).toBeGreaterThan(0);
      expect(readdirSync(result.dir).length).toBeGreaterThan(1); // the input beside .facts.json
      // A failed generation leaves no half-written folder behind.
      expect(readdirSync(join(cache, 'inputs', exp.id)).filter((n) => n.includes('.tmp-'))).toEqual([]);
    });
  }

  it('a generator that prints nothing is named as such, not as a JSON parse error', () => {
    expect(() => parseFacts('')).toThrow(/printed no facts line/);
    expect(() => parseFacts('done\n')).toThrow(/last line is not JSON: "done"/);
  });
});
