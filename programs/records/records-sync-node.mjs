// sync: blocking-style records with fs.readSync / fs.writeSync on one reused buffer.
// Usage: records-sync-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE  (as records-c.c)
// Runs unchanged under Node, Bun and Deno (node:fs).
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';

const [op, recordArg, bytesArg, inFile, outFile] = process.argv.slice(2);
const record = Number(recordArg);
const bytes = Number(bytesArg);
if (!['read', 'write'].includes(op) || !(record >= 4 && record % 4 === 0) || !(bytes > 0 && bytes % record === 0) || !inFile || !outFile) {
  console.error('usage: records-sync-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE');
  process.exit(2);
}
const ab = new ArrayBuffer(record);
const buf = new Uint8Array(ab);
const words = new Uint32Array(ab); // native order: little-endian on the x86/arm64 machines measured

if (op === 'read') {
  const fd = openSync(inFile, 'r');
  let records = 0;
  let total = 0;
  let sum = 0;
  const t0 = performance.now();
  for (;;) {
    let fill = 0;
    while (fill < record) {
      const n = readSync(fd, buf, fill, record - fill, null);
      if (n === 0) break;
      fill += n;
    }
    total += fill;
    if (fill < record) break;
    records++;
    for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0;
  }
  const io = (performance.now() - t0) / 1000;
  closeSync(fd);
  console.log(JSON.stringify({ records, bytes: total, checksum: sum >>> 0, io_seconds: io }));
} else {
  for (let i = 0; i < record; i++) buf[i] = i & 255;
  const fd = openSync(outFile, 'w');
  let records = 0;
  const t0 = performance.now();
  for (let k = bytes / record; k > 0; k--) {
    let done = 0;
    while (done < record) done += writeSync(fd, buf, done, record - done);
    records++;
  }
  const t1 = performance.now();
  fsyncSync(fd);
  const t2 = performance.now();
  const size = fstatSync(fd).size;
  closeSync(fd);
  console.log(JSON.stringify({ records, bytes: size, io_seconds: (t1 - t0) / 1000, fsync_seconds: (t2 - t1) / 1000 }));
}
