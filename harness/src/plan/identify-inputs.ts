/**
 * A point's measured-input identity: the bytes of everything its process could run or read, as
 * named parts ("file programs/scan/scan-common.js", "runtime node@22", "manifest entry", ...). Two
 * checkouts whose parts are byte-identical for a point cannot measure it differently with the
 * same harness, so a paired diff need not measure it (pairs/decide/impact.ts); a trend marks the
 * commit where the digest changes (Benchmark.definition).
 *
 * By exclusion, not inclusion: every file on disk in the point's experiment folder counts, except
 * `manifest.json` (which counts through the point's own entry, presentation left out) and the
 * files that only the other variants' programs reach (so a one-program change affects that
 * program alone). Added to that: what the program, the input generator and the input pipe reach
 * anywhere in the checkout (./identity/program-reach.ts: imports, includes as the build reads
 * them, literal loads and paths, files the manifest entry names), what the runtime discovers on
 * its own (./identity/runtime-files.ts), the lockfile entries of the packages it imports, the
 * bundler for a bundled variant, and the runtime's pin. What cannot be followed (a computed
 * import, a missing file, a package the lockfile does not pin) makes the identity unknown, with
 * the reason: an unknown identity is never taken for an unchanged one.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { version as harnessEsbuild } from 'esbuild';
import type { Experiment, Manifest, Variant } from '../formats/manifest-format.js';
import { CURRENT_NODE_MAJOR, type Pins, readPins } from '../machine/toolchains.js';
import { systemTool } from '../machine/tools.js';
import type { MeasuredInputs } from '../model/measured-inputs.js';
import { familyOf } from '../model/runtime-families.js';
import { parseReleaseKey } from '../model/runtime-release.js';
import { commandWords } from './identity/named-files.js';
import { addNamed, cReach, emptyReach, isJavaScript, javascriptReach, type Reach } from './identity/program-reach.js';
import { filesUnder, runtimeFiles } from './identity/runtime-files.js';
import { hashFile } from './input-digest.js';
import { addPackagePins, forgetLockfiles, rootPin, UnpinnedPackage } from './package-pins.js';
import type { Point } from './plan.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** sha() of a file's bytes, read in chunks: a data file may be larger than one read can hold. */
function fileSha(file: string): string {
  const h = createHash('sha256');
  hashFile(h, file);
  return h.digest('hex').slice(0, 16);
}

/** Identity digests carry their scheme: a trend compares programs only within one (formats/parts/store-layout.ts). */
const IDENTITY_SCHEME = 'i2';

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
  // How counted work is judged, not what a process does.
  'countsEvidence',
  'countsVary',
]);

/** The manifest as the point's process sees it: its own variant and parameter values, no presentation. */
function manifestEntry(point: Pick<Point, 'experiment' | 'variant' | 'params' | 'derived' | 'smaller' | 'settings'>) {
  const m = point.experiment.manifest as Manifest & Record<string, unknown>;
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (PRESENTATION_FIELDS.has(k) || k === 'variants' || k === 'parameters' || k === 'profiles') continue;
    rest[k] = v;
  }
  const {
    description: _d,
    countsEvidence: _e,
    countsVary: _v,
    ...variant
  } = point.variant as Variant & { description?: string };
  return {
    experiment: point.experiment.id,
    variant,
    manifest: rest,
    params: point.params,
    derived: point.derived,
    smaller: point.smaller.map((s) => s.derived),
    // Runs and warm-ups change precision, not what a process does (the timeout is a part of its own).
    constants: point.settings.constants,
  };
}

/** The exact version a runtime key runs under on a checkout, from its pins (no install needed). */
function runtimePin(runtimeKey: string, pins: Pins): string {
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
const checkoutOf = (exp: Experiment) => resolve(exp.dir, '..', '..');

/**
 * The compiler a gcc build runs, as machine/toolchains.ts resolves it: from a root-owned system
 * folder, never a PATH the checkout can extend.
 */
const compiler = () => systemTool('gcc');

const isJsRuntime = (v: Variant) => v.runtime !== 'native' && v.runtime !== 'system';

/** What one variant's program reaches: its source as its kind reads it, a just(js) app's config, the files its command names. */
function variantReach(exp: Experiment, v: Variant, root: string): Reach {
  const cwd = exp.dir;
  let reach = emptyReach();
  const merge = (r: Reach) => {
    for (const f of r.files) reach.files.add(f);
    reach.packages.push(...r.packages);
    if (r.unknown && !reach.unknown) reach.unknown = r.unknown;
  };
  if (v.source) {
    const file = join(exp.dir, v.source);
    if (!existsSync(file)) return { ...reach, unknown: `its source ${relative(root, file)} does not exist` };
    if (v.build?.kind === 'gcc') {
      const gcc = compiler();
      if (!gcc) return { ...reach, unknown: 'gcc is not installed in a root-owned system folder to list its includes' };
      merge(cReach(file, { compiler: gcc, flags: v.build.flags, libs: v.build.libs, cwd }, root));
    } else if (isJsRuntime(v) && isJavaScript(file)) merge(javascriptReach(file, root, cwd));
    else reach.files.add(resolve(file));
  }
  if (v.build?.kind === 'just-static') {
    const config = join(exp.dir, v.build.config);
    if (!existsSync(config)) return { ...reach, unknown: `its build config ${relative(root, config)} does not exist` };
    merge(javascriptReach(config, root, cwd));
  }
  reach = addNamed(reach, root, commandWords(v.command), cwd) ?? reach;
  return reach;
}

/** What every point of an experiment reaches: the input generator and the input pipe. */
function sharedReach(exp: Experiment, root: string): Reach {
  const m = exp.manifest;
  let reach = emptyReach();
  if (m.generate) {
    const script = join(exp.dir, m.generate.script);
    if (!existsSync(script))
      return { ...reach, unknown: `its input generator ${relative(root, script)} does not exist` };
    reach = javascriptReach(script, root, exp.dir);
  }
  if (m.input) reach = addNamed(reach, root, commandWords(m.input.pipe), exp.dir) ?? reach;
  return reach;
}

interface ExperimentReach {
  /** Every file on disk in the experiment's folder. */
  folder: string[];
  variants: Map<string, Reach>;
  shared: Reach;
}

const experimentMemo = new Map<string, ExperimentReach>();

function experimentReach(exp: Experiment, root: string): ExperimentReach {
  const key = `${root}\0${exp.dir}`;
  let hit = experimentMemo.get(key);
  if (!hit) {
    hit = {
      folder: folderListing(exp.dir, root),
      variants: new Map(exp.manifest.variants.map((v) => [v.id, variantReach(exp, v, root)])),
      shared: sharedReach(exp, root),
    };
    experimentMemo.set(key, hit);
  }
  return hit;
}

/** Every file of an experiment's folder; one too large to read makes its points' identity unknown. */
function folderListing(dir: string, root: string): string[] {
  try {
    return filesUnder(dir);
  } catch (e) {
    throw new Unprovable(
      `its experiment's folder ${relative(root, dir)} cannot be identified: ${(e as Error).message}`,
    );
  }
}

/**
 * The experiment folder's files that count for `own` (a variant's reach, or none for the
 * generator): all but the manifest and the files only other programs reach.
 */
function folderFiles(er: ExperimentReach, exp: Experiment, own: Reach | undefined): string[] {
  const others = new Set<string>();
  for (const [, r] of er.variants) if (r !== own) for (const f of r.files) others.add(f);
  const manifest = join(exp.dir, 'manifest.json');
  return er.folder.filter((f) => f !== manifest && (!others.has(f) || own?.files.has(f) || er.shared.files.has(f)));
}

/**
 * A file's part: its bytes. A link's part is its text, and it is read through: what it points to
 * inside the checkout (a file, or every file of a folder) counts too, since the program reads that;
 * a target outside the checkout is the same file for both sides.
 */
function filePart(root: string, file: string, parts: Record<string, string>, seen = new Set<string>()): void {
  const rel = relative(root, file).split(sep).join('/');
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new Unprovable(`${rel} is gone`);
  if (!st.isSymbolicLink()) {
    if (st.isDirectory()) for (const f of linkedFolder(file, rel)) filePart(root, f, parts, seen);
    // A pipe or a device would block or never end; no git checkout holds one.
    else if (!st.isFile()) throw new Unprovable(`${rel} is not a regular file`);
    // An executable bit decides whether a command can run the file (none is set today: no digest moves).
    else parts[`file ${rel}`] = fileSha(file) + (st.mode & 0o111 ? ' executable' : '');
    return;
  }
  const text = readlinkSync(file);
  parts[`file ${rel}`] = `link ${text}`;
  const target = resolve(dirname(file), text);
  if (seen.has(target) || !target.startsWith(root + sep)) return;
  seen.add(target);
  if (lstatSync(target, { throwIfNoEntry: false })) filePart(root, target, parts, seen);
  else parts[`file ${relative(root, target).split(sep).join('/')}`] = 'absent';
}

function linkedFolder(dir: string, rel: string): string[] {
  try {
    return filesUnder(dir);
  } catch (e) {
    throw new Unprovable(`a link reaches ${rel}: ${(e as Error).message}`);
  }
}

/** What a JavaScript runtime reads on its own from these folders up, and what that names. */
function runtimeParts(
  starts: readonly string[],
  root: string,
  family: string | undefined,
  parts: Record<string, string>,
): void {
  const found = runtimeFiles(starts, root, family);
  for (const f of found.files) filePart(root, f, parts);
  Object.assign(parts, found.fields);
  for (const f of found.named) {
    filePart(root, f, parts);
    if (isJavaScript(f)) reachParts(javascriptReach(f, root, dirname(f)), root, parts);
  }
}

/** A reach's files and package pins as parts; throws Unprovable for an unknown reach. */
function reachParts(reach: Reach, root: string, parts: Record<string, string>): void {
  if (reach.unknown) throw new Unprovable(reach.unknown);
  for (const f of reach.files) filePart(root, f, parts);
  const byDir = new Map<string, string[]>();
  for (const p of reach.packages) byDir.set(p.fromDir, [...(byDir.get(p.fromDir) ?? []), p.name]);
  try {
    for (const [fromDir, names] of byDir) addPackagePins(names, root, parts, fromDir);
  } catch (e) {
    if (e instanceof UnpinnedPackage) throw new Unprovable(e.message);
    throw e;
  }
}

/** The generator's parts: what it reaches, the folder's files no program reaches, the node that runs it. */
function generatorParts(exp: Experiment, root: string, parts: Record<string, string>): void {
  const er = experimentReach(exp, root);
  reachParts(er.shared, root, parts);
  if (!exp.manifest.generate) return;
  for (const f of folderFiles(er, exp, undefined)) filePart(root, f, parts);
  runtimeParts([exp.dir], root, 'node', parts);
  parts['generator spec'] = JSON.stringify(exp.manifest.generate);
  // Generators run under the harness's own node (plan/inputs.ts).
  parts['runtime generator'] = `node ${process.versions.node}`;
}

/** Every part of a point's identity; throws Unprovable. */
function identityParts(point: Point, root: string): Record<string, string> {
  const exp = point.experiment;
  const v = point.variant;
  const parts: Record<string, string> = {};
  parts['manifest entry'] = sha(JSON.stringify(manifestEntry(point)));
  // What a run may finish: a shorter timeout kills a run that used to complete (a point that fails).
  parts['run timeout'] = `${point.settings.timeout} s`;
  parts[`runtime ${point.runtime}`] = runtimePin(point.runtime, checkoutPins(root));
  const er = experimentReach(exp, root);
  const own = er.variants.get(v.id) ?? variantReach(exp, v, root);
  reachParts(own, root, parts);
  generatorParts(exp, root, parts);
  for (const f of folderFiles(er, exp, own)) filePart(root, f, parts);
  if (isJsRuntime(v))
    runtimeParts(
      [v.source ? dirname(join(exp.dir, v.source)) : exp.dir, exp.dir],
      root,
      familyOf(point.runtime)?.key,
      parts,
    );
  if (v.build?.kind === 'esbuild')
    parts['bundler esbuild'] = rootPin(root, 'esbuild') ?? `${harnessEsbuild} (the harness's)`;
  return parts;
}

const memo = new Map<string, MeasuredInputs>();

function digestOf(parts: Record<string, string>): MeasuredInputs {
  const sorted = Object.fromEntries(Object.entries(parts).sort(([a], [b]) => a.localeCompare(b)));
  return { ok: true, digest: `${IDENTITY_SCHEME}-${sha(JSON.stringify(sorted)).slice(0, 12)}`, parts: sorted };
}

function proven(f: () => Record<string, string>): MeasuredInputs {
  try {
    return digestOf(f());
  } catch (e) {
    if (!(e instanceof Unprovable)) throw e;
    return { ok: false, reason: e.message };
  }
}

/**
 * The identity of a point planned from the checkout at `root` (the one whose programs/ and
 * harness/toolchains.json it was read from). Memoised per point: a diff asks for each of its points twice.
 */
export function measuredInputs(point: Point, root = checkoutOf(point.experiment)): MeasuredInputs {
  const key = `${root}\0${point.id}\0${JSON.stringify(point.settings.constants)}`;
  let out = memo.get(key);
  if (!out) {
    out = proven(() => identityParts(point, root));
    memo.set(key, out);
  }
  return out;
}

/**
 * The identity of an experiment's input generator: what it reaches and reads (the experiment's
 * files no program reaches among them), its spec and the node that runs it. Generated inputs are
 * cached under it (plan/inputs.ts), so a change to any of it gives each side its own input.
 */
export function generatorIdentity(exp: Experiment, root = checkoutOf(exp)): MeasuredInputs {
  const key = `${root}\0${exp.dir}\0generator`;
  let out = memo.get(key);
  if (!out) {
    out = proven(() => {
      const parts: Record<string, string> = {};
      generatorParts(exp, root, parts);
      return parts;
    });
    memo.set(key, out);
  }
  return out;
}

/**
 * The identity of a variant's build (gcc, just build, esbuild): what the build reads (its
 * program's reach, the experiment folder's files no other program reaches), its spec and source,
 * and the bundler a bundle is made with. Builds are cached under it with the builder's version
 * (plan/jobs.ts), so two checkouts with the same program share one build and a changed file
 * makes another. Unknown when the reach is: such a build is made again on every run.
 */
export function buildIdentity(exp: Experiment, v: Variant, root = checkoutOf(exp)): MeasuredInputs {
  const key = `${root}\0${exp.dir}\0build ${v.id}`;
  let out = memo.get(key);
  if (!out) {
    out = proven(() => {
      const parts: Record<string, string> = {};
      const er = experimentReach(exp, root);
      const own = er.variants.get(v.id) ?? variantReach(exp, v, root);
      reachParts(own, root, parts);
      for (const f of folderFiles(er, exp, own)) filePart(root, f, parts);
      parts['build spec'] = JSON.stringify({ experiment: exp.id, variant: v.id, source: v.source, build: v.build });
      if (v.build?.kind === 'esbuild')
        parts['bundler esbuild'] = rootPin(root, 'esbuild') ?? `${harnessEsbuild} (the harness's)`;
      return parts;
    });
    memo.set(key, out);
  }
  return out;
}

/** Forgets what was read (a test that edits a checkout between two diffs). */
export function forgetMeasuredInputs(): void {
  memo.clear();
  pinsMemo.clear();
  experimentMemo.clear();
  forgetLockfiles();
}
