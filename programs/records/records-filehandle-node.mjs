// filehandle: promise-style records: await fileHandle.read / fileHandle.write on one reused
// buffer (each call is a round trip through libuv's thread pool).
// Usage: records-filehandle-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE  (as records-c.c)
import { open } from 'node:fs/promises';

const [op, recordArg, bytesArg, inFile, outFile] = process.argv.slice(2);
const record = Number(recordArg);
const bytes = Number(bytesArg);
if (!['read', 'write'].includes(op) || !(record >= 4 && record % 4 === 0) || !(bytes > 0 && bytes % record === 0) || !inFile || !outFile) {
  console.error('usage: records-filehandle-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE');
  process.exit(2);
}
const ab = new ArrayBuffer(record);
const buf = new Uint8Array(ab);
const words = new Uint32Array(ab);

if (op === 'read') {
  const fh = await open(inFile, 'r');
  let records = 0;
  let total = 0;
  let sum = 0;
  const t0 = performance.now();
  for (;;) {
    let fill = 0;
    while (fill < record) {
      const { bytesRead } = await fh.read(buf, fill, record - fill, null);
      if (bytesRead === 0) break;
      fill += bytesRead;
    }
    total += fill;
    if (fill < record) break;
    records++;
    for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0;
  }
  const io = (performance.now() - t0) / 1000;
  await fh.close();
  console.log(JSON.stringify({ records, bytes: total, checksum: sum >>> 0, io_seconds: io }));
} else {
  for (let i = 0; i < record; i++) buf[i] = i & 255;
  const fh = await open(outFile, 'w');
  let records = 0;
  const t0 = performance.now();
  for (let k = bytes / record; k > 0; k--) {
    let done = 0;
    while (done < record) done += (await fh.write(buf, done, record - done, null)).bytesWritten;
    records++;
  }
  const t1 = performance.now();
  await fh.sync();
  const t2 = performance.now();
  const { size } = await fh.stat();
  await fh.close();
  console.log(JSON.stringify({ records, bytes: size, io_seconds: (t1 - t0) / 1000, fsync_seconds: (t2 - t1) / 1000 }));
}
