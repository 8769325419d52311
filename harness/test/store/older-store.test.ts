// A store from before v3 (the fixtures were written by the v1 and v2 publishers) is refused in one
// line naming its version and what to do, and nothing is written to it: by publish-run, by
// --remove, and by the check a bench and a site build make before anything else.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStore } from '../../src/store/check.js';
import { publishRun } from '../../src/store/publish-run.js';
import { removeRun } from '../../src/store/remove.js';
import { FIXTURES, runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';
import { snapshot } from '../helpers/store.js';

const copy = (version: number) => {
  const store = mkdtempSync(join(tmpdir(), 'jsio-old-store-'));
  cpSync(join(FIXTURES, `store-v${version}`), store, { recursive: true });
  return store;
};
const refusal = (version: number) =>
  new RegExp(
    `machines\\.json is store v${version}, which this harness no longer reads \\(v3 and later\\): convert it with the harness of commit 05964c6`,
  );

describe.each([1, 2])('a store v%i', (version) => {
  it('is refused by publish-run in one line, nothing written', () => {
    const store = copy(version);
    const before = snapshot(store);
    const run = join(mkdtempSync(join(tmpdir(), 'jsio-old-store-run-')), 'results.json');
    writeFileSync(run, JSON.stringify(wcResults('e'.repeat(40))));
    const cli = runCli(['publish-run', run, '--store', store]);
    expect(cli.status).toBe(2);
    expect(cli.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(refusal(version))]);
    expect(snapshot(store)).toEqual(before);
  });

  it('is refused the same way by publishing, removing and the store check', async () => {
    const store = copy(version);
    const before = snapshot(store);
    await expect(publishRun(store, wcResults('e'.repeat(40)))).rejects.toThrow(refusal(version));
    await expect(removeRun(store, { commit: '2000fff' })).rejects.toThrow(refusal(version));
    expect(() => checkStore(store)).toThrow(refusal(version));
    expect(snapshot(store)).toEqual(before);
  });
});
