// Every expression and template in a manifest is checked when it is loaded, before anything is
// built or measured: a syntax error, an unknown function, name or placeholder is refused with
// the file, the field path and the bad value.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { parseMutated } from '../helpers/manifest.js';

const good = {
  schema: 1,
  title: 't',
  question: 'q',
  parameters: { bs: { description: 'block', unit: 'B', values: { smoke: [1], quick: [1], standard: [1], full: [1] } } },
  profiles: Object.fromEntries(
    ['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0, constants: { max: 10 } }]),
  ),
  derive: { count: 'floor(max / bs)', bytes: 'count * bs' },
  input: { pipe: 'dd if=/dev/zero bs={bs} count={count} status=none' },
  throughputBytes: 'bytes',
  reports: { bytes: { unit: 'B', direction: 'bigger' } },
  validate: [{ field: 'bytes', equals: 'count * bs' }],
  variants: [
    { id: 'c', description: 'd', runtime: 'native', source: 'x-c.c', build: { kind: 'gcc' }, command: '{bin} {bs}' },
    {
      id: 'n',
      description: 'd',
      runtime: 'node',
      source: 'x-node.js',
      command: '{js} {bs} {count} {scratch} {dir}',
    },
  ],
  headline: { at: { bs: 1 }, metrics: ['throughput'] },
};

const load = (mutate: (m: any) => void) => parseMutated(good, mutate, ['x-c.c', 'x-node.js']);

describe('expressions in a manifest', () => {
  it('accepts the baseline, whose names all resolve', () => {
    expect(load(() => {})).toBe('valid');
  });

  it('refuses an unknown name in derive', () => {
    const err = load((m) => (m.derive.count = 'floor(maxx / bs)'));
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /manifest\.json is invalid:\n {2}derive\.count: unknown name "maxx" in profile smoke \(got "floor\(maxx \/ bs\)"\)/,
    );
  });

  // BUG (harness/src/plan/experiments.ts checkConsistency): only names in `derive` are checked.
  // A character the tokenizer rejects throws a plain Error with neither file nor field (the CLI
  // prints an internal error with a stack); syntax errors and unknown functions surface only at
  // plan time without file or field; validate/throughputBytes expressions and command/input
  // templates are not checked at all and abort the run mid-way when the first point reaches
  // them. Unskip once checkConsistency checks every expression and template.
  it.each([
    [
      'a character the language lacks in derive',
      (m: any) => (m.derive.count = 'max; 1'),
      /derive\.count: unexpected character at 3: "; 1" \(got "max; 1"\)/,
    ],
    [
      'a syntax error in derive',
      (m: any) => (m.derive.count = 'floor(max /'),
      /derive\.count: unexpected end \(got "floor\(max \/"\)/,
    ],
    [
      'an unknown function in derive',
      (m: any) => (m.derive.count = 'sqrt(max)'),
      /derive\.count: unknown function "sqrt" \(got "sqrt\(max\)"\)/,
    ],
    [
      'an unknown name in a check',
      (m: any) => (m.validate[0].equals = 'count * bss'),
      /validate\.0\.equals: unknown name "bss" in profile smoke \(got "count \* bss"\)/,
    ],
    [
      'a syntax error in a check',
      (m: any) => (m.validate[0].equals = 'count *'),
      /validate\.0\.equals: unexpected end \(got "count \*"\)/,
    ],
    [
      'an unknown name in throughputBytes',
      (m: any) => (m.throughputBytes = 'byts'),
      /throughputBytes: unknown name "byts" in profile smoke \(got "byts"\)/,
    ],
    [
      'an unknown placeholder in a command',
      (m: any) => (m.variants[0].command = '{bin} {blocksize}'),
      /variants\.0\.command: unknown placeholder \{blocksize\} \(got "\{bin\} \{blocksize\}"\)/,
    ],
    [
      'a runtime placeholder of another runtime',
      (m: any) => (m.variants[1].command = '{bun} {src}'),
      /variants\.1\.command: unknown placeholder \{bun\} \(got "\{bun\} \{src\}"\)/,
    ],
    [
      'an unknown placeholder in the input pipe',
      (m: any) => (m.input.pipe = 'dd bs={blk}'),
      /input\.pipe: unknown placeholder \{blk\} \(got "dd bs=\{blk\}"\)/,
    ],
  ])('refuses %s, naming the file, the field and the value', (_what, mutate, message) => {
    const err = load(mutate);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/manifest\.json is invalid:\n/);
    expect((err as Error).message).toMatch(message);
  });
});
