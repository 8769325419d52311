// Both sides of a paired diff measure with one gcc, hyperfine, Valgrind and C library: a diff
// whose sides recorded different ones refuses, naming the tool and both versions.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/lib/errors.js';
import { refuseUnequalTools, toolMismatches } from '../../../src/pairs/engine/measuring-tools.js';

const TOOLS = { node: '20.20.2', gcc: '12.2.0', hyperfine: '1.15.0', valgrind: '3.19.0', glibc: '2.36', strace: '6.1' };

describe('the measuring tools of the two sides', () => {
  it('agree when each shared tool has one version (runtimes may differ: a pin bump)', () => {
    expect(toolMismatches(TOOLS, { ...TOOLS, just: '0.1.14', node: '22.1.0' })).toEqual([]);
    expect(() => refuseUnequalTools(TOOLS, { ...TOOLS })).not.toThrow();
  });

  it.each([
    ['gcc', '13.1.0', 'gcc 12.2.0 (base) and 13.1.0 (head)'],
    ['hyperfine', '1.18.0', 'hyperfine 1.15.0 (base) and 1.18.0 (head)'],
    ['valgrind', '3.22.0', 'valgrind 3.19.0 (base) and 3.22.0 (head)'],
    ['glibc', '2.39', 'glibc 2.36 (base) and 2.39 (head)'],
  ])('differ on %s: the diff refuses naming it and both versions', (tool, version, says) => {
    const head = { ...TOOLS, [tool]: version };
    expect(toolMismatches(TOOLS, head)).toEqual([says]);
    expect(() => refuseUnequalTools(TOOLS, head)).toThrow(UserError);
    expect(() => refuseUnequalTools(TOOLS, head)).toThrow(`the two sides would measure with different tools: ${says}`);
  });

  it('differ when a tool is recorded on one side only', () => {
    const { valgrind: _gone, ...head } = TOOLS;
    expect(toolMismatches(TOOLS, head)).toEqual(['valgrind 3.19.0 (base) and absent (head)']);
  });
});
