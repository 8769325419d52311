/**
 * A recording kept for later (formats/transcript-format.ts StoredRecording): main records each
 * pushed commit's harness at the pull requests' profile, and a pull request's diff compares its
 * head's recording with it instead of recording the base again. It stands for the base's only when
 * it was made the same way: the same bench arguments, by the same recorder (the base's own code:
 * its player and its normalization), with the same hyperfine and Node.js. Anything else records
 * both sides, as before.
 */
import type { RecorderContext, StoredRecording } from '../../formats/transcript-format.js';
import { RECORDING_SCHEMA } from '../../formats/transcript-format.js';
import type { MeasuredRaw, Recording } from './transcript-record.js';

const SAID_MAX = 4000;

/** A recording as the store keeps it. Pure. */
export function toStored(
  r: Recording,
  o: { machine: string; context: RecorderContext; recorded: string; measured?: MeasuredRaw },
): StoredRecording {
  return {
    schema: RECORDING_SCHEMA,
    kind: 'recording',
    commit: r.transcript.side.commit,
    machine: o.machine,
    recorded: o.recorded,
    context: o.context,
    exit: r.exit,
    said: r.said.slice(-SAID_MAX),
    ...(r.harnessCpu !== undefined ? { harnessCpu: r.harnessCpu } : {}),
    ...(r.results !== undefined ? { results: r.results } : {}),
    ...(r.raw !== undefined ? { raw: r.raw } : {}),
    ...(o.measured ? { measured: o.measured } : {}),
    transcript: r.transcript,
  };
}

/** A stored recording as if it had just been made. Pure. */
export const fromStored = (s: StoredRecording): Recording => ({
  transcript: s.transcript,
  exit: s.exit,
  said: s.said,
  ...(s.results !== undefined ? { results: s.results } : {}),
  ...(s.raw !== undefined ? { raw: s.raw } : {}),
  ...(s.harnessCpu !== undefined ? { harnessCpu: s.harnessCpu } : {}),
  ...(s.measured ? { measured: s.measured } : {}),
});

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Why a stored recording cannot stand for a side recorded now with `bench` and `context`, or
 * undefined when it can. Pure.
 */
export function unusableBecause(
  s: StoredRecording,
  want: { commit: string; bench: readonly string[]; context: RecorderContext },
): string | undefined {
  if (s.commit !== want.commit) return `it is the recording of ${s.commit.slice(0, 12)}`;
  if (!same(s.transcript.bench, want.bench))
    return `it was recorded with bench ${s.transcript.bench.join(' ')}, not ${want.bench.join(' ')}`;
  const c = s.context;
  if (c.recorder !== want.context.recorder)
    return `it was recorded by the harness of ${c.recorder.slice(0, 12)}, not ${want.context.recorder.slice(0, 12)}`;
  if (c.player !== want.context.player) return c.player ? 'it played repeated sandboxes back' : 'it ran every sandbox';
  if (c.hyperfine !== want.context.hyperfine)
    return `it was recorded with ${c.hyperfine}, not ${want.context.hyperfine}`;
  if (c.node !== want.context.node) return `its harness ran on Node.js ${c.node}, not ${want.context.node}`;
  if (s.exit !== 0) return `its bench exited ${s.exit}`;
  return undefined;
}
