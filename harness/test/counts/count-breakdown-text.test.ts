// The PR comment's account of where a point's instructions went: one line in words, a folded
// block with the objects' and functions' tables; names from binaries a pull request controls are
// made inert (no HTML, no link, no mention, no broken table, no escape from the fold).
import { describe, expect, it } from 'vitest';
import { diffBreakdowns } from '../../src/counts/count-breakdown.js';
import { breakdownLine, renderCountBreakdown, signedCount } from '../../src/counts/count-breakdown-text.js';
import { type FunctionCost, JIT_OBJECT, NO_SYMBOL, type ProcessProfile } from '../../src/model/process-profile.js';

const fn = (object: string, role: FunctionCost['role'], name: string, instructions: number): FunctionCost => ({
  object,
  role,
  function: name,
  instructions,
});
const proc = (functions: FunctionCost[]): ProcessProfile => ({
  command: 'node x.js',
  instructions: functions.reduce((s, f) => s + f.instructions, 0),
  functions,
});

const base = proc([
  fn('node', 'runtime', 'v8::internal::Heap::Scavenge()', 1_000_000),
  fn('node', 'runtime', 'Builtins_InterpreterEntryTrampoline', 500_000),
  fn('libc.so.6', 'libc', 'memcpy', 90_000),
  fn('libc.so.6', 'libc', 'read', 7_000),
  fn(JIT_OBJECT, 'jit', NO_SYMBOL, 300_000),
]);
const head = proc([
  fn('node', 'runtime', 'v8::internal::Heap::Scavenge()', 1_250_000),
  fn('node', 'runtime', 'Builtins_InterpreterEntryTrampoline', 648_000),
  fn('libc.so.6', 'libc', 'memcpy', 104_000),
  fn('libc.so.6', 'libc', 'read', 7_000),
  fn(JIT_OBJECT, 'jit', NO_SYMBOL, 260_000),
]);

describe('signedCount', () => {
  it('groups digits and signs a change', () => {
    expect([412_000, -14_000, 0].map(signedCount)).toEqual(['+412,000', '−14,000', '0']);
  });
});

describe('the account of a change', () => {
  it('says it in one line: totals, objects, then functions', () => {
    expect(breakdownLine(diffBreakdowns([base], [head]))).toBe(
      '+372,000 instructions: node (the runtime binary) +398,000, JIT code (no object file) −40,000, libc.so.6 (libc) +14,000; by function: v8::internal::Heap::Scavenge() (node) +250,000, Builtins_InterpreterEntryTrampoline (node) +148,000, JIT code −40,000, …',
    );
  });

  it('folds the tables under a summary of numbers only', () => {
    expect(renderCountBreakdown(diffBreakdowns([base], [head]))).toMatchInlineSnapshot(`
      "<details><summary>Where the instructions went (callgrind): +372,000</summary>

      +372,000 instructions: node (the runtime binary) +398,000, JIT code (no object file) −40,000, libc.so.6 (libc) +14,000; by function: v8::internal::Heap::Scavenge() (node) +250,000, Builtins_InterpreterEntryTrampoline (node) +148,000, JIT code −40,000, …

      | object | base | head | change |
      | --- | ---: | ---: | ---: |
      | node (the runtime binary) | 1,500,000 | 1,898,000 | +398,000 |
      | JIT code (no object file) | 300,000 | 260,000 | −40,000 |
      | libc.so.6 (libc) | 97,000 | 111,000 | +14,000 |

      | function (object) | base | head | change |
      | --- | ---: | ---: | ---: |
      | v8::internal::Heap::Scavenge() (node) | 1,000,000 | 1,250,000 | +250,000 |
      | Builtins_InterpreterEntryTrampoline (node) | 500,000 | 648,000 | +148,000 |
      | JIT code | 300,000 | 260,000 | −40,000 |
      | memcpy (libc.so.6) | 90,000 | 104,000 | +14,000 |
      | everything else (1 function, 0 changed) | 7,000 | 7,000 | 0 |

      _Self instructions (a function's own, not its callees'), head minus base, from one callgrind run per side (1,897,000 instructions in base, 2,269,000 in head): evidence for the counted change, not the count that decided it._
      </details>"
    `);
  });

  it('says when nothing stands out, and when the sides ran different numbers of processes', () => {
    expect(breakdownLine(diffBreakdowns([base], [base]))).toBe('0 instructions: no object or function stands out');
    expect(breakdownLine(diffBreakdowns([base], [base, proc([fn('sh', 'program', 'main', 5)])]))).toMatch(
      /^\+5 instructions \(processes: 1 in base, 2 in head\): sh \(the program\) \+5; by function: main \(sh\) \+5$/,
    );
  });
});

describe('names a pull request controls', () => {
  const HOSTILE = [
    '<script>alert(1)</script>',
    '</details><img src=x onerror=alert(1)>',
    'x | y | z',
    '[click](https://evil.example)',
    '![img](https://evil.example/a.png)',
    '@octocat/team',
    '#12 GH-34 owner/repo#56',
    '`code` *bold* __init__',
    'line\nbreak\r\n## heading',
    '<!-- unclosed comment',
    'www.evil.example https://evil.example',
    '\u0000nul\u0007bell',
  ];
  const hostileSide = (k: number) =>
    proc(HOSTILE.flatMap((h, i) => [fn(h, 'library', `f${i}`, (i + 1) * k), fn('prog', 'program', h, (i + 2) * k)]));
  const b = diffBreakdowns([hostileSide(1000)], [hostileSide(3000)], { objects: 50, functions: 50, minShare: 0 });
  const text = [breakdownLine(b), renderCountBreakdown(b)].join('\n');

  it('every name is listed, escaped', () => {
    expect(b.objects.length).toBe(HOSTILE.length + 1);
    expect(b.functions.length).toBe(HOSTILE.length * 2);
  });

  it('no HTML tag, comment or link survives; the fold closes once, where it should', () => {
    expect(text).not.toMatch(/<(?!\/?details>|summary>|\/summary>)/);
    expect(text.match(/<\/details>/g)).toHaveLength(1);
    expect(text.trimEnd().endsWith('</details>')).toBe(true);
    expect(text).not.toMatch(/(?<!\\)\]\(/);
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).not.toMatch(/(^|[^\w.+-])@\w/);
    expect(text).not.toMatch(/#\d/);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('no name breaks a table row or starts a line of its own', () => {
    const rows = text.split('\n').filter((l) => l.startsWith('| '));
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length, row).toBe(6);
    expect(text.split('\n').filter((l) => l.startsWith('#'))).toEqual([]);
  });

  it('the summary holds numbers and fixed words only', () => {
    const summary = /<summary>(.*)<\/summary>/.exec(renderCountBreakdown(b))![1]!;
    expect(summary).toMatch(/^Where the instructions went \(callgrind\): [+−]?[\d,]+$/);
  });
});
