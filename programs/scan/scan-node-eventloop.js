// scan-node-eventloop: the Node counterpart of `scan-c eventloop`. Every file is scanned as soon
// as its read (fs.promises.readFile) completes, and the imports it finds are queued at once; at
// most BOUND reads are in flight. Run it with UV_THREADPOOL_SIZE=BOUND so libuv's pool has as many
// threads as c-eventloop's pool may grow to.
// Usage: UV_THREADPOOL_SIZE=8 node scan-node-eventloop.js PROJECT_DIR [BOUND]   (default 8)
import { readFile } from 'node:fs/promises';
import { newTotals, scanText, usage } from './scan-common.js';

const root = usage('scan-node-eventloop', process.argv[2]);
const boundArg = process.argv[3] ?? '8';
if (!/^[1-9][0-9]{0,3}$/.test(boundArg)) {
  console.error(`scan-node-eventloop: BOUND must be an integer from 1 to 9999, got "${boundArg}"`);
  process.exit(2);
}
const bound = Number(boundArg);

const totals = newTotals();
const started = performance.now();
const seen = new Set(['index.js']);
const queue = ['index.js']; // first in, first out, like c-eventloop's request queue
let next = 0;
let inFlight = 0;

await new Promise((resolve, reject) => {
  function start() {
    while (inFlight < bound && next < queue.length) {
      const path = queue[next++];
      inFlight++;
      readFile(`${root}/${path}`, 'utf8').then((text) => {
        inFlight--;
        totals.files++;
        for (const dep of scanText(path, text, totals)) {
          if (!seen.has(dep)) {
            seen.add(dep);
            queue.push(dep);
          }
        }
        if (inFlight === 0 && next === queue.length) resolve();
        else start();
      }, reject);
    }
  }
  start();
});
totals.scan_seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify(totals));
