// An unknown key (a typo such as "comand", or a field from a newer schema) is named by its full
// path and its value, so the error points at the line to fix rather than quoting its parent.
import { describe, expect, it } from 'vitest';
import { parseMutated } from '../helpers/manifest.js';

const good = {
  schema: 1,
  title: 't',
  question: 'q',
  parameters: { bs: { description: 'block', values: { smoke: [1], quick: [1], standard: [1], full: [1] } } },
  profiles: Object.fromEntries(['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0 }])),
  variants: [
    { id: 'wc', description: 'd', runtime: 'system', command: 'wc -c', output: 'number', numberField: 'bytes' },
  ],
  headline: { at: { bs: 1 }, metrics: ['throughput'] },
};

function message(mutate: (m: any) => void): string {
  const r = parseMutated(good, mutate);
  return r === 'valid' ? r : r.message.replace(/^\S+\/manifest\.json/, '/p/x/manifest.json');
}

describe('an unknown key in a manifest', () => {
  it('accepts the baseline', () => {
    expect(message(() => {})).toBe('valid');
  });

  // zod reports unknown keys on their parent object; the error must name the key's own path.
  it.each([
    ['at the top level', (m: any) => (m.colour = 'red'), '  colour: unknown key (got "red")'],
    ['in a variant', (m: any) => (m.variants[0].comand = 'wc -l'), '  variants.0.comand: unknown key (got "wc -l")'],
    ['in a profile', (m: any) => (m.profiles.quick.warmups = 3), '  profiles.quick.warmups: unknown key (got 3)'],
  ])('%s is named by its path and value', (_where, mutate, line) => {
    expect(message(mutate)).toBe(`/p/x/manifest.json is invalid:\n${line}`);
  });
});
