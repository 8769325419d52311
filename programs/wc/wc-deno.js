// wc-deno: count the bytes piped to stdin in Deno with Deno.stdin.readSync into one reused
// Uint8Array: one blocking read(2) per call, like wc-c. Needs no permission flags.
// Usage: deno run wc-deno.js [block-size]
const arg = Deno.args[0];
const MAX_BS = 2 ** 30;
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0;
if (bs < 1 || bs > MAX_BS) {
  console.error(`wc-deno: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"`);
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
  if (n === null) break; // EOF (a read may also return 0 without meaning EOF)
  if (n > 0) {
    bytes += n;
    reads++;
  }
}
console.log(JSON.stringify({ bytes, reads }));
