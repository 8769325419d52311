// core-transform: node:stream Transform pipeline. A line splitter, then N no-op object-mode
// Transforms, then a counting sink that writes every line to /dev/null.
// Usage: streams-core-transform-node.mjs FILE N sync|async  ->  {"lines":..,"bytes":..}
// Runs unchanged under Node, Bun and Deno (all three implement node:stream).
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { pipeline, Transform, Writable } from 'node:stream';
import { setImmediate } from 'node:timers';

const [file, nArg, mode] = process.argv.slice(2);
const n = Number(nArg);
if (!file || !Number.isInteger(n) || n < 0 || (mode !== 'sync' && mode !== 'async')) {
  process.stderr.write('usage: streams-core-transform-node.mjs FILE N sync|async\n');
  process.exit(2);
}

// Splits bytes on \n into one Buffer per line (without the \n), carrying partial lines over.
class LineSplitter extends Transform {
  constructor() {
    super({ readableObjectMode: true });
    this.rest = null;
  }
  _transform(chunk, _enc, done) {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    let nl;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      this.push(buf.subarray(start, nl));
      start = nl + 1;
    }
    this.rest = start < buf.length ? buf.subarray(start) : null;
    done();
  }
  _flush(done) {
    if (this.rest) this.push(this.rest);
    done();
  }
}

// The measured thing: a transform that passes each line on, now (sync) or on a later tick (async).
const noop = () =>
  new Transform({
    objectMode: true,
    transform: mode === 'sync' ? (line, _enc, done) => done(null, line) : (line, _enc, done) => setImmediate(done, null, line),
  });

// The sink: counts lines and bytes (+1 per line for its \n), batches them into 64 KiB writes.
const out = openSync('/dev/null', 'w');
const batch = Buffer.allocUnsafe(65536);
let used = 0;
let lines = 0;
let bytes = 0;
const flush = () => {
  writeSync(out, batch, 0, used);
  used = 0;
};
const sink = new Writable({
  objectMode: true,
  write(line, _enc, done) {
    lines++;
    bytes += line.length + 1;
    if (used + line.length + 1 > batch.length) flush();
    if (line.length + 1 > batch.length) writeSync(out, line);
    else used += line.copy(batch, used);
    batch[used++] = 10;
    done();
  },
  final(done) {
    flush();
    done();
  },
});

pipeline(createReadStream(file), new LineSplitter(), ...Array.from({ length: n }, noop), sink, (err) => {
  if (err) {
    process.stderr.write(`core-transform: ${err.message}\n`);
    process.exit(1);
  }
  closeSync(out);
  process.stdout.write(`${JSON.stringify({ lines, bytes })}\n`);
});
