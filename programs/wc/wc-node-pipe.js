// wc-node-pipe: count stdin bytes through Node's internal pipe binding, skipping the stream
// machinery: the fastest path Node offers without a native addon. stdin must be a pipe.
// libuv chooses the read size (64 KiB), so the block size argument is accepted but not honoured.
'use strict';
const arg = process.argv[2];
if (arg !== undefined && !(Number.isInteger(Number(arg)) && Number(arg) > 0)) {
  process.stderr.write(`wc-node-pipe: block size must be a positive integer, got "${arg}"\n`);
  process.exit(2);
}

const { Pipe, constants } = process.binding('pipe_wrap');
const { streamBaseState, kReadBytesOrError } = process.binding('stream_wrap');
const { UV_EOF } = process.binding('uv');

if (!streamBaseState || kReadBytesOrError === undefined) {
  process.stderr.write(`wc-node-pipe: unrecognised stream_wrap binding on Node ${process.version}\n`);
  process.exit(1);
}

let bytes = 0;
let reads = 0;
const pipe = new Pipe(constants.SOCKET);
const rc = pipe.open(0);
if (rc) {
  process.stderr.write(`wc-node-pipe: cannot open stdin as a pipe (uv error ${rc})\n`);
  process.exit(1);
}
// Node >= 12 passes one ArrayBuffer and leaves the count in streamBaseState.
pipe.onread = (buf) => {
  const n = streamBaseState[kReadBytesOrError];
  if (n > 0) {
    bytes += n;
    reads++;
    return;
  }
  if (n === 0) return; // EAGAIN: nothing this time
  pipe.readStop();
  pipe.close();
  if (n !== UV_EOF) {
    process.stderr.write(`wc-node-pipe: read error ${n}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify({ bytes, reads })}\n`);
};
pipe.readStart();
