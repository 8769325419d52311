// A number beyond what a double holds (1e999 in the text) parses as Infinity, and the error named
// it "(got null)", JSON's spelling of a non-finite number: the message now shows the value read.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Num } from '../../src/formats/parts/fields.js';
import { parseJson } from '../../src/lib/json-file.js';

const schema = z.object({ v: Num }).strict();

describe('a number no file may hold', () => {
  it('is named as read: Infinity, not null', () => {
    expect(() => parseJson('f.json', '{"v": 1e999}', schema)).toThrow(
      'v: Invalid input: expected number, received Infinity (got Infinity)',
    );
    expect(() => parseJson('f.json', '{"v": -1e999}', schema)).toThrow('(got -Infinity)');
  });

  it('a large finite one is refused with its value', () => {
    expect(() => parseJson('f.json', '{"v": 1.7e308}', schema)).toThrow('(got 1.7e+308)');
  });
});
