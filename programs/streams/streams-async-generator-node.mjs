// async-generator: stream.pipeline over async generator functions. A splitter generator yields
// one Buffer per line, N no-op generators pass them on, a counting sink writes to /dev/null.
// Usage: streams-async-generator-node.mjs FILE N sync|async  ->  {"lines":..,"bytes":..,"pipeline_seconds":..}
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';

const [file, nArg, mode] = process.argv.slice(2);
const n = Number(nArg);
if (!file || !Number.isInteger(n) || n < 0 || (mode !== 'sync' && mode !== 'async')) {
  process.stderr.write('usage: streams-async-generator-node.mjs FILE N sync|async\n');
  process.exit(2);
}

async function* splitLines(source) {
  let rest = null;
  for await (const chunk of source) {
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    let nl;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      yield buf.subarray(start, nl);
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
  }
  if (rest) yield rest;
}

// "sync" yields each line as it comes; "async" waits for a later tick (setImmediate) first.
const noop =
  mode === 'sync'
    ? async function* (source) {
        for await (const line of source) yield line;
      }
    : async function* (source) {
        for await (const line of source) {
          await setImmediate();
          yield line;
        }
      };

// The pipeline's own time (monotonic), from here to the last line written: start-up left out.
const started = performance.now();
const out = openSync('/dev/null', 'w');
let lines = 0;
let bytes = 0;
async function sink(source) {
  const batch = Buffer.allocUnsafe(65536);
  let used = 0;
  for await (const line of source) {
    lines++;
    bytes += line.length + 1;
    if (used + line.length + 1 > batch.length) {
      writeSync(out, batch, 0, used);
      used = 0;
    }
    if (line.length + 1 > batch.length) writeSync(out, line);
    else used += line.copy(batch, used);
    batch[used++] = 10;
  }
  writeSync(out, batch, 0, used);
}

try {
  await pipeline(createReadStream(file), splitLines, ...Array.from({ length: n }, () => noop), sink);
} catch (err) {
  process.stderr.write(`async-generator: ${err.message}\n`);
  process.exit(1);
}
closeSync(out);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ lines, bytes, pipeline_seconds: seconds })}\n`);
