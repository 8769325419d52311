#!/usr/bin/env node
// Entry point of every npm script. Makes each command work from a fresh clone: installs npm
// dependencies when node_modules is missing or stale, installs the system packages the command
// needs when it can (root or passwordless sudo) or prints the exact command to run, bundles the
// TypeScript harness with esbuild, and runs it. Plain JavaScript: it runs before any install.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statfsSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [command = 'help', ...args] = process.argv.slice(2);
const quiet = { stdio: ['ignore', 'ignore', 'ignore'] };

function die(msg, code = 1) {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(code);
}

function run(argv, opts = {}) {
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit', cwd: ROOT, ...opts });
  return r.status ?? 1;
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], quiet).status === 0;

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) die(`Node.js >= 20.19 is required (this is ${process.version})`);
}

/** npm ci when node_modules is absent or was installed from another package-lock.json. */
function ensureNpmDeps() {
  const lock = join(ROOT, 'package-lock.json');
  const stamp = join(ROOT, 'node_modules', '.jsio-lock.sha256');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  // Installed by a plain `npm ci` after the lock file last changed (as CI does): accept it.
  const hidden = join(ROOT, 'node_modules', '.package-lock.json');
  if (!existsSync(stamp) && existsSync(hidden) && statSync(hidden).mtimeMs >= statSync(lock).mtimeMs) {
    writeFileSync(stamp, want);
    return;
  }
  process.stderr.write('node_modules is missing or stale: running npm ci\n');
  if (run(['npm', 'ci', '--no-audit', '--no-fund', '--loglevel=error']) !== 0) die('npm ci failed (see above)');
  writeFileSync(stamp, want);
}

// System packages by command: [executable to look for, Debian package].
const TOOLS = {
  hyperfine: ['hyperfine', 'hyperfine'],
  strace: ['strace', 'strace'],
  time: ['/usr/bin/time', 'time'],
  shellcheck: ['shellcheck', 'shellcheck'],
  chromium: ['chromium', 'chromium'],
  fincore: ['fincore', 'util-linux'],
  valgrind: ['valgrind', 'valgrind'],
  bwrap: ['bwrap', 'bubblewrap'],
  // The transcript's sandbox player takes SHA-256 from libcrypto (harness/tools/sandbox-replay.c).
  libcrypto: ['/usr/include/openssl/evp.h', 'libssl-dev'],
};
const NEEDS = {
  bench: ['hyperfine', 'strace', 'time', 'fincore'],
  calibrate: ['hyperfine', 'strace', 'time', 'fincore'],
  releases: ['hyperfine', 'strace', 'time', 'fincore'],
  transcript: ['hyperfine', 'strace', 'time', 'fincore', 'bwrap', 'libcrypto'],
  'sandbox-cost': ['bwrap'],
  test: ['hyperfine', 'strace', 'time', 'fincore', 'shellcheck', 'chromium', 'valgrind', 'bwrap', 'libcrypto'],
};
// Installed when they can be, never a reason to stop: without Valgrind, work is not counted and
// the benchmarks say so (`--require counts` makes it an error).
// Without bubblewrap, bench measures without a sandbox (and says so) and the paired diff refuses.
const WANTS = {
  bench: ['valgrind', 'bwrap'],
  calibrate: ['valgrind', 'bwrap'],
  releases: ['valgrind', 'bwrap'],
  pairs: ['valgrind', 'bwrap'],
};
/** What a command does without an optional package. */
const WITHOUT = {
  valgrind: 'work is not counted',
  bwrap: 'programs run without a sandbox (bench says so; the paired diff refuses)',
};

/** Where distributions and installers put binaries: a tool found there is installed, just off PATH. */
const USUAL_DIRS = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin', join(homedir(), '.cargo', 'bin')];

function offPath(exe) {
  if (exe.startsWith('/')) return undefined;
  const dir = USUAL_DIRS.find((d) => existsSync(join(d, exe)));
  return dir && join(dir, exe);
}

/** Installs what a command can do without, where root or passwordless sudo allows; says so and goes on otherwise. */
function tryOptionalPackages(names) {
  const missing = names.filter((n) => !has(TOOLS[n][0]) && !offPath(TOOLS[n][0]));
  if (!missing.length) return;
  const pkgs = [...new Set(missing.map((n) => TOOLS[n][1]))];
  const root = process.getuid?.() === 0;
  const sudo = !root && has('sudo') && spawnSync('sudo', ['-n', 'true'], quiet).status === 0;
  const install = `apt-get update && apt-get install -y ${pkgs.join(' ')}`;
  if (!has('apt-get') || (!root && !sudo)) {
    const without = missing.map((n) => WITHOUT[n] ?? 'it is not used').join('; ');
    process.stderr.write(
      `note: ${pkgs.join(', ')} not installed, so ${without}; to install: sudo sh -c '${install}'\n`,
    );
    return;
  }
  process.stderr.write(`installing optional system packages: ${pkgs.join(' ')}\n`);
  const prefix = root ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const ok =
    run([...prefix, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { env }) === 0 &&
    run([...prefix, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', ...pkgs], { env }) === 0;
  if (!ok) process.stderr.write(`note: could not install ${pkgs.join(', ')}: going on without (${install})\n`);
}

function ensureSystemPackages(names) {
  const missing = names.filter((n) => !has(TOOLS[n][0]));
  if (!missing.length) return;
  // Installed but not on PATH: apt-get would report it installed and change nothing.
  for (const n of missing) {
    const found = offPath(TOOLS[n][0]);
    if (found)
      die(
        `${TOOLS[n][0]} is installed (${found}) but not on PATH\nhint: add its directory to PATH: export PATH="${dirname(found)}:$PATH"`,
        2,
      );
  }
  const pkgs = [...new Set(missing.map((n) => TOOLS[n][1]))];
  const install = `apt-get update && apt-get install -y ${pkgs.join(' ')}`;
  const root = process.getuid?.() === 0;
  const sudo = !root && has('sudo') && spawnSync('sudo', ['-n', 'true'], quiet).status === 0;
  if (!has('apt-get') || (!root && !sudo)) {
    die(`missing system packages: ${pkgs.join(', ')}. Install them with:\n  sudo sh -c '${install}'`);
  }
  process.stderr.write(`installing system packages: ${pkgs.join(' ')}\n`);
  const prefix = root ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run([...prefix, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { env }) !== 0)
    die(`apt-get update failed; run: ${install}`);
  if (run([...prefix, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', ...pkgs], { env }) !== 0)
    die(`apt-get install failed; run: ${install}`);
  const still = missing.filter((n) => !has(TOOLS[n][0]));
  if (still.length)
    die(
      `apt-get installed ${pkgs.join(' ')} but ${still.map((n) => TOOLS[n][0]).join(', ')} is still not on PATH (${process.env.PATH})`,
      2,
    );
}

/**
 * The harness's cache outside every checkout: `JSIO_CACHE`, else `$XDG_CACHE_HOME/jsio-bench`, else
 * `~/.cache/jsio-bench`. What a checkout brings never stands in for what the harness makes there.
 */
function userCache() {
  const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return resolve(process.env.JSIO_CACHE || join(xdg, 'jsio-bench'));
}

/**
 * Every file of harness/src by its path in the tree (and the options below) hashed, with the
 * checkout whose node_modules the bundle imports from: the bundle is rebuilt only when one changed.
 */
function sourcesDigest(options) {
  const hash = createHash('sha256').update(JSON.stringify(options)).update('\0').update(realpathSync(ROOT));
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(`\0${relative(ROOT, p)}\0`).update(readFileSync(p));
    }
  };
  walk(join(ROOT, 'harness', 'src'));
  return hash.digest('hex');
}

/**
 * Bundles harness/src/cli/main.ts into the user's cache, in a folder named by its sources'
 * digest (npm packages stay external, imported through a link to this checkout's node_modules
 * beside it), or reuses that bundle: the tests start the CLI hundreds of times. Never a bundle
 * from the checkout: a committed .cache/harness/cli.mjs with a matching stamp once ran instead
 * of harness/src. A new bundle is written beside the old and renamed over it, so processes
 * starting at once never read half a file.
 */
async function bundleHarness() {
  const options = {
    entryPoints: ['harness/src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    sourcemap: 'inline',
  };
  const dir = join(userCache(), 'harness', sourcesDigest(options));
  const outfile = join(dir, 'cli.mjs');
  if (existsSync(outfile)) return outfile;
  const { build } = await import(pathToFileURL(join(ROOT, 'node_modules', 'esbuild', 'lib', 'main.js')).href);
  mkdirSync(dir, { recursive: true });
  const link = `${dir}/node_modules.${process.pid}.part`;
  symlinkSync(join(realpathSync(ROOT), 'node_modules'), link, 'dir');
  renameSync(link, join(dir, 'node_modules'));
  const part = `${outfile}.${process.pid}.part`;
  await build({ ...options, absWorkingDir: ROOT, outfile: part });
  renameSync(part, outfile);
  return outfile;
}

/** actionlint from the Go module proxy into .cache/bin, or undefined with a printed reason. */
function ensureActionlint() {
  if (has('actionlint')) return 'actionlint';
  const local = join(ROOT, '.cache', 'bin', 'actionlint');
  if (existsSync(local)) return local;
  if (!has('go')) {
    process.stderr.write(
      'actionlint skipped: it is not installed and Go is absent to build it (install Go, or actionlint itself)\n',
    );
    return undefined;
  }
  process.stderr.write('installing actionlint through the Go module proxy\n');
  const env = { ...process.env, GOBIN: join(ROOT, '.cache', 'bin') };
  if (run(['go', 'install', 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.12'], { env }) !== 0)
    die('go install actionlint failed');
  return local;
}

/**
 * nektos/act, for the tests that run the workflows under it (harness/test/workflow/act/): this
 * version from the Go module proxy into .cache/bin unless it is already there or on PATH, as
 * actionlint is. Without Go those tests skip saying why (under CI=true they fail).
 */
const ACT_VERSION = '0.2.89';
function ensureAct() {
  const local = join(ROOT, '.cache', 'bin', 'act');
  const version = (bin) =>
    /act version (\S+)/.exec(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1];
  if (existsSync(local) && version(local) === ACT_VERSION) return;
  if (has('act') && version('act') === ACT_VERSION) return;
  if (!has('go')) {
    process.stderr.write(
      `act ${ACT_VERSION} not installed and Go is absent to build it: the workflow tests under act will not run\n`,
    );
    return;
  }
  process.stderr.write(`installing act ${ACT_VERSION} through the Go module proxy\n`);
  const env = { ...process.env, GOBIN: join(ROOT, '.cache', 'bin') };
  if (run(['go', 'install', `github.com/nektos/act@v${ACT_VERSION}`], { env }) !== 0) die('go install act failed');
}

/**
 * Biome's binary comes from its per-platform npm package (the wrapper package pulls in platforms
 * the registries reachable here do not carry, which breaks npm ci): linux x64 and arm64.
 */
function biome() {
  const bin = join(ROOT, 'node_modules', '@biomejs', `cli-linux-${process.arch}`, 'biome');
  if (!existsSync(bin))
    die(
      `biome is not installed for ${process.platform}-${process.arch}: the project pins @biomejs/cli-linux-x64 and -arm64 (npm ci installs the one for this machine)`,
    );
  return bin;
}

/** One formatter and linter (biome) and the architecture's import rules (dependency-cruiser). */
function lint() {
  process.stderr.write('== format and lint (biome; npm run format fixes most problems)\n');
  if (run([biome(), 'check', '.']) !== 0) die('biome found formatting or lint problems (npm run format fixes most)');
  process.stderr.write('== architecture (dependency-cruiser: .dependency-cruiser.cjs)\n');
  const depcruise = join(ROOT, 'node_modules', '.bin', 'depcruise');
  if (run([depcruise, 'harness/src', 'gh-pages/src', '--config', '.dependency-cruiser.cjs']) !== 0)
    die('an import breaks the rules in .dependency-cruiser.cjs');
}

/**
 * Unused exports, files and dependencies (knip, configured in knip.jsonc with the real entry
 * points): an export used only in its own file counts as unused. Its configuration hints fail too,
 * so an entry of knip.jsonc that matches no file (a moved entry point) is named. Offline; it
 * caches what it parsed under .cache/knip, so a rerun reads only the files that changed.
 */
function unusedCode() {
  process.stderr.write('== unused code (knip: knip.jsonc)\n');
  const knip = join(ROOT, 'node_modules', '.bin', 'knip');
  const cache = join(ROOT, '.cache', 'knip');
  if (run([knip, '--no-progress', '--treat-config-hints-as-errors', '--cache', '--cache-location', cache]) !== 0)
    die(
      'knip found unused code or a knip.jsonc entry matching nothing (listed above): drop the `export` of what only its own file uses, delete what nothing uses, fix the entry, or say in knip.jsonc why an entry point it cannot see exists',
    );
}

/**
 * just(js) for `npm test`. It cannot come from a package registry, so where it is not installed
 * (no `just` on PATH or in $JUST_HOME) but the shared folder beside the clone carries upstream's
 * sources and their build against Debian's V8 (../shared/just/build.sh: the development machines
 * and CI), build it (once; later runs reuse the build) and put it in the tests'
 * environment, so they run every just(js) variant for real. Elsewhere nothing happens: the
 * just(js) tests skip with how to get it, or fail under CI=true.
 */
function ensureJustForTests() {
  const home = process.env.JUST_HOME;
  if (has('just') || (home && existsSync(join(home, 'just')))) return;
  const script = join(ROOT, '..', 'shared', 'just', 'build.sh');
  if (!existsSync(script)) return;
  process.stderr.write(`== just(js) is not installed: building it with ${script}\n`);
  const r = spawnSync(script, [join(homedir(), '.cache', 'jsio-just-system')], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Its last line is the environment: export PATH=DIR/just:$PATH JUST_HOME=DIR/just JUST_TARGET=DIR/apphome
  const line = (r.stdout ?? '').trim().split('\n').at(-1) ?? '';
  const env = /^export PATH=(\S+):\$PATH JUST_HOME=(\S+) JUST_TARGET=(\S+)$/.exec(line);
  if (r.status !== 0 || !env) {
    const why = `${script} failed (status ${r.status}${env ? '' : `, last line "${line}"`})`;
    if (process.env.CI) die(why);
    process.stderr.write(`warning: ${why}: the just(js) tests will be skipped\n`);
    return;
  }
  process.env.PATH = `${env[1]}:${process.env.PATH}`;
  process.env.JUST_HOME = env[2];
  process.env.JUST_TARGET = env[3];
  process.stderr.write(`== just(js) from ${env[2]} (JUST_TARGET ${env[3]})\n`);
}

/**
 * The tests build git worlds and clones under TMPDIR, several at a time. Without the room they
 * fail one after another with ENOSPC far from the cause, so say it before they start.
 */
const SCRATCH_NEEDED_GB = 3;
function checkScratchSpace() {
  const dir = tmpdir();
  const { bavail, bsize } = statfsSync(dir);
  const freeGb = (bavail * bsize) / 2 ** 30;
  if (freeGb < SCRATCH_NEEDED_GB)
    die(
      `the tests need ${SCRATCH_NEEDED_GB} GB free under ${dir} (TMPDIR) and ${freeGb.toFixed(1)} GB are free: ` +
        'free some space there (old jsio-* directories of killed test runs are safe to delete) or set TMPDIR to a roomier file system',
    );
}

/**
 * Every test, as two vitest processes side by side on the two cores: the files that measure for
 * real one at a time (project `serial` of vitest.config.ts), and beside them the others, one at a
 * time too (projects `parallel` and `brief` without file parallelism), so the many quick files
 * finish behind the long measuring ones instead of after them. Their reports interleave; each ends with its own
 * summary, and the exit status is the worse of the two. (`npm test -- ARGS` runs one vitest.)
 */
function everyTest(vitest) {
  const projects = (names, extra) =>
    new Promise((done) => {
      const p = spawn(vitest, ['run', ...names.flatMap((n) => ['--project', n]), ...extra], {
        stdio: 'inherit',
        cwd: ROOT,
      });
      p.on('error', () => done(1));
      p.on('close', (code) => done(code ?? 1));
    });
  return Promise.all([projects(['serial'], []), projects(['parallel', 'brief'], ['--no-file-parallelism'])]).then(
    (codes) => Math.max(...codes),
  );
}

/** `--help` (before any `--`) only prints: it installs no system package and runs nothing. */
function wantsHelp(argv) {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

async function main() {
  checkNode();
  ensureNpmDeps();
  const help = wantsHelp(args) || command === 'help';
  if (help && ['test', 'lint', 'format'].includes(command)) {
    process.stdout.write(
      {
        test: 'usage: npm test [-- vitest args]\n\nTypecheck, lint (biome, dependency-cruiser, knip, actionlint), then every test: the files that measure for real one at a time, the others beside them (two vitest processes).\n\nexample:\n  npm test -- harness/test/plan/plan.test.ts\n',
        lint: 'usage: npm run lint\n\nbiome check, dependency-cruiser and knip (npm run format fixes most formatting problems).\n\nexample:\n  npm run lint\n',
        format:
          'usage: npm run format\n\nbiome check --write: formats and fixes what it can.\n\nexample:\n  npm run format\n',
      }[command],
    );
    process.exit(0);
  }
  if (!help) {
    ensureSystemPackages(NEEDS[command] ?? []);
    // A plan (`pairs --plan`) runs nothing: it installs nothing either.
    if (!args.includes('--plan')) tryOptionalPackages(WANTS[command] ?? []);
  }
  process.env.JSIO_ROOT = ROOT;
  if (command === 'lint') {
    lint();
    unusedCode();
    process.exit(0);
  }
  if (command === 'format') process.exit(run([biome(), 'check', '--write', '.']));
  if (command === 'test') {
    ensureJustForTests();
    const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
    process.stderr.write('== typecheck (tsc --noEmit)\n');
    if (run([bin('tsc'), '--noEmit', '-p', '.']) !== 0) die('typecheck failed');
    lint();
    unusedCode();
    const workflows = join(ROOT, '.github', 'workflows');
    if (existsSync(workflows)) {
      const actionlint = ensureActionlint();
      if (actionlint) {
        process.stderr.write('== actionlint (with shellcheck)\n');
        if (run([actionlint, '-no-color']) !== 0) die('actionlint found problems in .github/workflows');
      }
    }
    ensureAct();
    checkScratchSpace();
    process.stderr.write('== vitest\n');
    process.exit(args.length ? run([bin('vitest'), 'run', ...args]) : await everyTest(bin('vitest')));
  }
  const cli = await bundleHarness();
  process.argv = [process.argv[0], cli, command, ...args];
  await import(pathToFileURL(cli).href);
}

main().catch((e) => die(e?.stack ?? String(e)));
