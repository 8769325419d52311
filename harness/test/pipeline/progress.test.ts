// Progress lines: experiment › variant › parameters, done/total and an ETA that never reads "1m60s";
// reasons are printed as plain text (no markdown escapes in a terminal).
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/lib/format.js';
import { Progress } from '../../src/pipeline/progress.js';

describe('formatDuration', () => {
  it('rounds before splitting minutes and seconds', () => {
    expect(formatDuration(119.6)).toBe('2m00s');
    expect(formatDuration(239.5)).toBe('4m00s');
    expect(formatDuration(59.6)).toBe('1m00s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(3 * 3600 + 59.7 * 60)).toBe('3h59m');
    expect(formatDuration(12.4)).toBe('12s');
  });
});

describe('Progress', () => {
  it('prints position, label, ETA and failures with their plain reason', () => {
    const lines: string[] = [];
    const out = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
    const p = new Progress(3, out);
    p.start('wc › c › bs=4096');
    p.finish(59.8, 'ok');
    p.start('wc › just-sync › bs=4096');
    p.finish(60.2, 'skipped: no `just` on PATH');
    p.start('wc › c › bs=65536');
    expect(lines.join('')).toBe(
      '[1/3] wc › c › bs=4096\n[2/3] wc › just-sync › bs=4096 · ETA 2m00s\n    -> skipped: no `just` on PATH\n[3/3] wc › c › bs=65536 · ETA 1m00s\n',
    );
  });
});
