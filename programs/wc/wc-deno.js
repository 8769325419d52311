// wc-deno: count stdin bytes in Deno with Deno.stdin.readSync into one reused buffer.
const arg = Deno.args[0];
const bs = arg === undefined ? 65536 : Number(arg);
if (!Number.isInteger(bs) || bs <= 0) {
  console.error(`wc-deno: block size must be a positive integer, got "${arg}"`);
  Deno.exit(2);
}

const buf = new Uint8Array(bs);
let bytes = 0;
let reads = 0;
for (;;) {
  let n;
  try {
    n = Deno.stdin.readSync(buf);
  } catch (err) {
    console.error(`wc-deno: read: ${err.message}`);
    Deno.exit(1);
  }
  if (n === null) break;
  bytes += n;
  reads++;
}
console.log(JSON.stringify({ bytes, reads }));
