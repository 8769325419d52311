// stream: records through Node streams. read: fs.createReadStream delivers chunks of its own
// size (64 KiB), so the program re-chunks them into exact records in one record buffer.
// write: fs.createWriteStream, one write() per record, waiting for 'drain' whenever write()
// returns false (backpressure), then fsync.
// Usage: records-stream-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE  (as records-c.c)
import { closeSync, createReadStream, createWriteStream, fstatSync, fsyncSync, openSync } from 'node:fs';
import { once } from 'node:events';

const [op, recordArg, bytesArg, inFile, outFile] = process.argv.slice(2);
const record = Number(recordArg);
const bytes = Number(bytesArg);
if (!['read', 'write'].includes(op) || !(record >= 4 && record % 4 === 0) || !(bytes > 0 && bytes % record === 0) || !inFile || !outFile) {
  console.error('usage: records-stream-node.mjs read|write RECORD BYTES IN_FILE OUT_FILE');
  process.exit(2);
}
const ab = new ArrayBuffer(record);
const buf = new Uint8Array(ab);
const words = new Uint32Array(ab);

if (op === 'read') {
  let records = 0;
  let total = 0;
  let sum = 0;
  let fill = 0;
  const t0 = performance.now();
  for await (const chunk of createReadStream(inFile)) {
    total += chunk.length;
    let pos = 0;
    while (pos < chunk.length) {
      const take = Math.min(record - fill, chunk.length - pos);
      buf.set(chunk.subarray(pos, pos + take), fill);
      fill += take;
      pos += take;
      if (fill === record) {
        records++;
        for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0;
        fill = 0;
      }
    }
  }
  const io = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ records, bytes: total, checksum: sum >>> 0, io_seconds: io }));
} else {
  for (let i = 0; i < record; i++) buf[i] = i & 255;
  // The stream owns the descriptor's writes; the program keeps it open for the final fsync.
  const fd = openSync(outFile, 'w');
  const ws = createWriteStream(null, { fd, autoClose: false });
  let records = 0;
  const t0 = performance.now();
  // The same buffer is queued again and again: its content never changes, so that is safe.
  for (let k = bytes / record; k > 0; k--) {
    records++;
    if (!ws.write(buf)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
  const t1 = performance.now();
  fsyncSync(fd);
  const t2 = performance.now();
  const size = fstatSync(fd).size;
  closeSync(fd);
  console.log(JSON.stringify({ records, bytes: size, io_seconds: (t1 - t0) / 1000, fsync_seconds: (t2 - t1) / 1000 }));
}
