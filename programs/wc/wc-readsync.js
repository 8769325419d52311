// wc-readsync: count the bytes piped to stdin with fs.readSync(0, buf) into one reused buffer of
// block-size bytes: one blocking read(2) per call, like wc-c. Only node:fs is imported, so the
// same file runs under Node, Bun and Deno (deno run wc-readsync.js needs no permission flags).
// Usage: node|bun wc-readsync.js [block-size]   deno run wc-readsync.js [block-size]
// Prints {"bytes":N,"reads":N}; exit 1 on a read error, 2 on a bad block size.
import { readSync } from 'node:fs';

// process is a global in Node, Bun and Deno 2; argv[2] is the first user argument in all three.
const arg = process.argv[2];
const MAX_BS = 2 ** 30;
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0;
if (bs < 1 || bs > MAX_BS) {
  console.error(`wc-readsync: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"`);
  process.exit(2);
}

// A plain Uint8Array (Buffer is not a global everywhere): allocated once, never looked at.
const buf = new Uint8Array(bs);
let bytes = 0;
let reads = 0;
for (;;) {
  let n;
  try {
    // position null: read from the current position (a pipe has no offsets; no pread).
    n = readSync(0, buf, 0, bs, null);
  } catch (err) {
    // A non-blocking stdin inherited from the caller reports EAGAIN: retry, like wc-bun.
    if (err.code === 'EAGAIN' || err.code === 'EINTR') continue;
    console.error(`wc-readsync: read: ${err.message}`);
    process.exit(1);
  }
  if (n === 0) break; // EOF
  bytes += n;
  reads++;
}
console.log(JSON.stringify({ bytes, reads }));
