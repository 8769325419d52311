// wc-node-stream: count stdin bytes through Node's stream API ('readable' + read(bs)).
'use strict';
const arg = process.argv[2];
const bs = arg === undefined ? 65536 : Number(arg);
if (!Number.isInteger(bs) || bs <= 0) {
  process.stderr.write(`wc-node-stream: block size must be a positive integer, got "${arg}"\n`);
  process.exit(2);
}

let bytes = 0;
let reads = 0;
const stdin = process.stdin;
stdin.on('readable', () => {
  // read(bs) returns null until bs bytes are buffered; the tail below bs comes out at the end.
  let chunk;
  while ((chunk = stdin.read(bs)) !== null) {
    bytes += chunk.length;
    reads++;
  }
});
stdin.on('end', () => {
  process.stdout.write(`${JSON.stringify({ bytes, reads })}\n`);
});
stdin.on('error', (err) => {
  process.stderr.write(`wc-node-stream: ${err.message}\n`);
  process.exit(1);
});
