// wc-node-pipe: count the bytes piped to stdin through Node's internal pipe binding (pipe_wrap),
// skipping the stream machinery: the leanest read path Node offers without a native addon.
// Usage: node wc-node-pipe.js [block-size]
//
// libuv chooses the read size (64 KiB per read), so the block size is validated like the other
// variants' but cannot be honoured: "reads" is the number of reads libuv made with data.
import { fstatSync } from 'node:fs';
import { getSystemErrorName } from 'node:util';

const arg = process.argv[2];
const MAX_BS = 2 ** 30;
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0;
if (bs < 1 || bs > MAX_BS) {
  process.stderr.write(`wc-node-pipe: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"\n`);
  process.exit(2);
}

function fail(message) {
  process.stderr.write(`wc-node-pipe: ${message} (Node ${process.version})\n`);
  process.exit(1);
}

// Internal bindings have no stability guarantee: check their shape instead of crashing later.
const { Pipe, constants } = process.binding('pipe_wrap');
const { streamBaseState, kReadBytesOrError } = process.binding('stream_wrap');
const { UV_EOF } = process.binding('uv');
if (typeof Pipe !== 'function' || typeof constants?.SOCKET !== 'number' || typeof UV_EOF !== 'number') {
  fail('unrecognised pipe_wrap/uv binding');
}
// Node >= 12: onread(arrayBuffer | undefined) with the count in streamBaseState.
const haveState = streamBaseState instanceof Int32Array && Number.isInteger(kReadBytesOrError);

// libuv aborts the process on a regular file here (epoll refuses it): fail cleanly instead.
const st = fstatSync(0);
if (!st.isFIFO() && !st.isSocket()) fail('stdin must be a pipe');

const pipe = new Pipe(constants.SOCKET);
const rc = pipe.open(0);
if (rc) fail(`cannot open stdin as a pipe: ${getSystemErrorName(rc)}`);

let bytes = 0;
let reads = 0;
pipe.onread = (bufOrNread) => {
  // Older Node called onread(nread, buffer); current Node passes only the buffer.
  let n;
  if (typeof bufOrNread === 'number') n = bufOrNread;
  else if (haveState) n = streamBaseState[kReadBytesOrError];
  else fail('unrecognised onread arguments');
  if (n > 0) {
    bytes += n;
    reads++;
    return;
  }
  if (n === 0) return; // nothing read this time (EAGAIN)
  pipe.readStop();
  pipe.close();
  if (n !== UV_EOF) fail(`read: ${getSystemErrorName(n)} (${n})`);
  process.stdout.write(`${JSON.stringify({ bytes, reads })}\n`);
};
const err = pipe.readStart();
if (err) fail(`readStart: ${getSystemErrorName(err)}`);
