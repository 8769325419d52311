// core-transform: node:stream Transform pipeline. A line splitter, then N no-op object-mode
// Transforms, then a counting sink that writes every line to /dev/null.
// Usage: streams-core-transform-node.mjs FILE N sync|async  ->  {"lines":..,"bytes":..,"pipeline_seconds":..}
// Runs unchanged under Node, Bun and Deno (all three implement node:stream).
import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import { setImmediate } from 'node:timers';
import { countingSink } from './streams-sink-node.mjs';

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

const { sink, report } = countingSink();

pipeline(createReadStream(file), new LineSplitter(), ...Array.from({ length: n }, noop), sink, (err) => {
  if (err) {
    process.stderr.write(`core-transform: ${err.message}\n`);
    process.exit(1);
  }
  report();
});
