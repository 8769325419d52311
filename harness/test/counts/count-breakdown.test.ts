// Where the instructions went between two sides: processes summed per side, objects and functions
// matched by role and name, the largest changes listed and the rest folded so that everything
// adds up to the totals, names cut to the schema's cap; the result is what comparison.json's
// WorkBreakdown fragment accepts.
import { describe, expect, it } from 'vitest';
import { BREAKDOWN_LIMITS, diffBreakdowns } from '../../src/counts/count-breakdown.js';
import { BREAKDOWN_NAME_CAP, WorkBreakdown } from '../../src/formats/parts/work-breakdown-fields.js';
import { type FunctionCost, JIT_OBJECT, type ProcessProfile } from '../../src/model/process-profile.js';

const fn = (object: string, role: FunctionCost['role'], name: string, instructions: number): FunctionCost => ({
  object,
  role,
  function: name,
  instructions,
});
const proc = (functions: FunctionCost[], pid = 1): ProcessProfile => ({
  pid,
  command: 'node x.js',
  instructions: functions.reduce((s, f) => s + f.instructions, 0),
  functions,
});

const BASE = [
  proc([
    fn('node', 'runtime', 'v8::internal::Heap::Scavenge()', 1_000_000),
    fn('node', 'runtime', 'Builtins_InterpreterEntryTrampoline', 500_000),
    fn('libc.so.6', 'libc', 'read', 7_000),
    fn('libc.so.6', 'libc', 'memcpy', 90_000),
    fn(JIT_OBJECT, 'jit', '(no symbol)', 300_000),
  ]),
];
const HEAD = [
  proc([
    fn('node', 'runtime', 'v8::internal::Heap::Scavenge()', 1_250_000),
    fn('node', 'runtime', 'Builtins_InterpreterEntryTrampoline', 648_000),
    fn('libc.so.6', 'libc', 'read', 7_000),
    fn('libc.so.6', 'libc', 'memcpy', 104_000),
    fn(JIT_OBJECT, 'jit', '(no symbol)', 299_990),
  ]),
];

describe('the breakdown of a change', () => {
  const b = diffBreakdowns(BASE, HEAD);

  it('totals and objects, largest change first, with base, head and change', () => {
    expect(b).toMatchObject({ tool: 'callgrind', processes: { base: 1, head: 1 }, change: 412_000 - 10 });
    expect(b.objects.map((o) => [o.object, o.role, o.change])).toEqual([
      ['node', 'runtime', 398_000],
      ['libc.so.6', 'libc', 14_000],
    ]);
    expect(b.objects[0]).toMatchObject({ base: 1_500_000, head: 1_898_000 });
  });

  it('functions by absolute change; a change below the share of all changes is folded, not listed', () => {
    expect(b.functions.map((f) => [f.function, f.change])).toEqual([
      ['v8::internal::Heap::Scavenge()', 250_000],
      ['Builtins_InterpreterEntryTrampoline', 148_000],
      ['memcpy', 14_000],
    ]);
    // JIT code moved by 10 of 412,010 moved in all: folded with the unchanged read().
    expect(b.otherFunctions).toEqual({ entries: 2, changed: 1, base: 307_000, head: 306_990, change: -10 });
    expect(b.otherObjects).toMatchObject({ entries: 1, changed: 1, change: -10 });
  });

  it('listed rows and the folded rest add up to each side\u2019s totals', () => {
    for (const [rows, rest] of [
      [b.objects, b.otherObjects],
      [b.functions, b.otherFunctions],
    ] as const) {
      expect(rows.reduce((s, r) => s + r.base, rest.base)).toBe(b.base);
      expect(rows.reduce((s, r) => s + r.head, rest.head)).toBe(b.head);
      expect(rows.reduce((s, r) => s + r.change, rest.change)).toBe(b.change);
    }
  });

  it('is what the comparison.json fragment accepts', () => {
    expect(WorkBreakdown.parse(b)).toEqual(b);
  });
});

describe('matching the sides', () => {
  it("sums a side's processes, and lists a function new in head and one gone from it", () => {
    const head = [
      proc([fn('prog', 'program', 'main', 100), fn('prog', 'program', 'added', 40)], 1),
      proc([fn('prog', 'program', 'main', 100)], 2),
    ];
    const base = [proc([fn('prog', 'program', 'main', 150), fn('prog', 'program', 'removed', 30)])];
    const b = diffBreakdowns(base, head);
    expect(b.processes).toEqual({ base: 1, head: 2 });
    expect(b.functions.map((f) => [f.function, f.base, f.head])).toEqual([
      ['main', 150, 200],
      ['added', 0, 40],
      ['removed', 30, 0],
    ]);
  });

  it('keeps the same name in two roles apart (a program and a library both called "x")', () => {
    const base = [proc([fn('x', 'program', 'f', 10), fn('x', 'library', 'f', 10)])];
    const head = [proc([fn('x', 'program', 'f', 20), fn('x', 'library', 'f', 10)])];
    expect(diffBreakdowns(base, head).functions).toEqual([
      { function: 'f', object: 'x', role: 'program', base: 10, head: 20, change: 10 },
    ]);
  });

  it('no change: nothing listed, everything in the folded rest', () => {
    const b = diffBreakdowns(BASE, BASE);
    expect(b.objects).toEqual([]);
    expect(b.functions).toEqual([]);
    expect(b.otherFunctions).toMatchObject({ entries: 5, changed: 0, change: 0 });
  });

  it('lists at most the limits asked for, and never more than the schema holds', () => {
    const many = (k: number) => proc(Array.from({ length: 200 }, (_, i) => fn('p', 'program', `f${i}`, (i + 1) * k)));
    const b = diffBreakdowns([many(1)], [many(2)], { ...BREAKDOWN_LIMITS, functions: 1000, minShare: 0 });
    expect(b.functions.length).toBe(50);
    expect(b.functions[0]).toMatchObject({ function: 'f199', change: 200 });
    expect(diffBreakdowns([many(1)], [many(2)]).functions.length).toBe(BREAKDOWN_LIMITS.functions);
    expect(() => WorkBreakdown.parse(b)).not.toThrow();
  });
});

describe('names a pull request controls', () => {
  it('are cut to the cap, kept as they are otherwise (the renderer escapes them)', () => {
    const long = `std::vector<${'a'.repeat(5000)}>`;
    const hostile = '<img src=x onerror=alert(1)> | [x](http://evil) @team #1 `code`';
    const b = diffBreakdowns(
      [proc([fn(hostile, 'library', long, 1), fn('p', 'program', hostile, 1)])],
      [proc([fn(hostile, 'library', long, 5), fn('p', 'program', hostile, 9)])],
    );
    expect(b.functions.map((f) => f.function)).toEqual([hostile, `${long.slice(0, BREAKDOWN_NAME_CAP - 1)}…`]);
    expect(b.functions[1]!.object).toBe(hostile);
    expect(() => WorkBreakdown.parse(b)).not.toThrow();
  });

  it('the fragment refuses names past the cap, unknown roles and extra fields', () => {
    const b = diffBreakdowns(BASE, HEAD);
    const bad = [
      { ...b, objects: [{ ...b.objects[0]!, object: 'x'.repeat(BREAKDOWN_NAME_CAP + 1) }] },
      { ...b, functions: [{ ...b.functions[0]!, role: 'kernel' }] },
      { ...b, extra: 1 },
      { ...b, change: 0.5 },
    ];
    for (const x of bad) expect(WorkBreakdown.safeParse(x).success).toBe(false);
  });
});
