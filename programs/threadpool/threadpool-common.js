// Shared by the threadpool JavaScript programs (Node, Bun, Deno): arguments, file names and
// the one JSON result line. Only portable JavaScript here: no runtime-specific API.
export function parseArgs(name, argv) {
  const [dir, filesArg, work] = argv;
  const files = Number(filesArg);
  if (!dir || !Number.isInteger(files) || files < 1 || (work !== 'read' && work !== 'parse')) {
    throw new Error(`${name}: usage: ${name} DIR FILES read|parse (got ${JSON.stringify(argv)})`);
  }
  return { dir, files, parse: work === 'parse' };
}

export function fileNames(dir, files) {
  return Array.from({ length: files }, (_, i) => `${dir}/builds-${String(i).padStart(4, '0')}.json`);
}

/** Prints the result line: counts for validation, batch rates, and each file's latency (ms). */
export function finish({ files, bytes, jobs, t0, latency }) {
  const ms = performance.now() - t0;
  const line = {
    files: latency.filter((x) => x !== undefined).length,
    bytes,
    jobs,
    batch_ms: round(ms),
    files_per_s: round(files / (ms / 1000)),
    mb_per_s: round(bytes / (ms / 1000) / 1e6),
    latency: latency.map(round),
  };
  console.log(JSON.stringify(line));
}

const round = (x) => Math.round(x * 1000) / 1000;
