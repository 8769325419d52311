// The release catalogue over real registry answers (`npm view PKG time --json`, saved in
// fixtures/registry, trimmed to Node 20-24): lines, order, filters, the first release of each
// minor, canaries, intermediate builds, and what a store already has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import {
  catalogRows,
  parseRegistryTimes,
  type Release,
  releasesBetween,
  selectReleases,
} from '../../src/model/release-catalog.js';
import { sweepOrder } from '../../src/releases/suite-plan.js';

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'registry', `${name}-time.json`), 'utf8'),
  ) as unknown;
const node = parseRegistryTimes('node', fixture('node'), 'node-time.json');
const bun = parseRegistryTimes('bun', fixture('bun'), 'bun-time.json');
const deno = parseRegistryTimes('deno', fixture('deno'), 'deno-time.json');

describe('parsing the registry answer', () => {
  it('keeps versions only, in version order, each on its line', () => {
    expect(node.map((r) => r.version).slice(0, 3)).toEqual(['0.10.0', '20.0.0', '20.1.0']);
    expect(node.at(-1)).toMatchObject({ version: '24.21.0', line: 'node24', canary: false });
    expect(new Set(node.map((r) => r.line))).toEqual(new Set(['node0', 'node20', 'node22', 'node24']));
    expect(deno.every((r) => r.line === 'deno')).toBe(true);
    expect(bun.filter((r) => r.canary)).toHaveLength(36);
  });

  it('refuses an answer whose date does not parse, naming the version', () => {
    expect(() => parseRegistryTimes('node', { '22.4.1': 'yesterday' }, 'f.json')).toThrow(
      /^f\.json: "22\.4\.1": not a date/,
    );
    expect(() => parseRegistryTimes('node', ['22.4.1'], 'f.json')).toThrow(UserError);
  });
});

describe('selecting releases', () => {
  it('--since, --until and --line', () => {
    const v = selectReleases(node, { since: '22.22.0', until: '24.0.2', lines: ['node22'] }).map((r) => r.version);
    expect(v).toEqual(['22.22.0', '22.22.1', '22.22.2', '22.22.3', '22.23.0', '22.23.1', '22.23.2', '22.23.3']);
    expect(() => selectReleases(node, { lines: ['node21'] })).toThrow(/--line node21: no such release line; lines: /);
  });

  it('--every minor takes the first release of each minor', () => {
    const v = selectReleases(node, { since: '24.0.0', until: '24.5.0', every: 'minor' }).map((r) => r.version);
    expect(v).toEqual(['24.0.0', '24.1.0', '24.2.0', '24.3.0', '24.4.0', '24.5.0']);
    expect(selectReleases(node, { lines: ['node20'], every: 'minor' })).toHaveLength(21);
  });

  it('leaves Bun canaries out unless asked, and orders them before their release', () => {
    expect(selectReleases(bun, { since: '1.4.2', until: '1.4.2' }).map((r) => r.version)).toEqual(['1.4.2']);
    const withCanaries = selectReleases(bun, { since: '1.4.1', until: '1.4.2', canaries: true });
    expect(withCanaries.map((r) => r.version)).toEqual([
      '1.4.1',
      '1.4.2-canary.20260906.1',
      '1.4.2-canary.20260916.1',
      '1.4.2-canary.20260928.1',
      '1.4.2',
    ]);
  });

  it('lists the intermediate builds between two releases (patches; canaries)', () => {
    expect(releasesBetween(node, 'node24', '24.4.0', '24.5.0').map((r) => r.version)).toEqual(['24.4.1']);
    expect(releasesBetween(bun, 'bun', '1.4.1', '1.4.2')).toHaveLength(3);
  });
});

describe('what the store has', () => {
  it('marks measured releases, per line', () => {
    const rows = catalogRows(selectReleases(node, { since: '22.23.2', until: '24.0.0' }), new Set(['node@22.23.3']));
    expect(rows).toEqual([
      { line: 'node22', version: '22.23.2', date: '2026-07-30', measured: false },
      { line: 'node22', version: '22.23.3', date: '2026-09-24', measured: true },
      { line: 'node24', version: '24.0.0', date: expect.any(String), measured: false },
    ]);
  });

  it('sweeps what is missing, newest first', () => {
    const rel = (version: string, date: string): Release => ({
      family: 'deno',
      version,
      line: 'deno',
      date,
      canary: false,
    });
    const order = sweepOrder(
      [
        rel('2.1.0', '2025-01-01T00:00:00Z'),
        rel('2.3.0', '2025-03-01T00:00:00Z'),
        rel('2.2.0', '2025-02-01T00:00:00Z'),
      ],
      new Set(['deno@2.2.0']),
    );
    expect(order.map((r) => r.version)).toEqual(['2.3.0', '2.1.0']);
  });
});
