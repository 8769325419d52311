// scan-node-async: walk the project breadth-first; each level's unvisited files are read
// concurrently (fs.promises.readFile) and awaited together, then scanned on the main thread.
import { readFile } from 'node:fs/promises';
import { newTotals, scanText, usage } from './scan-common.js';

const root = usage('scan-node-async', process.argv[2]);
const totals = newTotals();
const started = performance.now();
const seen = new Set(['index.js']);
let level = ['index.js'];
while (level.length) {
  const texts = await Promise.all(level.map((path) => readFile(`${root}/${path}`, 'utf8')));
  const next = [];
  level.forEach((path, i) => {
    totals.files++;
    for (const dep of scanText(path, texts[i], totals)) {
      if (!seen.has(dep)) {
        seen.add(dep);
        next.push(dep);
      }
    }
  });
  level = next;
}
totals.scan_seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify(totals));
