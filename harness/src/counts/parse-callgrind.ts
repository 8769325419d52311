/**
 * One process's callgrind output file (Valgrind's "Callgrind Format Specification") made into its
 * self instructions per function, each with its object. Pure.
 *
 * What the format asks of a reader:
 * - `ob=`, `fl=`/`fi=`/`fe=` and `fn=` set the object, file and function that the following cost
 *   lines belong to; `cob=`, `cfi=`/`cfl=` and `cfn=` name a call's target. A name is written once
 *   as "(id) name" and afterwards as "(id)" alone, one table per kind (objects, files, functions),
 *   and a target's line may be the one that defines it.
 * - A cost line is the position columns `positions:` declares (line, or instr line; absolute,
 *   "+n"/"-n" relative, or "*" for the same) followed by one count per event of `events:` (trailing
 *   zeros left out).
 * - The cost line after a `calls=` line is the call's inclusive cost, the callee's work: it is not
 *   the caller's own, and adding it would count the callee twice.
 * - `totals:` ends a part (a dump); a file may hold several parts, each counting from the last.
 */
import { compareText } from '../lib/compare-text.js';
import {
  type FunctionCost,
  JIT_OBJECT,
  NO_SYMBOL,
  type ObjectRole,
  type ProcessProfile,
  UNPLACED_OBJECT,
} from '../model/process-profile.js';

export type ParsedProfile = { ok: true; profile: ProcessProfile } | { ok: false; reason: string };

/** What the caller knows of the process that the file cannot say. */
export interface ProfileContext {
  /** Whether its executable is the program itself (C, a static app, a system tool) or the runtime that runs it. */
  executable: 'program' | 'runtime';
  /** Whether a JIT compiler runs in it: its code in no object file is then JIT code. */
  jit: boolean;
}

const SUBPOSITION = /^(?:[+-]?(?:\d+|0x[0-9a-fA-F]+)|\*)$/;
const COST = /^\d+$/;
const KINDS = { ob: 'ob', cob: 'ob', fl: 'fl', fi: 'fl', fe: 'fl', cfi: 'fl', cfl: 'fl', fn: 'fn', cfn: 'fn' } as const;
type Kind = (typeof KINDS)[keyof typeof KINDS];

class FormatError extends Error {}

/** The reader's state while it walks the lines: names seen, where costs go, and what they add up to. */
class Reader {
  readonly names: Record<Kind, Map<string, string>> = { ob: new Map(), fl: new Map(), fn: new Map() };
  positions = 1;
  ir = -1;
  object = '???';
  fn = '???';
  inclusiveNext = false;
  totals: number | undefined;
  command = '';
  pid: number | undefined;
  /** Self instructions by object, then function. */
  readonly self = new Map<string, Map<string, number>>();

  /** "(id) name" defines, "(id)" refers, a bare name is itself. */
  name(kind: Kind, value: string): string {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(value);
    if (!m) return value;
    const [, id, defined] = m;
    if (defined !== undefined) {
      this.names[kind].set(id!, defined);
      return defined;
    }
    const known = this.names[kind].get(id!);
    if (known === undefined) throw new FormatError(`name (${id}) used before it is defined`);
    return known;
  }

  position(key: keyof typeof KINDS, value: string): void {
    const name = this.name(KINDS[key], value);
    if (key === 'ob') this.object = name;
    else if (key === 'fn') this.fn = name;
  }

  /** The Ir column of a list of counts, one per event. */
  irOf(costs: readonly string[]): number {
    if (this.ir < 0) throw new FormatError('costs, but `events:` names no Ir');
    if (!costs.every((c) => COST.test(c))) throw new FormatError(`not a cost: "${costs.join(' ')}"`);
    return Number(costs[this.ir] ?? 0);
  }

  /** A cost line's Ir column, once its positions are checked. */
  cost(tokens: readonly string[]): number {
    const positions = tokens.slice(0, this.positions);
    if (positions.length < this.positions || !positions.every((p) => SUBPOSITION.test(p)))
      throw new FormatError(`not a cost line: "${tokens.join(' ')}"`);
    return this.irOf(tokens.slice(this.positions));
  }

  costLine(tokens: readonly string[]): void {
    const ir = this.cost(tokens);
    if (this.inclusiveNext) {
      this.inclusiveNext = false;
      return;
    }
    if (!ir) return;
    const fns = this.self.get(this.object) ?? new Map<string, number>();
    this.self.set(this.object, fns);
    fns.set(this.fn, (fns.get(this.fn) ?? 0) + ir);
  }

  header(key: string, value: string): void {
    if (this.inclusiveNext) throw new FormatError(`${key}: where a call's cost line belongs`);
    if (key === 'events') this.ir = value.split(/\s+/).indexOf('Ir');
    else if (key === 'positions') this.positions = value.split(/\s+/).filter(Boolean).length;
    else if (key === 'cmd') this.command = value;
    else if (key === 'pid') this.pid = Number(value);
    else if (key === 'totals') this.totals = (this.totals ?? 0) + this.irOf(value.split(/\s+/).filter(Boolean));
  }

  line(raw: string): void {
    const line = raw.trimEnd();
    if (!line || line.startsWith('#')) return;
    const assignment = /^([a-z]+)=\s*(.*)$/.exec(line);
    const header = /^([a-z]+):\s*(.*)$/.exec(line);
    if (assignment) this.assignment(assignment[1]!, assignment[2]!);
    else if (header) this.header(header[1]!, header[2]!);
    else if (this.inclusiveNext || /^[-+*\d]/.test(line)) this.costLine(line.split(/\s+/));
    else throw new FormatError(`unknown line: "${line.slice(0, 80)}"`);
  }

  assignment(key: string, value: string): void {
    if (this.inclusiveNext) throw new FormatError(`${key}= where a call's cost line belongs`);
    if (Object.hasOwn(KINDS, key)) this.position(key as keyof typeof KINDS, value);
    else if (key === 'calls') this.inclusiveNext = true;
    else if (!['jump', 'jcnd', 'jfi', 'jfn'].includes(key)) throw new FormatError(`unknown specification ${key}=`);
  }
}

const inNoFile = (path: string) => path === '???' || path === '';
/** An object's file name: its path's last part. */
const fileName = (path: string) => path.split('/').at(-1) ?? path;

/** gcc's copies of one function (".isra.0", ".constprop.1", ".part.0", ".cold"; "[clone .isra.0]" demangled). */
const CLONE = /(?:\.(?:isra|constprop|part|cold|lto_priv)(?:\.\d+)?|\s*\[clone \.[a-z_]+(?:\.\d+)?\])+$/;

/**
 * A function's name as its source names it: callgrind's recursion level ("f'2") and gcc's clone
 * suffixes dropped (a change of the compiler's mind between two builds renames a function, not
 * its work); NO_SYMBOL for a bare address.
 */
function functionName(name: string): string {
  const merged = name.replace(/'\d+$/, '').replace(CLONE, '');
  return merged === '???' || merged === '' || /^0x[0-9a-fA-F]+$/.test(merged) ? NO_SYMBOL : merged;
}

/**
 * The executable among the objects: the one named like the command's first word, else the one
 * (not the dynamic loader, which has its own `_start`) holding `main` or `_start`.
 */
function findExecutable(self: ReadonlyMap<string, ReadonlyMap<string, number>>, command: string): string | undefined {
  const argv0 = fileName(command.trim().split(/\s+/)[0] ?? '');
  const paths = [...self.keys()];
  const named = paths.find((p) => !inNoFile(p) && fileName(p) === argv0);
  if (named) return named;
  return paths.find(
    (p) => roleOf(p) === 'library' && [...self.get(p)!.keys()].some((f) => f === 'main' || f === '_start'),
  );
}

/** An object's role by its name alone (the executable's and code in no file's are the caller's to say). */
function roleOf(path: string): ObjectRole {
  const name = fileName(path);
  if (inNoFile(path)) return 'unplaced';
  if (/^libc[.-]/.test(name)) return 'libc';
  if (/^ld(-linux[^/]*|\.so|-musl[^/]*)/.test(name)) return 'loader';
  if (name.startsWith('vgpreload_')) return 'valgrind';
  return 'library';
}

function functionsOf(r: Reader, context: ProfileContext): FunctionCost[] {
  const exe = findExecutable(r.self, r.command);
  const merged = new Map<string, FunctionCost>();
  for (const [path, fns] of r.self) {
    const role = path === exe ? context.executable : inNoFile(path) && context.jit ? 'jit' : roleOf(path);
    const object = role === 'jit' ? JIT_OBJECT : role === 'unplaced' ? UNPLACED_OBJECT : fileName(path);
    for (const [fn, instructions] of fns) {
      const name = functionName(fn);
      const key = `${role}\0${object}\0${name}`;
      const seen = merged.get(key);
      if (seen) seen.instructions += instructions;
      else merged.set(key, { object, role, function: name, instructions });
    }
  }
  return [...merged.values()].sort(
    (a, b) => b.instructions - a.instructions || compareText(a.object, b.object) || compareText(a.function, b.function),
  );
}

/**
 * One process's file: its functions' self instructions, or why it cannot be read (a process
 * killed before its dump has no totals line; a line this reader does not know is refused, not
 * skipped; and the self instructions must add up to the totals, or the reading is wrong).
 */
export function parseCallgrind(text: string, context: ProfileContext): ParsedProfile {
  const r = new Reader();
  const lines = text.split('\n');
  try {
    for (let i = 0; i < lines.length; i++) {
      try {
        r.line(lines[i]!);
      } catch (e) {
        if (e instanceof FormatError) throw new FormatError(`line ${i + 1}: ${e.message}`);
        throw e;
      }
    }
  } catch (e) {
    if (e instanceof FormatError) return { ok: false, reason: `callgrind output: ${e.message}` };
    throw e;
  }
  if (r.totals === undefined)
    return { ok: false, reason: 'callgrind output has no totals: the process did not finish' };
  const functions = functionsOf(r, context);
  const sum = functions.reduce((s, f) => s + f.instructions, 0);
  if (sum !== r.totals)
    return { ok: false, reason: `callgrind output: self instructions add up to ${sum}, its totals say ${r.totals}` };
  return {
    ok: true,
    profile: { ...(r.pid !== undefined ? { pid: r.pid } : {}), command: r.command, instructions: r.totals, functions },
  };
}
