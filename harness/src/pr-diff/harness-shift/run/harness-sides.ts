/**
 * The two harnesses a harness shift compares, set up to measure the same programs: one directory
 * per side, at paths of the same length, each holding its checkout's harness (and npm manifest)
 * with the HEAD's programs linked in. Runtimes and generated inputs (content-keyed) come from the
 * head's cache by a link on both sides, and both write scratch files into one directory, so what
 * differs between the sides is the harness alone.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';

export interface ShiftSides {
  /** The directory holding both sides (and their results). */
  dir: string;
  base: string;
  head: string;
  /** Removes the sides (links only point out; nothing outside is removed). */
  dispose(): void;
}

const sameBytes = (a: string, b: string) =>
  existsSync(a) && existsSync(b) && Buffer.compare(readFileSync(a), readFileSync(b)) === 0;

/**
 * The npm packages a side runs with: its checkout's own when it has them, else the head's when
 * both lock files agree. Otherwise none, and the side's bootstrap installs its own (a link to
 * another lock's packages would be reinstalled in place).
 */
function linkPackages(root: string, headRoot: string, side: string): void {
  const own = join(root, 'node_modules');
  if (existsSync(own)) symlinkSync(own, join(side, 'node_modules'), 'dir');
  else if (sameBytes(join(root, 'package-lock.json'), join(headRoot, 'package-lock.json')))
    symlinkSync(join(headRoot, 'node_modules'), join(side, 'node_modules'), 'dir');
}

function makeSide(root: string, headRoot: string, side: string, scratch: string): void {
  mkdirSync(side);
  const tests = join(root, 'harness', 'test');
  cpSync(join(root, 'harness'), join(side, 'harness'), {
    recursive: true,
    filter: (src) => src !== tests && !src.startsWith(`${tests}${sep}`),
  });
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json'])
    if (existsSync(join(root, f))) cpSync(join(root, f), join(side, f));
  linkPackages(root, headRoot, side);
  symlinkSync(join(headRoot, 'programs'), join(side, 'programs'), 'dir');
  const cache = join(side, '.cache');
  mkdirSync(cache);
  for (const shared of ['runtimes', 'inputs']) {
    mkdirSync(join(headRoot, '.cache', shared), { recursive: true });
    symlinkSync(join(headRoot, '.cache', shared), join(cache, shared), 'dir');
  }
  symlinkSync(scratch, join(cache, 'scratch'), 'dir');
}

/** Both sides in a new temporary directory. */
export function makeShiftSides(baseRoot: string, headRoot: string): ShiftSides {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-harness-shift-'));
  const head = resolve(headRoot);
  const scratch = join(dir, 'scratch');
  mkdirSync(scratch);
  try {
    makeSide(resolve(baseRoot), head, join(dir, 'base'), scratch);
    makeSide(head, head, join(dir, 'head'), scratch);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    base: join(dir, 'base'),
    head: join(dir, 'head'),
    // rmSync removes links, never what they point to.
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
