// The scan generator's cycle check (Tarjan's SCC): it must reject cyclic import graphs, and the
// projects it generates must pass it.
import { describe, expect, it } from 'vitest';
import { assertAcyclic, cycles, project } from '../../../programs/scan/generate.mjs';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe('scan generator cycle check', () => {
  it('finds a three-file cycle and names its files', () => {
    const found = cycles(
      graph({ 'index.js': ['a.js'], 'a.js': ['b.js'], 'b.js': ['c.js'], 'c.js': ['a.js'], 'd.js': [] }),
    );
    expect(found).toHaveLength(1);
    expect([...(found[0] ?? [])].sort()).toEqual(['a.js', 'b.js', 'c.js']);
    expect(() => assertAcyclic(graph({ 'a.js': ['b.js'], 'b.js': ['a.js'] }))).toThrow(/import cycle/);
  });

  it('treats a file importing itself as a cycle', () => {
    expect(cycles(graph({ 'a.js': ['a.js'] }))).toEqual([['a.js']]);
  });

  it('accepts a diamond (shared imports are not cycles)', () => {
    expect(cycles(graph({ 'index.js': ['a.js', 'b.js'], 'a.js': ['c.js'], 'b.js': ['c.js'], 'c.js': [] }))).toEqual([]);
  });

  it('passes every generated project size, and every module is reachable from index.js', () => {
    for (const n of [2, 10, 500, 1500]) {
      const { graph: g } = project(n);
      expect(cycles(g)).toEqual([]);
      const seen = new Set(['index.js']);
      const todo = ['index.js'];
      while (todo.length)
        for (const d of g.get(todo.pop() as string) ?? [])
          if (!seen.has(d)) {
            seen.add(d);
            todo.push(d);
          }
      expect(seen.size).toBe(n); // the one orphan module is left out on purpose
      expect(g.size).toBe(n + 1);
    }
  });
});
