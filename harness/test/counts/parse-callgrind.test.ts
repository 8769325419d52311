// callgrind's output read into self instructions per function: on real files (the fixtures'
// README says how each was made), every function's self instructions add up to the totals
// callgrind wrote, each object gets its role, and JIT code its label; on small hand-written
// files, each rule of the format that the sum depends on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type ParsedProfile, type ProfileContext, parseCallgrind } from '../../src/counts/parse-callgrind.js';
import { type FunctionCost, JIT_OBJECT, NO_SYMBOL, UNPLACED_OBJECT } from '../../src/model/process-profile.js';
import { ROOT } from '../helpers/cli.js';

const fixture = (name: string) =>
  gunzipSync(readFileSync(join(ROOT, 'harness/test/fixtures/callgrind', name))).toString('utf8');
/** The totals lines, read on their own: what the functions must add up to. */
const totalsLines = (text: string) => [...text.matchAll(/^totals: (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
const ok = (p: ParsedProfile) => {
  if (!p.ok) throw new Error(p.reason);
  return p.profile;
};
const objects = (fns: readonly FunctionCost[]) => {
  const by = new Map<string, number>();
  for (const f of fns) by.set(`${f.role}: ${f.object}`, (by.get(`${f.role}: ${f.object}`) ?? 0) + f.instructions);
  return by;
};

const NATIVE: ProfileContext = { executable: 'program', jit: false };
const NODE: ProfileContext = { executable: 'runtime', jit: true };

describe.each([
  {
    file: 'wc-c.out.gz',
    context: NATIVE,
    // Valgrind's own "Collected" line of the same run.
    collected: 112_723,
    objects: ['program: wc-c', 'libc: libc.so.6', 'loader: ld-linux-x86-64.so.2', `unplaced: ${UNPLACED_OBJECT}`],
    functions: ['program: wc-c main', 'libc: libc.so.6 read'],
  },
  {
    file: 'wc-c-parts.out.gz',
    context: NATIVE,
    collected: 112_489,
    objects: ['program: wc-c', 'libc: libc.so.6', 'loader: ld-linux-x86-64.so.2'],
    functions: ['program: wc-c main', 'libc: libc.so.6 read'],
  },
  {
    file: 'node20-wc-readsync-evaluate.out.gz',
    context: NODE,
    collected: 36_648_763,
    objects: ['runtime: node', `jit: ${JIT_OBJECT}`, 'libc: libc.so.6', 'library: libstdc++.so.6.0.30'],
    functions: ['runtime: node v8::internal::Scanner::Next()', `jit: ${JIT_OBJECT} ${NO_SYMBOL}`],
  },
])('a real callgrind file: $file', ({ file, context, collected, objects: expected, functions }) => {
  const text = fixture(file);
  const parsed = parseCallgrind(text, context);
  const profile = parsed.ok ? parsed.profile : { command: '', instructions: 0, functions: [] };
  const named = profile.functions.map((f) => `${f.role}: ${f.object} ${f.function}`);

  it('its functions self instructions add up to its totals lines, which are the run count', () => {
    expect(parsed.ok || parsed.reason).toBe(true);
    expect(profile.functions.reduce((s, f) => s + f.instructions, 0)).toBe(totalsLines(text));
    expect(profile.instructions).toBe(totalsLines(text));
    expect(profile.instructions).toBe(collected);
  });

  it('names each object by its file with its role, the executable as the caller says', () => {
    expect([...objects(profile.functions).keys()]).toEqual(expect.arrayContaining(expected));
    expect(named).toEqual(expect.arrayContaining(functions));
  });

  it('merges recursion levels, clones and bare addresses: no "f\'2", ".isra.0" or 0x… function', () => {
    expect(
      profile.functions.filter((f) => /'\d+$|^0x[0-9a-f]+$|\.(isra|part|constprop)\.\d+$/i.test(f.function)),
    ).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('lists the most instructions first', () => {
    const counts = profile.functions.map((f) => f.instructions);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(profile.command).toMatch(/^(\.\/wc-c|node) /);
  });
});

describe('code in no object file', () => {
  it('is JIT code where a JIT compiler runs, stubs Valgrind could not place where none does', () => {
    const text = fixture('wc-c.out.gz');
    const native = objects(ok(parseCallgrind(text, NATIVE)).functions);
    const jit = objects(ok(parseCallgrind(text, { executable: 'program', jit: true })).functions);
    expect(native.get(`unplaced: ${UNPLACED_OBJECT}`)).toBe(jit.get(`jit: ${JIT_OBJECT}`));
    expect(native.has(`jit: ${JIT_OBJECT}`)).toBe(false);
  });
});

/** A small file in callgrind's format: header, then the body lines given. */
const file = (body: string, header = 'positions: line\nevents: Ir') =>
  `# callgrind format\nversion: 1\ncreator: test\npid: 7\ncmd:  ./prog --flag\npart: 1\n\n${header}\n\n${body}\n`;
const selfOf = (p: ParsedProfile) =>
  Object.fromEntries(ok(p).functions.map((f) => [`${f.object} ${f.function}`, f.instructions]));

describe('the format rules the sum depends on', () => {
  it("a call's cost line is the callee's inclusive cost, not the caller's own", () => {
    const text = file(`ob=(1) /bin/prog
fl=(1) prog.c
fn=(1) main
3 10
cfn=(2) work
calls=2 9
4 500
+1 5
fn=(2)
9 500
totals: 515`);
    expect(selfOf(parseCallgrind(text, NATIVE))).toEqual({ 'prog main': 15, 'prog work': 500 });
  });

  it('names are defined once and referred to by id, one table per kind; a call target may define them', () => {
    const text = file(`ob=(1) /lib/libc.so.6
fl=(1) same-id-as-a-function.c
fn=(1) strlen
0 4
cob=(2) /bin/prog
cfi=(2) prog.c
cfn=(2) callback
calls=1 0
0 6
ob=(2)
fl=(2)
fn=(2)
0 6
ob=(1)
fl=(1)
fn=(1)
0 1
totals: 11`);
    expect(selfOf(parseCallgrind(text, NATIVE))).toEqual({ 'libc.so.6 strlen': 5, 'prog callback': 6 });
    expect(ok(parseCallgrind(text, NATIVE)).functions.find((f) => f.function === 'callback')?.role).toBe('program');
  });

  it('several position columns, relative and same positions, Ir among other events, trailing zeros left out', () => {
    const text = file(
      `ob=(1) /bin/prog
fn=(1) main
0x401000 3 0 7
+2 +1 1 2
* * 0 5
-1 -1
totals: 3 14`,
      'positions: instr line\nevents: Dr Ir',
    );
    expect(selfOf(parseCallgrind(text, NATIVE))).toEqual({ 'prog main': 14 });
  });

  it("gcc's clones, recursion levels and bare addresses are merged into one name each", () => {
    const text = file(`ob=(1) /bin/prog
fn=(1) checksum.isra.0
0 3
fn=(2) checksum
0 4
fn=(3) walk(int) [clone .constprop.0] [clone .cold]
0 5
fn=(4) walk(int)'2
0 6
fn=(5) 0x0000000000401000
0 7
fn=(6) 0x0000000000402000
0 8
totals: 33`);
    expect(selfOf(parseCallgrind(text, NATIVE))).toEqual({
      'prog checksum': 7,
      'prog walk(int)': 11,
      [`prog ${NO_SYMBOL}`]: 15,
    });
  });

  it('parts add up, each counting from the last dump', () => {
    const text = file(`ob=(1) /bin/prog
fn=(1) main
0 10
totals: 10
part: 2
events: Ir
fn=(1)
0 4
totals: 4`);
    expect(ok(parseCallgrind(text, NATIVE)).instructions).toBe(14);
  });

  it.each([
    ['a name used before it is defined', 'ob=(1) /bin/prog\nfn=(3)\n0 1\ntotals: 1', /line 12: name \(3\) used before/],
    ['a line it does not know', 'ob=(1) /bin/prog\nfn=(1) main\nbogus line\ntotals: 1', /line 13: unknown line/],
    [
      'an inherited name as a specification',
      'ob=(1) /bin/prog\nconstructor=(1) x\n0 1\ntotals: 1',
      /unknown specification constructor=/,
    ],
    ['a cost that is not a number', 'ob=(1) /bin/prog\nfn=(1) main\n0 1x\ntotals: 1', /not a cost/],
    [
      'a call without its cost line',
      'ob=(1) /bin/prog\nfn=(1) main\ncalls=1 0\nfn=(2) x\n0 1\ntotals: 1',
      /a call's cost line/,
    ],
    [
      'no totals (the process was killed)',
      'ob=(1) /bin/prog\nfn=(1) main\n0 1',
      /no totals: the process did not finish/,
    ],
    [
      'self instructions that miss the totals',
      'ob=(1) /bin/prog\nfn=(1) main\n0 1\ntotals: 2',
      /add up to 1, its totals say 2/,
    ],
  ])('refuses %s, saying where', (_what, body, reason) => {
    const p = parseCallgrind(file(body), NATIVE);
    expect(p.ok).toBe(false);
    expect(!p.ok && p.reason).toMatch(reason);
  });
});
