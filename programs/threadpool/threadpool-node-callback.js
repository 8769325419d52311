// threadpool-node-callback: like threadpool-node-promises, with the callback API fs.readFile (no promise
// machinery between the threadpool's completion and the program).
// Usage: node threadpool-node-callback.js DIR FILES read|parse   (pool size: UV_THREADPOOL_SIZE)
import { readFile } from 'node:fs';
import { fileNames, finish, parseArgs } from './threadpool-common.js';

const { dir, files, parse } = parseArgs('threadpool-node-callback', process.argv.slice(2));
const names = fileNames(dir, files);
const latency = new Array(files);
let bytes = 0;
let jobs = 0;
let done = 0;
const t0 = performance.now();
names.forEach((name, i) => {
  readFile(name, (err, buf) => {
    if (err) {
      process.stderr.write(`threadpool-node-callback: ${name}: ${err.message}\n`);
      process.exit(1);
    }
    bytes += buf.length;
    if (parse) jobs += JSON.parse(buf.toString('utf8')).jobs.length;
    latency[i] = performance.now() - t0;
    if (++done === files) finish({ files, bytes, jobs, t0, latency });
  });
});
