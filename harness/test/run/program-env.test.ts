// Measured programs run without the machine's environment (run/program-env.ts): a variable set
// for the machine's other work must not change what is measured (NODE_EXTRA_CA_CERTS alone slows
// the start of some Node releases and not of others).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Results } from '../../src/formats/results-format.js';
import { programEnv } from '../../src/run/program-env.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

describe('the environment of measured programs', () => {
  it('keeps what a process needs to start and drops the rest', () => {
    const env = programEnv({
      PATH: '/usr/bin',
      HOME: '/root',
      JUST_HOME: '/opt/just',
      NODE_OPTIONS: '--max-old-space-size=64',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      UV_THREADPOOL_SIZE: '64',
      LD_PRELOAD: '/tmp/x.so',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root', JUST_HOME: '/opt/just' });
  });

  it('is what a benchmarked program sees when the harness runs it', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-environ-'));
    const r = runCli(
      ['bench', '--profile', 'smoke', '--programs', join(FIXTURES, 'environ'), '--no-store', '--out', out],
      {
        NODE_OPTIONS: '--max-old-space-size=4096',
        NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
        UV_THREADPOOL_SIZE: '64',
        JSIO_PLANTED: 'from the machine',
      },
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    const b = results.benchmarks.find((x) => x.variant === 'env-count');
    expect(b?.reason ?? '').toBe('');
    expect(b?.status).toBe('ok');
    expect(r.status).toBe(0);
  });
});
