// threadpool-node-promises: start fs.promises.readFile on every file at once (libuv's threadpool does
// the reads), optionally JSON.parse each on the main thread, and time each file from the
// batch start to its completion: the latency a request would see with that many in flight.
// Usage: node threadpool-node-promises.js DIR FILES read|parse   (pool size: UV_THREADPOOL_SIZE)
import { readFile } from 'node:fs/promises';
import { fileNames, finish, parseArgs } from './threadpool-common.js';

const { dir, files, parse } = parseArgs('threadpool-node-promises', process.argv.slice(2));
const names = fileNames(dir, files);
const latency = new Array(files);
let bytes = 0;
let jobs = 0;
const t0 = performance.now();
await Promise.all(
  names.map(async (name, i) => {
    const buf = await readFile(name);
    bytes += buf.length;
    if (parse) jobs += JSON.parse(buf.toString('utf8')).jobs.length;
    latency[i] = performance.now() - t0;
  }),
);
finish({ files, bytes, jobs, t0, latency });
