// wc-bun: count stdin bytes in Bun with fs.readSync into one reused fixed-size buffer.
import { readSync } from 'node:fs';

const arg = Bun.argv[2];
const bs = arg === undefined ? 65536 : Number(arg);
if (!Number.isInteger(bs) || bs <= 0) {
  console.error(`wc-bun: block size must be a positive integer, got "${arg}"`);
  process.exit(2);
}

const buf = Buffer.allocUnsafe(bs);
let bytes = 0;
let reads = 0;
for (;;) {
  let n;
  try {
    n = readSync(0, buf, 0, bs, null);
  } catch (err) {
    if (err.code === 'EAGAIN' || err.code === 'EINTR') continue;
    console.error(`wc-bun: read: ${err.message}`);
    process.exit(1);
  }
  if (n === 0) break;
  bytes += n;
  reads++;
}
console.log(JSON.stringify({ bytes, reads }));
