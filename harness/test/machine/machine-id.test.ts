// `npm run machine-id`: this machine's id, or the id recorded in a results.json (the publish job
// runs on another machine than the one that measured, and files data under the recorded id).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineInfo } from '../../src/machine/machine.js';
import { runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

describe('machine-id', () => {
  it("prints this machine's id, honouring JSIO_MACHINE_ID", () => {
    expect(runCli(['machine-id']).stdout).toBe(`${machineInfo().id}\n`);
    expect(runCli(['machine-id'], { JSIO_MACHINE_ID: 'bench-box-1' }).stdout).toBe('bench-box-1\n');
  });

  it('prints the id recorded in a results file, and refuses an invalid one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-mid-'));
    const r = wcResults();
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(r));
    expect(runCli(['machine-id', join(dir, 'ok.json')])).toMatchObject({ status: 0, stdout: 'test-machine\n' });
    r.run.machine.id = '../../etc';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(r));
    const bad = runCli(['machine-id', join(dir, 'bad.json')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json is invalid:[\s\S]*run\.machine\.id/);
  });
});
