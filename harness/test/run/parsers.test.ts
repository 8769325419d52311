// Parsers of real tool outputs, committed as fixtures: hyperfine 1.15 and 1.20 JSON,
// strace -c in both layouts, GNU time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGnuTime } from '../../src/run/parse-gnu-time.js';
import { parseHyperfineJson, parseHyperfineVersion } from '../../src/run/parse-hyperfine.js';
import { parseStraceSummary } from '../../src/run/parse-strace.js';
import { FIXTURES } from '../helpers/cli.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('hyperfine JSON', () => {
  it('reads 1.15 exports: times and exit codes, no memory', () => {
    const runs = parseHyperfineJson('hyperfine-1.15.json', fixture('hyperfine-1.15.json'));
    expect(runs.map((r) => r.command)).toEqual(['sleep 0.01', 'true']);
    expect(runs[0]?.times).toHaveLength(3);
    expect(runs[0]?.exitCodes).toEqual([0, 0, 0]);
    expect(runs[0]?.memoryBytes).toBeUndefined();
    expect(runs[0]!.times.every((t) => t > 0.01 && t < 1)).toBe(true);
  });

  it('reads parameterised 1.15 exports', () => {
    const runs = parseHyperfineJson('p.json', fixture('hyperfine-1.15-params.json'));
    expect(runs.map((r) => r.command)).toEqual([
      'dd if=/dev/zero bs=4096 count=100 status=none | wc -c',
      'dd if=/dev/zero bs=65536 count=100 status=none | wc -c',
    ]);
  });

  it('reads 1.20 exports with per-run memory', () => {
    const [run] = parseHyperfineJson('hyperfine-1.20.json', fixture('hyperfine-1.20.json'));
    expect(run?.times).toHaveLength(3);
    expect(run?.memoryBytes).toHaveLength(3);
    expect(run!.memoryBytes!.every((m) => m > 100_000)).toBe(true);
  });

  it('names the file when the JSON is broken or has the wrong shape', () => {
    expect(() => parseHyperfineJson('/tmp/h.json', '{"results": [')).toThrow(/\/tmp\/h\.json is not valid JSON/);
    expect(() => parseHyperfineJson('/tmp/h.json', '{"results":[{"command":"x"}]}')).toThrow(
      /\/tmp\/h\.json is invalid:\n {2}results\.0\.mean/,
    );
  });

  it('reads the version line', () => {
    expect(parseHyperfineVersion('hyperfine 1.15.0')).toEqual([1, 15, 0]);
    expect(parseHyperfineVersion('something else')).toBeUndefined();
  });
});

describe('strace -c summaries', () => {
  it('reads the default layout (name last, blank errors)', () => {
    const s = parseStraceSummary(fixture('strace-node.txt'));
    expect(s.calls.read).toBe(290);
    expect(s.errors.read).toBe(10);
    expect(s.calls.execve).toBe(1);
    expect(s.errors.execve).toBeUndefined();
    expect(s.calls.total).toBeUndefined();
    expect(s.total).toBe(Object.values(s.calls).reduce((a, b) => a + b, 0));
  });

  it('reads the -U name,calls,errors layout', () => {
    const s = parseStraceSummary(fixture('strace-node-columns.txt'));
    expect(s.calls.read).toBe(280);
    expect(s.calls.futex).toBe(50);
    expect(s.errors.futex).toBe(1);
    expect(s.total).toBe(974);
  });

  it('refuses text that is not a summary', () => {
    expect(() => parseStraceSummary('hello\nworld')).toThrow(/not an strace -c summary/);
  });
});

describe('GNU time', () => {
  it('reads max RSS in bytes', () => {
    expect(parseGnuTime(fixture('time-ok.txt'))).toEqual({ maxRssBytes: 1720 * 1024, wallSeconds: 0 });
  });

  it('keeps the note about a non-zero exit or a signal', () => {
    expect(parseGnuTime(fixture('time-fail.txt')).note).toBe('Command exited with non-zero status 3');
    expect(parseGnuTime(fixture('time-signal.txt')).note).toBe('Command terminated by signal 11');
  });

  it('refuses output without the RSS line', () => {
    expect(() => parseGnuTime('wall_seconds=1')).toThrow(/no max_rss_kib/);
  });
});
