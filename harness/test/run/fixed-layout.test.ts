// The untimed run that reads max RSS turns address-space randomization off for the program behind
// GNU time (run/common.ts gnuTimeWrap, machine/tools.ts): a real shell, setarch and GNU time.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShell } from '../../src/lib/exec.js';
import { findTools } from '../../src/machine/tools.js';
import { gnuTimeWrap } from '../../src/run/common.js';
import { parseGnuTime } from '../../src/run/parse-gnu-time.js';

const tools = findTools();
const ADDR_NO_RANDOMIZE = 0x0040000;

describe('the max RSS reading’s layout', () => {
  it('puts setarch -R in front of GNU time only for an untimed run, and only where setarch works', () => {
    const t = { hyperfine: 'hf', gnuTime: '/usr/bin/time', setarch: '/usr/bin/setarch' };
    expect(gnuTimeWrap(t, '/w/t.txt', true)).toMatch(/^'?\/usr\/bin\/setarch'? -R '?\/usr\/bin\/time'? -f /);
    expect(gnuTimeWrap(t, '/w/t.txt', false)).toMatch(/^'?\/usr\/bin\/time'? -f /);
    expect(gnuTimeWrap({ ...t, setarch: undefined }, '/w/t.txt', true)).toMatch(/^'?\/usr\/bin\/time'? -f /);
    expect(gnuTimeWrap({ hyperfine: 'hf', setarch: '/usr/bin/setarch' }, '/w/t.txt', true)).toBe('');
  });

  it.skipIf(!tools.setarch || !tools.gnuTime)(
    'runs the program with randomization off, and still reads its max RSS (real setarch and GNU time)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'jsio-layout-'));
      const personality = async (fixed: boolean) => {
        const file = join(dir, `time-${fixed}.txt`);
        const r = await runShell(`${gnuTimeWrap(tools, file, fixed)} cat /proc/self/personality`, {});
        expect(r.code).toBe(0);
        expect(parseGnuTime(readFileSync(file, 'utf8')).maxRssBytes).toBeGreaterThan(0);
        return Number.parseInt(r.stdout.trim(), 16);
      };
      expect((await personality(true)) & ADDR_NO_RANDOMIZE).toBe(ADDR_NO_RANDOMIZE);
      expect((await personality(false)) & ADDR_NO_RANDOMIZE).toBe(0);
    },
  );
});
