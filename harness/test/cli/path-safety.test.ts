// Every identifier that becomes a path (commit, experiment, variant, machine id,
// parameter values) is validated where it enters, and nothing is written outside the store. This
// feeds crafted results, noise files and artifacts (with '..', '/', absolute paths, and symlinks
// planted in the store) into publish, pages, publish --noise and pr-comment, run as the workflows
// run them, and compares every file of a sandbox before and after. The crafted paths all resolve
// inside the sandbox, so a vulnerable harness damages nothing else.
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { pairsComparison } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

/** Every entry under dir (symlinks not followed): type, size and content hash. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.set(rel, `link:${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(p);
      } else out.set(rel, `file:${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

/** Paths added, removed or changed outside `inside` (relative to the sandbox). */
function changesOutside(before: Map<string, string>, after: Map<string, string>, inside: string): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k) && k !== inside && !k.startsWith(`${inside}/`)).sort();
}

/** A sandbox: s/outside (things that must not change), s/w/<target> where writing is allowed. */
function sandbox(target: string) {
  const s = mkdtempSync(join(tmpdir(), 'jsio-paths-'));
  mkdirSync(join(s, 'outside'), { recursive: true });
  writeFileSync(join(s, 'outside', 'package.json'), '{"name":"not-to-be-overwritten"}\n');
  mkdirSync(join(s, 'w', target), { recursive: true });
  return s;
}

const SHA = 'a'.repeat(40);
type Crafted = ReturnType<typeof wcResults>;
const crafted: [string, (r: Crafted) => void][] = [
  ["machine id '..'", (r) => (r.run.machine.id = '..')],
  ["machine id '.'", (r) => (r.run.machine.id = '.')],
  ["commit sha '../../../../outside/package'", (r) => (r.run.commit.sha = '../../../../outside/package')],
  ["commit sha '/abs/path'", (r) => (r.run.commit.sha = '/tmp/abs-path')],
  ["commit sha 'HEAD' (not a full commit id)", (r) => (r.run.commit.sha = 'HEAD')],
  ["profile '../../../../outside'", (r) => (r.run.profile = '../../../../outside')],
  [
    "metric '../../../../outside/evil'",
    (r) => {
      for (const b of r.benchmarks)
        if (b.metrics.wall_time) b.metrics['../../../../outside/evil'] = b.metrics.wall_time;
    },
  ],
  [
    "experiment '../../../../outside/evil'",
    (r) => {
      for (const b of r.benchmarks) b.experiment = '../../../../outside/evil';
    },
  ],
  [
    "experiment 'a/b'",
    (r) => {
      for (const b of r.benchmarks) b.experiment = 'a/b';
    },
  ],
  [
    "variant '../../x'",
    (r) => {
      for (const b of r.benchmarks) b.variant = '../../x';
    },
  ],
  [
    "parameter value '../../x'",
    (r) => {
      for (const b of r.benchmarks) b.params = { ...b.params, bs: '../../x' };
    },
  ],
];

describe.each([
  ['publish-run', (file: string, s: string) => ['publish-run', file, '--store', join(s, 'w', 'store')], 'w/store'],
  ['pages', (file: string, s: string) => ['pages', file, '--dir', join(s, 'w', 'pages')], 'w/pages'],
] as const)('npm run %s with crafted results', (_cmd, argv, inside) => {
  it.each(crafted)('%s: refused, nothing written outside the store', (_name, mutate) => {
    const s = sandbox(inside.split('/')[1]!);
    const r = wcResults(SHA);
    mutate(r);
    const file = join(s, 'results.json');
    writeFileSync(file, JSON.stringify(r));
    const before = snapshot(s);
    const res = runCli(argv(file, s));
    const after = snapshot(s);
    // results.json identifiers validated where they enter (commit sha: 40
    // hex; machine id, experiment, variant: a plain segment without '..'; parameter values: a
    // number or a plain token), refused with exit 2.
    expect(changesOutside(before, after, inside), res.stderr).toEqual([]);
    expect(res.status, res.stdout + res.stderr).toBe(2);
  });

  it.each(['runs', 'trends'])('a symlink planted in the store (%s/ -> outside) is not written through', (planted) => {
    const s = sandbox(inside.split('/')[1]!);
    const machineDir = join(s, inside, ...(inside.endsWith('pages') ? ['data'] : []), 'test-machine');
    mkdirSync(machineDir, { recursive: true });
    symlinkSync(join(s, 'outside'), join(machineDir, planted));
    const file = join(s, 'results.json');
    writeFileSync(file, JSON.stringify(wcResults(SHA)));
    const before = snapshot(s);
    const res = runCli(argv(file, s));
    const after = snapshot(s);
    // the store resolves every path it writes through the file system and
    // refuses one that leaves it (harness/src/lib/fs-safety.ts assertRealInside).
    expect(changesOutside(before, after, inside), res.stderr).toEqual([]);
    expect(res.status).not.toBe(0);
  });
});

describe('npm run publish-run --noise with crafted calibrations', () => {
  const noise = (machine: string) => ({
    schema: 1,
    machine,
    created: '2026-11-21T00:00:00Z',
    rounds: 2,
    thresholds: {},
  });
  it.each(['..', '../outside', '/abs', 'a/b', '.'])(
    'machine %j: refused, nothing written outside the store',
    (machine) => {
      const s = sandbox('store');
      writeFileSync(join(s, 'noise.json'), JSON.stringify(noise(machine)));
      const before = snapshot(s);
      const res = runCli(['publish-run', '--noise', join(s, 'noise.json'), '--store', join(s, 'w', 'store')]);
      expect(changesOutside(before, snapshot(s), 'w/store')).toEqual([]);
      expect(res.status).not.toBe(0);
    },
  );

  it('a machine directory planted as a symlink to outside is not written through', () => {
    const s = sandbox('store');
    symlinkSync(join(s, 'outside'), join(s, 'w', 'store', 'm-1'));
    writeFileSync(join(s, 'noise.json'), JSON.stringify(noise('m-1')));
    const before = snapshot(s);
    const res = runCli(['publish-run', '--noise', join(s, 'noise.json'), '--store', join(s, 'w', 'store')]);
    // publishNoise checks the real path (assertRealInside) before writing.
    expect(changesOutside(before, snapshot(s), 'w/store'), res.stderr).toEqual([]);
    expect(res.status).not.toBe(0);
  });
});

describe('npm run pr-comment with crafted artifacts', () => {
  const comparison = () => pairsComparison();
  const artifact = (s: string) => {
    const d = join(s, 'w', 'artifact');
    mkdirSync(d, { recursive: true });
    return d;
  };

  it("benchmark names with '..' and '/' are only text: the comment is the one file written", () => {
    const s = sandbox('out');
    const d = artifact(s);
    const c = comparison();
    for (const p of c.points) p.benchmark = `../../../outside/${p.benchmark}`;
    writeFileSync(join(d, 'comparison.json'), JSON.stringify(c));
    writeFileSync(join(d, 'pr-number'), '7');
    const before = snapshot(s);
    const res = runCli(['pr-comment', '--artifact', d, '--pr', '7', '--out', join(s, 'w', 'out', 'comment.md')]);
    expect(res.status, res.stderr).toBe(0);
    expect(changesOutside(before, snapshot(s), 'w/out')).toEqual([]);
  });

  it.each(['comparison.json', 'pr-number'])(
    'an artifact whose %s is a symlink (to a file outside the artifact) is refused',
    (name) => {
      const s = sandbox('out');
      const d = artifact(s);
      const content = { 'comparison.json': JSON.stringify(comparison()), 'pr-number': '7' } as Record<string, string>;
      for (const [f, text] of Object.entries(content)) {
        if (f === name) {
          writeFileSync(join(s, 'outside', f), text);
          symlinkSync(join(s, 'outside', f), join(d, f));
        } else writeFileSync(join(d, f), text);
      }
      const res = runCli(['pr-comment', '--artifact', d, '--pr', '7', '--out', join(s, 'w', 'out', 'comment.md')]);
      // the artifact reader (workflow/artifact.ts readBounded) takes regular
      // files only (lstat), never a symlink out of the artifact.
      expect(res.status, res.stdout).not.toBe(0);
    },
  );
});
