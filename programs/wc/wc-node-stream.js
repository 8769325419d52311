// wc-node-stream: count the bytes piped to stdin through Node's public stream API:
// 'readable' events and process.stdin.read(bs) until it returns null.
// Usage: node wc-node-stream.js [block-size]
//
// libuv still reads the pipe in its own 64 KiB chunks; read(bs) hands them out bs bytes at a
// time (slices, no copy), so "reads" counts the chunks the program received, not syscalls.
const arg = process.argv[2];
const MAX_BS = 2 ** 30;
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0;
if (bs < 1 || bs > MAX_BS) {
  process.stderr.write(`wc-node-stream: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"\n`);
  process.exit(2);
}

const { stdin } = process;
let bytes = 0;
let reads = 0;
stdin.on('readable', () => {
  // read(bs) returns null while fewer than bs bytes are buffered; once the stream has ended it
  // returns the shorter tail instead, so every byte is counted before 'end'.
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
  process.stderr.write(`wc-node-stream: read: ${err.message}\n`);
  process.exit(1);
});
