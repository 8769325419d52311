// scan-node-sync: walk the project from index.js, following imports, with readFileSync in a
// loop (depth-first, a Set of visited paths). Prints {files, imports, constants, functions}.
import { readFileSync } from 'node:fs';
import { newTotals, scanText, usage } from './scan-common.js';

const root = usage('scan-node-sync', process.argv[2]);
const totals = newTotals();
const started = performance.now();
const seen = new Set(['index.js']);
const todo = ['index.js'];
while (todo.length) {
  const path = todo.pop();
  totals.files++;
  for (const dep of scanText(path, readFileSync(`${root}/${path}`, 'utf8'), totals)) {
    if (!seen.has(dep)) {
      seen.add(dep);
      todo.push(dep);
    }
  }
}
totals.scan_seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify(totals));
