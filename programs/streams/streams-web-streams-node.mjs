// web-streams: WHATWG streams. A ReadableStream over the file (64 KiB reads), a TransformStream
// line splitter, N no-op TransformStreams, and a counting WritableStream that writes to /dev/null.
// Usage: streams-web-streams-node.mjs FILE N sync|async  ->  {"lines":..,"bytes":..,"pipeline_seconds":..}
// Only the file and /dev/null access uses node:fs, so Bun and Deno run it unchanged.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { setImmediate } from 'node:timers';

const [file, nArg, mode] = process.argv.slice(2);
const n = Number(nArg);
if (!file || !Number.isInteger(n) || n < 0 || (mode !== 'sync' && mode !== 'async')) {
  console.error('usage: streams-web-streams-node.mjs FILE N sync|async');
  process.exit(2);
}

// The pipeline's own time (monotonic), from here to the last line written: start-up left out.
const started = performance.now();
const fd = openSync(file, 'r');
const source = new ReadableStream({
  pull(controller) {
    const chunk = new Uint8Array(65536);
    const got = readSync(fd, chunk, 0, chunk.length, null);
    if (got === 0) controller.close();
    else controller.enqueue(chunk.subarray(0, got));
  },
});

function concat(a, b) {
  const c = new Uint8Array(a.length + b.length);
  c.set(a, 0);
  c.set(b, a.length);
  return c;
}

let rest = null;
const splitter = new TransformStream({
  transform(chunk, controller) {
    const buf = rest ? concat(rest, chunk) : chunk;
    let start = 0;
    let nl;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      controller.enqueue(buf.subarray(start, nl));
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
  },
  flush(controller) {
    if (rest) controller.enqueue(rest);
  },
});

// "sync" enqueues at once; "async" returns a promise that enqueues on a later tick (setImmediate).
const noop = () =>
  new TransformStream(
    mode === 'sync'
      ? { transform: (line, controller) => controller.enqueue(line) }
      : {
          transform: (line, controller) =>
            new Promise((resolve) =>
              setImmediate(() => {
                controller.enqueue(line);
                resolve();
              }),
            ),
        },
  );

const out = openSync('/dev/null', 'w');
const batch = new Uint8Array(65536);
let used = 0;
let lines = 0;
let bytes = 0;
const flush = () => {
  writeSync(out, batch, 0, used);
  used = 0;
};
const sink = new WritableStream({
  write(line) {
    lines++;
    bytes += line.length + 1;
    if (used + line.length + 1 > batch.length) flush();
    if (line.length + 1 > batch.length) writeSync(out, line);
    else {
      batch.set(line, used);
      used += line.length;
    }
    batch[used++] = 10;
  },
  close: flush,
});

let stream = source.pipeThrough(splitter);
for (let i = 0; i < n; i++) stream = stream.pipeThrough(noop());
try {
  await stream.pipeTo(sink);
} catch (err) {
  console.error(`web-streams: ${err.message}`);
  process.exit(1);
}
closeSync(fd);
closeSync(out);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ lines, bytes, pipeline_seconds: seconds }));
