// Every `uses:` of every workflow is pinned to a full commit SHA and has a local copy at that SHA
// for act (helpers/act/pins.ts): a new or changed pin without one fails here, naming it. Where
// GitHub is reachable the copy is fetched at the SHA; these machines carry them in ../shared.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localActions, sharedCopy, workflowPins } from '../../helpers/act/pins.js';

const onSharedMachine = workflowPins().some((p) => sharedCopy(p));

describe('pinned actions', () => {
  it('every workflow pins its actions to a full SHA, with the tag beside it', () => {
    const pins = workflowPins();
    expect(pins.length).toBeGreaterThan(0);
    for (const p of pins) expect(p.tag, `${p.action}@${p.sha}`).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  it.runIf(onSharedMachine || process.env.CI)('every pin has a local copy at its SHA', () => {
    expect(localActions(workflowPins(), { fetch: !onSharedMachine }).missing).toEqual([]);
  });

  it.runIf(onSharedMachine)('a pin without a copy is named, with the workflow that uses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pins-'));
    mkdirSync(join(dir, 'wf'));
    writeFileSync(
      join(dir, 'wf', 'x.yml'),
      'jobs:\n  a:\n    steps:\n      - uses: actions/checkout@0000000000000000000000000000000000000000 # v9.9.9\n',
    );
    expect(localActions(workflowPins(join(dir, 'wf')), { fetch: false }).missing).toEqual([
      'actions/checkout@0000000000000000000000000000000000000000 (v9.9.9) in x.yml',
    ]);
  });

  it('a pin by tag or branch is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pins-'));
    writeFileSync(join(dir, 'x.yml'), 'jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n');
    expect(() => workflowPins(dir)).toThrow(/x.yml: uses actions\/checkout@v4: pin a full commit SHA/);
  });
});
