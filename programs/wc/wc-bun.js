// wc-bun: count the bytes piped to stdin in Bun with fs.readSync into one reused fixed-size
// Buffer: one blocking read(2) per call, like wc-c.
// Usage: bun wc-bun.js [block-size]
import { readSync } from 'node:fs';

const arg = Bun.argv[2];
const MAX_BS = 2 ** 30;
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0;
if (bs < 1 || bs > MAX_BS) {
  console.error(`wc-bun: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"`);
  process.exit(2);
}

const buf = Buffer.allocUnsafe(bs); // contents are never looked at: skip zero-filling
let bytes = 0;
let reads = 0;
for (;;) {
  let n;
  try {
    // position null: read from the current position (a pipe has no offsets; no pread).
    n = readSync(0, buf, 0, bs, null);
  } catch (err) {
    // A non-blocking stdin inherited from the caller would report EAGAIN: retry.
    if (err.code === 'EAGAIN' || err.code === 'EINTR') continue;
    console.error(`wc-bun: read: ${err.message}`);
    process.exit(1);
  }
  if (n === 0) break; // EOF
  bytes += n;
  reads++;
}
console.log(JSON.stringify({ bytes, reads }));
