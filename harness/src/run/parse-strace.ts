/**
 * strace -c summary table -> calls per syscall. Two layouts are read: the default
 * (`% time seconds usecs/call calls errors syscall`) and the one the harness asks for with
 * `-U name,calls,errors` (`syscall calls errors`). The errors column is blank when zero.
 */
export interface SyscallCounts {
  calls: Record<string, number>;
  errors: Record<string, number>;
  total: number;
}

export function parseStraceSummary(text: string): SyscallCounts {
  const calls: Record<string, number> = {};
  const errors: Record<string, number> = {};
  let total: number | undefined;
  let layout: 'name-first' | 'name-last' | undefined;
  for (const line of text.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (!line.trim() || /^-+$/.test(cols[0] ?? '')) continue;
    if (!layout) {
      if (cols[0] === 'syscall' && cols[1] === 'calls') layout = 'name-first';
      else if (cols[0] === '%' && cols.at(-1) === 'syscall') layout = 'name-last';
      continue;
    }
    let name: string | undefined;
    let n: number;
    let e: number;
    if (layout === 'name-first') {
      name = cols[0];
      n = Number(cols[1]);
      e = cols[2] === undefined ? 0 : Number(cols[2]);
    } else {
      name = cols.at(-1);
      n = Number(cols[3]);
      e = cols.length >= 6 ? Number(cols[4]) : 0;
    }
    if (!name || !Number.isFinite(n)) continue;
    if (name === 'total') {
      total = n;
      continue;
    }
    calls[name] = n;
    if (e) errors[name] = e;
  }
  if (!layout) throw new Error('not an strace -c summary: no header row naming "syscall" and "calls"');
  return { calls, errors, total: total ?? Object.values(calls).reduce((a, b) => a + b, 0) };
}
