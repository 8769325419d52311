// Generated inputs are the same bytes on every run and machine (the input cache and the trend
// history depend on it), and the scan generator's recorded counts match its files.
import { describe, expect, it } from 'vitest';
import { project } from '../../../programs/scan/generate.mjs';
import { buildList } from '../../../programs/threadpool/generate.mjs';

describe('generators', () => {
  it('scan: the same project twice for the same size, a different one for another size', () => {
    const a = project(100);
    const b = project(100);
    expect([...a.files]).toEqual([...b.files]);
    expect(a.counts).toEqual(b.counts);
    expect([...project(101).files]).not.toEqual([...a.files]);
  });

  it('scan: recorded counts equal a recount of the reachable files', () => {
    const { files, graph, counts } = project(50);
    const reachable = new Set(['index.js']);
    const todo = ['index.js'];
    while (todo.length)
      for (const d of graph.get(todo.pop() as string) ?? [])
        if (!reachable.has(d)) {
          reachable.add(d);
          todo.push(d);
        }
    let constants = 0;
    let functions = 0;
    let imports = 0;
    for (const path of reachable) {
      for (const line of (files.get(path) ?? '').split('\n')) {
        if (/^import .* from '/.test(line)) imports++;
        else if (/^(export )?const /.test(line)) constants++;
        else if (/^(export )?function /.test(line)) functions++;
      }
    }
    expect(counts).toEqual({ files: 50, imports, constants, functions });
  });

  it('threadpool: the same ~127 KB build list every time', () => {
    const a = JSON.stringify(buildList());
    expect(JSON.stringify(buildList())).toBe(a);
    expect(Buffer.byteLength(a)).toBeGreaterThan(125_000);
    expect(Buffer.byteLength(a)).toBeLessThan(130_000);
    expect(buildList().jobs.length).toBeGreaterThan(100);
  });
});
