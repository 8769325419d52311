/**
 * A bench run's raw samples, kept beside its results (formats/raw-samples-format.ts): written once
 * the timed runs end, read back by `bench --reduce` (of this harness or another).
 */
import { join } from 'node:path';
import {
  RAW_SAMPLES_FILE,
  RAW_SAMPLES_MAX_BYTES,
  RAW_SAMPLES_SCHEMA,
  RawSamplesFile,
} from '../formats/raw-samples-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { readUntrustedJson } from '../lib/untrusted.js';
import type { RawSamples } from '../run/runner.js';

/** Writes `<outDir>/raw-samples.json`: every measured job's raw samples, by benchmark id. */
export function writeRawSamples(outDir: string, commit: string, raws: ReadonlyMap<string, RawSamples>): void {
  const file: RawSamplesFile = {
    schema: RAW_SAMPLES_SCHEMA,
    kind: 'raw-samples',
    commit,
    benchmarks: Object.fromEntries(raws),
  };
  writeFileAtomic(join(outDir, RAW_SAMPLES_FILE), `${JSON.stringify(file)}\n`);
}

/** Another run's raw samples (`bench --reduce FILE`), validated, naming the file and the field. */
export const readRawSamples = (file: string): RawSamplesFile =>
  readUntrustedJson(file, RawSamplesFile, {
    maxBytes: RAW_SAMPLES_MAX_BYTES,
    what: 'raw samples',
    version: RAW_SAMPLES_SCHEMA,
  });
