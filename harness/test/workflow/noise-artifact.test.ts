// calibrate.yml's publish job published every downloaded/*/noise.json of a runner's
// artifact, so one runner could set any machine's thresholds, and no threshold was too large.
// `npm run workflow -- noise-file` now picks the artifact's one calibration or refuses it.
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflowCommand } from '../../src/cli/commands/workflow.js';
import { MAX_NOISE_THRESHOLD } from '../../src/workflow/noise-artifact.js';
import { runCli } from '../helpers/cli.js';

const noise = (machine: string, thresholds: Record<string, number> = { 'wc/c/bs=65536 wall_time': 0.03 }) => ({
  schema: 1,
  machine,
  created: '2026-11-24T00:00:00.000Z',
  rounds: 6,
  thresholds,
});

/** An artifact as download-artifact lays it out: <machine>/noise.json per entry given. */
function artifact(files: Record<string, unknown>): string {
  const d = mkdtempSync(join(tmpdir(), 'jsio-noise-art-'));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(d, path, '..'), { recursive: true });
    writeFileSync(join(d, path), JSON.stringify(body));
  }
  return d;
}

async function pick(dir: string, machine = '') {
  let out = '';
  let err = '';
  const status = await workflowCommand(['noise-file', '--artifact', dir, '--machine', machine], {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    env: {},
  });
  return { status, out, err };
}

describe("one calibration per runner's artifact, for its machine, thresholds capped", () => {
  it('reproduces: the old publish step stored every noise.json of one artifact, another machine included', () => {
    const d = artifact({
      'runner-a/noise.json': noise('runner-a'),
      'victim-b/noise.json': noise('victim-b', { 'wc/c/bs=65536 wall_time': 1e9 }),
    });
    const store = mkdtempSync(join(tmpdir(), 'jsio-noise-store-'));
    const r = runCli([
      'publish-run',
      '--noise',
      join(d, 'runner-a', 'noise.json'),
      join(d, 'victim-b', 'noise.json'),
      '--store',
      store,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(store).sort()).toEqual(['runner-a', 'victim-b']);
  });

  it("accepts the one noise.json of the runner's machine and prints its path", async () => {
    const d = artifact({ 'm-1/noise.json': noise('m-1') });
    const r = await pick(d, 'm-1');
    expect([r.status, r.out]).toEqual([0, `${join(d, 'm-1', 'noise.json')}\n`]);
    expect((await pick(d)).status).toBe(0); // no label map: one machine's file is still required
  });

  const refused: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'two machines in one artifact',
      { 'a/noise.json': noise('a'), 'b/noise.json': noise('b') },
      '',
      /2 noise\.json files/,
    ],
    ['another machine than the runner', { 'b/noise.json': noise('b') }, 'a', /this runner's machine is "a"/],
    [
      'a file filed under another machine',
      { 'a/noise.json': noise('b') },
      '',
      /its machine is "b", but it is filed under "a"/,
    ],
    ['a huge threshold', { 'a/noise.json': noise('a', { 'wc/c/bs=65536 wall_time': 1e9 }) }, 'a', /over the cap of 1/],
    [
      'a threshold just over the cap',
      { 'a/noise.json': noise('a', { 'wc/c/bs=65536 wall_time': MAX_NOISE_THRESHOLD + 0.01 }) },
      '',
      /over the cap/,
    ],
    [
      'a key that is no benchmark',
      { 'a/noise.json': noise('a', { '<img src=x onerror=alert(1)>': 0.1 }) },
      '',
      /thresholds\.<img src=x onerror=alert\(1\)>: Invalid key/,
    ],
    ['a file besides the calibration', { 'a/noise.json': noise('a'), 'a/extra.json': {} }, '', /nothing else/],
    ['an empty artifact', {}, '', /0 noise\.json files/],
  ];
  it.each(refused)('refuses %s (exit 2, nothing printed)', async (_n, files, machine, msg) => {
    const r = await pick(artifact(files), machine);
    expect([r.status, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(msg);
  });

  it('refuses a symlink in place of the file (it would publish whatever it points at)', async () => {
    const d = artifact({ 'real/noise.json': noise('a') });
    mkdirSync(join(d, 'a'));
    symlinkSync(join(d, 'real', 'noise.json'), join(d, 'a', 'noise.json'));
    const r = await pick(d);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/a\/noise\.json: an artifact holds one/);
  });
});
