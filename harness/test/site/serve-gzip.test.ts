// The local server compresses each file once, as a CDN keeps it (site:perf times the page, not
// this server), and a file that changed is served with its new bytes, never the old compressed ones.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { serveSite } from '../../src/site/build-site.js';

function get(url: string, path: string): Promise<{ encoding?: string; body: string }> {
  const { port } = new URL(url);
  return new Promise((ok, fail) => {
    request({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        ok({ ...(encoding ? { encoding } : {}), body: (encoding === 'gzip' ? gunzipSync(raw) : raw).toString() });
      });
    })
      .on('error', fail)
      .end();
  });
}

describe('serveSite compression', () => {
  it('serves the bytes the file holds now, gzipped, before and after it changes', async () => {
    const site = mkdtempSync(join(tmpdir(), 'jsio-serve-gzip-'));
    writeFileSync(join(site, 'data.json'), JSON.stringify({ v: 'first'.repeat(100) }));
    const server = await serveSite(site);
    try {
      const one = await get(server.url, '/data.json');
      expect(one).toEqual({ encoding: 'gzip', body: JSON.stringify({ v: 'first'.repeat(100) }) });
      expect(await get(server.url, '/data.json')).toEqual(one);
      writeFileSync(join(site, 'data.json'), JSON.stringify({ v: 'second'.repeat(100) }));
      expect((await get(server.url, '/data.json')).body).toBe(JSON.stringify({ v: 'second'.repeat(100) }));
    } finally {
      server.close();
    }
  });
});
