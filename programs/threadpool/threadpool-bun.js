// threadpool-bun: Bun's own file API, Bun.file(name).bytes(), on every file at once, optionally
// JSON.parse each on the main thread, timing each file from the batch start to its completion.
// Bun does its file I/O on its own threads: there is no UV_THREADPOOL_SIZE to sweep, so this is
// one series per scenario, compared against Node at its pool sizes.
// Usage: bun threadpool-bun.js DIR FILES read|parse
import { fileNames, finish, parseArgs } from './threadpool-common.js';

const { dir, files, parse } = parseArgs('threadpool-bun', process.argv.slice(2));
const names = fileNames(dir, files);
const decoder = new TextDecoder();
const latency = new Array(files);
let bytes = 0;
let jobs = 0;
const t0 = performance.now();
await Promise.all(
  names.map(async (name, i) => {
    const buf = await Bun.file(name).bytes();
    bytes += buf.length;
    if (parse) jobs += JSON.parse(decoder.decode(buf)).jobs.length;
    latency[i] = performance.now() - t0;
  }),
);
finish({ files, bytes, jobs, t0, latency });
