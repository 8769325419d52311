// The structure guard's fixture held `runtime=node20` in its ids: under Node 22 or 24, which the
// README allows, the guard failed. The Node running the tests is masked like the CPU model is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { maskCurrentNode } from '../helpers/structure.js';

const CURRENT = process.versions.node.split('.')[0]!;

describe('the structure fixture', () => {
  it('names no Node major', () => {
    const text = readFileSync(join(FIXTURES, 'structure', 'smoke-structure.json'), 'utf8');
    expect(text.match(/\bnode\d+\b/g) ?? []).toEqual([]);
    expect(text).toContain('runtime=node<current>');
  });

  it('masks the current Node in ids and series names, and only it', () => {
    const masked = maskCurrentNode({
      id: `wc/node-stream/bs=65536,runtime=node${CURRENT}`,
      gab: `wc node-stream node${CURRENT} throughput`,
      other: `runtime=node${CURRENT}0`,
    });
    expect(masked).toEqual({
      id: 'wc/node-stream/bs=65536,runtime=node<current>',
      gab: 'wc node-stream node<current> throughput',
      other: `runtime=node${CURRENT}0`,
    });
  });
});
