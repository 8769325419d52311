// The sink the Node.js stream programs share (Bun and Deno run the same files): an object-mode
// Writable that counts lines and bytes (+1 per line for its \n) and writes them to /dev/null in
// 64 KiB batches, so every variant pays the same output cost. report() closes it and prints the
// result line, with the seconds since the sink was made (just before the pipeline is built): the
// pipeline's own time on the monotonic clock, start-up and module loading left out.
import { closeSync, openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

export function countingSink() {
  const started = performance.now();
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
  const report = () => {
    closeSync(out);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`${JSON.stringify({ lines, bytes, pipeline_seconds: seconds })}\n`);
  };
  return { sink, report };
}
