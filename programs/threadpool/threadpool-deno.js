// threadpool-deno: Deno.readFile on every file at once, optionally JSON.parse each on the main
// thread, timing each file from the batch start to its completion. Deno's async file ops run on
// tokio's blocking pool, which has no size knob like UV_THREADPOOL_SIZE: one series per scenario.
// Usage: deno run --allow-read threadpool-deno.js DIR FILES read|parse
import { fileNames, finish, parseArgs } from './threadpool-common.js';

const { dir, files, parse } = parseArgs('threadpool-deno', Deno.args);
const names = fileNames(dir, files);
const decoder = new TextDecoder();
const latency = new Array(files);
let bytes = 0;
let jobs = 0;
const t0 = performance.now();
await Promise.all(
  names.map(async (name, i) => {
    const buf = await Deno.readFile(name);
    bytes += buf.length;
    if (parse) jobs += JSON.parse(decoder.decode(buf)).jobs.length;
    latency[i] = performance.now() - t0;
  }),
);
finish({ files, bytes, jobs, t0, latency });
