// Writes data.bin: --bytes deterministic pseudo-random bytes (xorshift32 from --seed). Same
// arguments, same bytes. Prints one JSON line of facts: file, bytes, sha256, and sum32 (the sum
// of the file's little-endian 32-bit words mod 2^32: the checksum every read variant computes).
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { out: { type: 'string' }, bytes: { type: 'string' }, seed: { type: 'string', default: '1' } } });
const bytes = Number(values.bytes);
const seed = Number(values.seed);
if (!values.out || !Number.isInteger(bytes) || bytes <= 0 || bytes % 4 !== 0 || !Number.isInteger(seed) || seed === 0) {
  process.stderr.write('usage: generate.mjs --out DIR --bytes N (a positive multiple of 4) [--seed non-zero INT]\n');
  process.exit(2);
}

const CHUNK = 1 << 20;
const words = new Uint32Array(CHUNK / 4);
const view = new DataView(words.buffer);
const hash = createHash('sha256');
const fd = openSync(join(values.out, 'data.bin'), 'w');
let x = seed >>> 0;
let sum = 0;
for (let done = 0; done < bytes; done += CHUNK) {
  const len = Math.min(CHUNK, bytes - done);
  for (let i = 0; i < len / 4; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    view.setUint32(i * 4, x, true); // little-endian on every host, so the file never varies
    sum = (sum + x) >>> 0;
  }
  const chunk = new Uint8Array(words.buffer, 0, len);
  hash.update(chunk);
  writeSync(fd, chunk);
}
closeSync(fd);
process.stdout.write(`${JSON.stringify({ file: 'data.bin', bytes, sha256: hash.digest('hex'), sum32: sum })}\n`);
