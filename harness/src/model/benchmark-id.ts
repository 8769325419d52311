/**
 * A benchmark's identity in history: `<experiment>/<variant>/<k=v,...>`, parameters sorted by name
 * (`wc/node-stream/bs=4096,runtime=node20`). The one encoder and the one decoder; the id's pattern
 * is formats/parts/fields.ts BenchmarkId. Pure and free of Node built-ins: the site decodes ids too.
 */

type ParamValues = Readonly<Record<string, string | number>>;

/** Sorted k=v list: the parameter part of a benchmark's identity. */
export function paramKey(params: ParamValues): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
}

export function benchmarkId(experiment: string, variant: string, params: ParamValues): string {
  return `${experiment}/${variant}/${paramKey(params)}`;
}

export interface BenchmarkIdParts {
  experiment: string;
  variant: string;
  /** As written in the id: numbers stay text. */
  params: Record<string, string>;
}

/** An id's parts; a part the id lacks is empty. */
export function parseBenchmarkId(id: string): BenchmarkIdParts {
  const [experiment = '', variant = '', rest = ''] = id.split('/');
  const params: Record<string, string> = {};
  for (const kv of rest.split(',').filter(Boolean)) {
    const i = kv.indexOf('=');
    if (i > 0) params[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return { experiment, variant, params };
}
