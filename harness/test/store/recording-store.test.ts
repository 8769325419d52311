// The trend store's recordings: one gzipped file per commit and machine, read back as written,
// refused (naming the file) when malformed or of another commit, the newest kept; and the rule
// by which a stored recording stands for a side recorded now.
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecorderContext, StoredRecording } from '../../src/formats/transcript-format.js';
import { fromStored, toStored, unusableBecause } from '../../src/pairs/harness-shift/stored-recording.js';
import {
  RECORDINGS_KEPT,
  readRecordingFile,
  readStoredRecording,
  recordingPath,
  storeRecording,
} from '../../src/store/recording-store.js';
import { removeScratch } from '../helpers/scratch.js';

const SHA = 'a'.repeat(40);
const CONTEXT: RecorderContext = { recorder: SHA, player: true, hyperfine: 'hyperfine 1.16.1', node: 'v20.19.2' };
const BENCH = ['--profile', 'quick'];

function recording(commit = SHA, recorded = '2026-11-29T10:00:00.000Z'): StoredRecording {
  return toStored(
    {
      transcript: {
        schema: 1,
        kind: 'transcript',
        side: { root: '/w/main', commit },
        bench: BENCH,
        runs: [{ exe: '/usr/bin/hyperfine', argv: ['hyperfine'], env: [], cwd: '<side>', limits: {} }],
      },
      exit: 0,
      said: '',
      results: '{"schema":5}',
      harnessCpu: 12.5,
    },
    { machine: 'm-1', context: CONTEXT, recorded },
  );
}

let dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'jsio-recordings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) removeScratch(d);
  dirs = [];
});

describe('the recording store', () => {
  it('keeps a run’s recording gzipped under its machine and commit, and reads it back as it was', () => {
    const store = scratch();
    const r = recording();
    storeRecording(store, r);
    expect(readdirSync(join(store, 'm-1', 'recordings'))).toEqual([`${SHA}.json.gz`]);
    expect(readStoredRecording(store, 'm-1', SHA)).toEqual(r);
    expect(fromStored(readStoredRecording(store, 'm-1', SHA)!)).toMatchObject({ exit: 0, harnessCpu: 12.5 });
    expect(readStoredRecording(store, 'm-1', 'b'.repeat(40))).toBeUndefined();
    expect(readStoredRecording(store, 'm-2', SHA)).toBeUndefined();
  });

  it('keeps the newest recordings of a machine only', () => {
    const store = scratch();
    for (let i = 0; i <= RECORDINGS_KEPT; i++)
      storeRecording(
        store,
        recording(
          i.toString(16).padStart(40, '0'),
          `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
        ),
      );
    const kept = readdirSync(join(store, 'm-1', 'recordings'));
    expect(kept).toHaveLength(RECORDINGS_KEPT);
    // The oldest (2026-11-01T00, the first) went.
    expect(kept).not.toContain(`${'0'.repeat(40)}.json.gz`);
  });

  it('refuses a malformed, foreign or escaping file, naming it; nothing is read from it', () => {
    const store = scratch();
    const file = recordingPath(store, 'm-1', SHA);
    mkdirSync(join(store, 'm-1', 'recordings'), { recursive: true });
    writeFileSync(file, 'not gzip');
    expect(() => readStoredRecording(store, 'm-1', SHA)).toThrow(/is not a gzipped recording/);
    writeFileSync(file, gzipSync(JSON.stringify({ ...recording(), exit: 'zero' })));
    expect(() => readStoredRecording(store, 'm-1', SHA)).toThrow(/json\.gz is invalid:\n {2}exit:/);
    writeFileSync(file, gzipSync(JSON.stringify(recording('b'.repeat(40)))));
    expect(() => readStoredRecording(store, 'm-1', SHA)).toThrow(/holds the recording of bbbbbbbbbbbb/);
    const outside = scratch();
    writeFileSync(join(outside, 'x.json.gz'), gzipSync(JSON.stringify(recording())));
    const linked = recordingPath(store, 'm-1', 'c'.repeat(40));
    symlinkSync(join(outside, 'x.json.gz'), linked);
    expect(() => readStoredRecording(store, 'm-1', 'c'.repeat(40))).toThrow();
    expect(() => recordingPath(store, '../m', SHA)).toThrow();
    const artifact = join(outside, 'recording.json');
    writeFileSync(artifact, JSON.stringify({ ...recording(), kind: 'transcript' }));
    expect(() => readRecordingFile(artifact)).toThrow(/recording\.json is invalid:\n {2}kind:/);
  });
});

describe('whether a stored recording stands for a side recorded now', () => {
  const want = { commit: SHA, bench: BENCH, context: CONTEXT };
  it('only when made the same way: the same commit, bench arguments, recorder, hyperfine and Node.js', () => {
    expect(unusableBecause(recording(), want)).toBeUndefined();
    expect(unusableBecause(recording('b'.repeat(40)), want)).toBe('it is the recording of bbbbbbbbbbbb');
    expect(unusableBecause(recording(), { ...want, bench: ['--profile', 'smoke'] })).toBe(
      'it was recorded with bench --profile quick, not --profile smoke',
    );
    const other = (c: Partial<RecorderContext>) =>
      unusableBecause(recording(), { ...want, context: { ...CONTEXT, ...c } });
    expect(other({ recorder: 'c'.repeat(40) })).toMatch(/recorded by the harness of aaaaaaaaaaaa, not cccccccccccc/);
    expect(other({ player: false })).toBe('it played repeated sandboxes back');
    expect(other({ hyperfine: 'hyperfine 1.18.0' })).toBe(
      'it was recorded with hyperfine 1.16.1, not hyperfine 1.18.0',
    );
    expect(other({ node: 'v22.1.0' })).toBe('its harness ran on Node.js v20.19.2, not v22.1.0');
    expect(unusableBecause({ ...recording(), exit: 1 }, want)).toBe('its bench exited 1');
  });
});
