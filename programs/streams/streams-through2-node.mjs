// through2: the original study's stack. binary-split turns bytes into lines, N no-op through2
// object transforms pass them on, a counting sink writes every line to /dev/null. through2 and
// binary-split come from the repository's node_modules (package.json pins them).
// Usage: streams-through2-node.mjs FILE N sync|async  ->  {"lines":..,"bytes":..,"pipeline_seconds":..}
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { setImmediate } from 'node:timers';
import { countingSink } from './streams-sink-node.mjs';
import split from 'binary-split';
import through2 from 'through2';

const [file, nArg, mode] = process.argv.slice(2);
const n = Number(nArg);
if (!file || !Number.isInteger(n) || n < 0 || (mode !== 'sync' && mode !== 'async')) {
  process.stderr.write('usage: streams-through2-node.mjs FILE N sync|async\n');
  process.exit(2);
}

// Object mode: an empty line stays a line (a byte-mode stream would drop a zero-length chunk).
const noop = () =>
  mode === 'sync' ? through2.obj((line, _enc, done) => done(null, line)) : through2.obj((line, _enc, done) => setImmediate(done, null, line));

const { sink, report } = countingSink();

pipeline(createReadStream(file), split('\n'), ...Array.from({ length: n }, noop), sink, (err) => {
  if (err) {
    process.stderr.write(`through2: ${err.message}\n`);
    process.exit(1);
  }
  report();
});
