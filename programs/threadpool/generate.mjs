// threadpool input: a deterministic ~127 KB JSON document shaped like a CI server's build list
// (a Jenkins-style /api/json: an object with an array of job objects holding names, URLs,
// colours and build numbers), written as --copies identical files builds-NNNN.json.
// Prints one JSON line of facts: files, file_bytes, jobs, sha256.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const TARGET_BYTES = 127 * 1000;
const WORDS = ['api', 'auth', 'billing', 'cache', 'core', 'deploy', 'docs', 'edge', 'feed', 'gateway', 'images', 'indexer', 'ledger', 'mail', 'metrics', 'mobile', 'notify', 'orders', 'payments', 'proxy', 'queue', 'search', 'storage', 'web'];
const KINDS = ['build', 'test', 'lint', 'release', 'nightly', 'integration'];
const COLOURS = ['blue', 'blue', 'blue', 'red', 'yellow', 'blue_anime', 'notbuilt', 'disabled'];
const RESULTS = { blue: 'SUCCESS', blue_anime: 'SUCCESS', red: 'FAILURE', yellow: 'UNSTABLE', notbuilt: null, disabled: 'ABORTED' };

// mulberry32: a tiny seeded PRNG, so every run writes the same bytes.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildList() {
  const r = rng(127);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const base = 'https://ci.example.org';
  const doc = { _class: 'hudson.model.Hudson', mode: 'NORMAL', nodeName: '', nodeDescription: 'the CI controller', numExecutors: 4, url: `${base}/`, jobs: [], views: [{ _class: 'hudson.model.AllView', name: 'all', url: `${base}/` }] };
  for (let i = 0; JSON.stringify(doc).length < TARGET_BYTES; i++) {
    const name = `${pick(WORDS)}-${pick(KINDS)}-${i}`;
    const url = `${base}/job/${name}/`;
    const colour = pick(COLOURS);
    const number = 1 + Math.floor(r() * 5000);
    const score = Math.floor(r() * 5) * 20;
    doc.jobs.push({
      _class: 'hudson.model.FreeStyleProject',
      name,
      url,
      color: colour,
      buildable: colour !== 'disabled',
      inQueue: r() < 0.1,
      lastBuild: colour === 'notbuilt' ? null : { number, url: `${url}${number}/`, result: RESULTS[colour], duration: Math.floor(r() * 900000), timestamp: 1700000000000 + Math.floor(r() * 1e10) },
      healthReport: [{ description: `Build stability: ${score / 20} out of the last 5 builds failed.`, iconUrl: `health-${score}plus.png`, score: 100 - score }],
    });
  }
  return doc;
}

function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, copies: { type: 'string', default: '100' } } });
  const copies = Number(values.copies);
  if (!values.out || !Number.isInteger(copies) || copies < 1) {
    process.stderr.write(`usage: generate.mjs --out DIR --copies N (N a positive integer, got "${values.copies}")\n`);
    process.exit(2);
  }
  const doc = buildList();
  const text = JSON.stringify(doc);
  for (let i = 0; i < copies; i++) writeFileSync(join(values.out, `builds-${String(i).padStart(4, '0')}.json`), text);
  const sha256 = createHash('sha256').update(text).digest('hex');
  process.stdout.write(`${JSON.stringify({ files: copies, file_bytes: Buffer.byteLength(text), jobs: doc.jobs.length, sha256 })}\n`);
}

// Run as a script by the harness; imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
