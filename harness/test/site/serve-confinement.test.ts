// `site --serve` checked a prefix of the decoded path: `/..%2fsite-secret/secret.txt` reached a
// sibling folder, and a symlink in a store was copied into the site and followed when served
// (`/data/<machine>/leak/passwd` gave /etc/passwd). Paths are decoded, resolved and required
// inside the site; no symlink is copied or followed.

import { existsSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../src/site/build-site.js';
import { publishRun } from '../../src/store/publish-run.js';
import { ROOT } from '../helpers/cli.js';
import { bench, results, timed } from '../helpers/results.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-serve-'));
const site = join(dir, 'site');
let server: { url: string; close: () => void };

/** The status of a GET of a raw path (no client-side normalisation of `..` or `%2f`). */
function get(path: string): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((ok, fail) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      ok(res.statusCode ?? 0);
    })
      .on('error', fail)
      .end();
  });
}

beforeAll(async () => {
  mkdirSync(join(site, 'data', 'm'), { recursive: true });
  writeFileSync(join(site, 'index.html'), 'site');
  mkdirSync(join(dir, 'site-secret'));
  writeFileSync(join(dir, 'site-secret', 'secret.txt'), 'secret');
  symlinkSync('/etc', join(site, 'data', 'm', 'leak'));
  server = await serveSite(site);
});
afterAll(() => server.close());

describe('site --serve', () => {
  it('serves the site', async () => {
    expect(await get('/')).toBe(200);
  });

  it('serves nothing from a sibling folder through an encoded ..', async () => {
    expect(await get('/..%2fsite-secret/secret.txt')).not.toBe(200);
    expect(await get('/%2e%2e/site-secret/secret.txt')).not.toBe(200);
    expect(await get('/%E0%A4%A')).toBe(400);
  });

  it('follows no symlink', async () => {
    expect(await get('/data/m/leak/passwd')).not.toBe(200);
  });
});

describe('site build', () => {
  it('copies no symlink from the store', async () => {
    const store = join(dir, 'store');
    await publishRun(store, results([bench('c', { bs: 4096 }, { wall_time: timed([1, 2, 3]) })]));
    symlinkSync('/etc', join(store, 'test-machine', 'leak'));
    const out = join(dir, 'built');
    await buildSite(ROOT, store, out);
    expect(existsSync(join(out, 'data', 'machines.json'))).toBe(true);
    expect(() => lstatSync(join(out, 'data', 'test-machine', 'leak'))).toThrow();
  });
});
