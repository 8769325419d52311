/**
 * A point's measured-input identity: the bytes of everything its measured process runs or reads,
 * as named parts ("file programs/scan/scan-common.js", "runtime node@22", "manifest entry", ...).
 * Two checkouts whose parts are byte-identical for a point cannot measure it differently with the
 * same harness, so a PR diff need not measure it (pr-diff/analysis/impact.ts); a trend marks the
 * commit where the digest changes (Benchmark.definition).
 *
 * Local files are found by following the program's own imports and includes (esbuild's import
 * graph for JavaScript, `gcc -MM` for C), never from a hand-kept list. What cannot be followed (a
 * missing file, a computed `require(x)`, a package the lockfile does not pin) makes the identity
 * unknown, with the reason: an unknown identity is never taken for an unchanged one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { runSync } from '../lib/exec.js';
import { CURRENT_NODE_MAJOR, type Pins, readPins } from '../machine/toolchains.js';
import type { Experiment, Manifest, Variant } from '../model/manifest.js';
import type { MeasuredInputs } from '../model/measured-inputs.js';
import { familyOf } from '../model/runtime-families.js';
import { parseReleaseKey } from '../model/runtime-release.js';
import { type ImportGraph, importGraph } from './import-graph.js';
import { addPackagePins, isPackageImport, packageName, UnpinnedPackage } from './package-pins.js';
import type { Point } from './plan.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Thrown inside the walk; becomes the identity's reason. */
class Unprovable extends Error {}

/**
 * Manifest fields that only describe or present results (the site, the summary, the release
 * axis): a change to them cannot change a measurement. Every other field is part of the identity,
 * so a field added later counts until it is listed here.
 */
const PRESENTATION_FIELDS = new Set([
  '$comment',
  'schema',
  'title',
  'question',
  'summary',
  'overview',
  'labels',
  'headline',
  'releases',
  'shared',
]);

/** The manifest as the point's process sees it: its own variant and parameter values, no presentation. */
export function manifestEntry(
  point: Pick<Point, 'experiment' | 'variant' | 'params' | 'derived' | 'smaller' | 'settings'>,
) {
  const m = point.experiment.manifest as Manifest & Record<string, unknown>;
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (PRESENTATION_FIELDS.has(k) || k === 'variants' || k === 'parameters' || k === 'profiles') continue;
    rest[k] = v;
  }
  const { description: _d, ...variant } = point.variant as Variant & { description?: string };
  return {
    experiment: point.experiment.id,
    variant,
    manifest: rest,
    params: point.params,
    derived: point.derived,
    smaller: point.smaller.map((s) => s.derived),
    // Runs, warm-ups and the timeout change precision, not what a process does.
    constants: point.settings.constants,
  };
}

/** Warnings esbuild gives when an import is computed at run time: the graph is then incomplete. */
const HIDDEN_IMPORT = /require call|dynamic import|cannot be analyzed|will not be bundled/i;

/** A JavaScript file and every local file it imports, by esbuild's import graph; packages by their lockfile pins. */
function javascriptParts(file: string, root: string, parts: Record<string, string>): void {
  let result: ImportGraph;
  try {
    result = importGraph(root, [file]);
  } catch (e) {
    const first = (e as { errors?: { text: string }[] }).errors?.[0]?.text ?? (e as Error).message;
    throw new Unprovable(`its imports cannot be followed from ${relative(root, file)}: ${first}`);
  }
  const hidden = result.warnings.find((w) => HIDDEN_IMPORT.test(w.text));
  if (hidden) throw new Unprovable(`${relative(root, file)} computes an import at run time (${hidden.text})`);
  for (const [path, input] of Object.entries(result.inputs)) {
    const abs = resolve(root, path);
    parts[`file ${relative(root, abs)}`] = sha(readFileSync(abs));
    const names = input.imports.filter((i) => i.external && isPackageImport(i.path)).map((i) => packageName(i.path));
    try {
      addPackagePins(names, root, parts);
    } catch (e) {
      if (e instanceof UnpinnedPackage) throw new Unprovable(e.message);
      throw e;
    }
  }
}

/** A C source and the local headers it includes, as gcc itself finds them (`-MM`: system headers are the toolchain's). */
function cParts(file: string, flags: readonly string[], root: string, parts: Record<string, string>): void {
  const r = runSync(['gcc', '-MM', '-MG', ...flags.filter((f) => /^-[IDU]/.test(f)), file], { cwd: dirname(file) });
  if (r.code !== 0)
    throw new Unprovable(
      `gcc -MM cannot list the includes of ${relative(root, file)}: ${r.stderr.trim().split('\n')[0] ?? ''}`,
    );
  const deps = r.stdout
    .replace(/\\\n/g, ' ')
    .replace(/^[^:]*:/, '')
    .split(/\s+/)
    .filter(Boolean);
  for (const dep of [file, ...deps]) {
    const abs = resolve(dirname(file), dep);
    if (!existsSync(abs)) throw new Unprovable(`${relative(root, file)} includes ${dep}, which does not exist`);
    parts[`file ${relative(root, abs)}`] = sha(readFileSync(abs));
  }
}

const followed = new Map<string, Record<string, string>>();

/** A program's source by its kind: followed as C or JavaScript, else its bytes alone (memoised per file). */
function sourceParts(file: string, variant: Variant, root: string, parts: Record<string, string>): void {
  const flags = variant.build?.kind === 'gcc' ? variant.build.flags : [];
  const key = `${root}\0${file}\0${variant.runtime === 'native' ? flags.join(' ') : 'js'}`;
  let own = followed.get(key);
  if (!own) {
    own = {};
    if (!existsSync(file)) throw new Unprovable(`its source ${relative(root, file)} does not exist`);
    if (variant.runtime === 'native') cParts(file, flags, root, own);
    else if (/\.(m|c)?[jt]s$/.test(file)) javascriptParts(file, root, own);
    else own[`file ${relative(root, file)}`] = sha(readFileSync(file));
    followed.set(key, own);
  }
  Object.assign(parts, own);
}

/** The exact version a runtime key runs under on a checkout, from its pins (no install needed). */
export function runtimePin(runtimeKey: string, pins: Pins): string {
  if (parseReleaseKey(runtimeKey)) return runtimeKey;
  const family = familyOf(runtimeKey);
  if (!family) return `${runtimeKey} (the machine's)`;
  const pin = pins[family.key];
  if (typeof pin === 'string') return pin;
  const major = runtimeKey.split('@')[1];
  const version = major ? pin?.[major] : undefined;
  if (version) return version;
  // node@<the harness's major> without a pin runs the harness's own node.
  return major === CURRENT_NODE_MAJOR ? `${process.versions.node} (the harness's)` : `${runtimeKey} (unpinned)`;
}

const pinsMemo = new Map<string, Pins>();

function checkoutPins(root: string): Pins {
  const file = join(root, 'harness', 'toolchains.json');
  let pins = pinsMemo.get(file);
  if (!pins) {
    pins = existsSync(file) ? readPins(file) : {};
    pinsMemo.set(file, pins);
  }
  return pins;
}

/** The checkout an experiment folder belongs to (programs/<id> under it). */
export const checkoutOf = (exp: Experiment) => resolve(exp.dir, '..', '..');

const memo = new Map<string, MeasuredInputs>();

/** Every part of a point's identity; throws Unprovable. */
function identityParts(point: Point, root: string): Record<string, string> {
  const exp = point.experiment;
  const parts: Record<string, string> = {};
  parts['manifest entry'] = sha(JSON.stringify(manifestEntry(point)));
  parts[`runtime ${point.runtime}`] = runtimePin(point.runtime, checkoutPins(root));
  const v = point.variant;
  if (v.source) sourceParts(join(exp.dir, v.source), v, root, parts);
  if (v.build?.kind === 'just-static')
    sourceParts(join(exp.dir, v.build.config), { ...v, runtime: 'just' }, root, parts);
  const gen = exp.manifest.generate;
  if (gen) sourceParts(join(exp.dir, gen.script), { ...v, runtime: 'node' }, root, parts);
  return parts;
}

/**
 * The identity of a point planned from the checkout at `root` (the one whose programs/ and
 * harness/toolchains.json it was read from). Memoised per point: a diff asks for ~400 points twice.
 */
export function measuredInputs(point: Point, root = checkoutOf(point.experiment)): MeasuredInputs {
  const key = `${root}\0${point.id}\0${JSON.stringify(point.settings.constants)}`;
  const hit = memo.get(key);
  if (hit) return hit;
  let out: MeasuredInputs;
  try {
    const parts = identityParts(point, root);
    const sorted = Object.fromEntries(Object.entries(parts).sort(([a], [b]) => a.localeCompare(b)));
    out = { ok: true, digest: sha(JSON.stringify(sorted)).slice(0, 12), parts: sorted };
  } catch (e) {
    if (!(e instanceof Unprovable)) throw e;
    out = { ok: false, reason: e.message };
  }
  memo.set(key, out);
  return out;
}

/** Forgets what was read (a test that edits a checkout between two diffs). */
export function forgetMeasuredInputs(): void {
  memo.clear();
  pinsMemo.clear();
  followed.clear();
}
