// The harness's architecture, checked by `npm test` (dependency-cruiser, type-only imports included).
//
// Floors. The main job's stages run in this order and a stage never imports a later one:
//   plan -> build -> run -> normalize -> report
// build and normalize are a file or two each and sit in run/ (run/build.ts; run/normalize.ts and
// run/fit-metrics.ts), on their own floors all the same. Below the stages: lib (shared utilities, a
// leaf), model (the domain's words and types: metrics, profiles, verdicts, runtimes, ids), formats
// (every document the project writes or reads, one module each: its version, its schema, its readers
// of older versions and its writers for older readers), analysis (pure statistics), machine (this
// machine's facts, tools and runtimes). Downstream of results.json: compare (the quick look between stored runs), store,
// site, and workflow (the GitHub workflows' plumbing: their decisions, the PR artifact, the noise
// artifact). On top: pipeline (the orchestration) and cli (the commands).
//
// Rooms. A feature that spans the floors has a folder of its own, with the same floors and the same
// rules inside it: the paired diff (pairs/, with its harness-against-harness measurement in
// pairs/harness-shift/), calibration (calibration/) and the release axis (releases/). A room's
// folders are named for what they hold, not for their floor (a short path then says where it is:
// pairs/decide/ and releases/judge/, not two more analysis/), and ROOM_FOLDERS gives each its floor;
// a room's other files sit loose in it and FILE_FLOORS below gives each its floor. A room may use every shared floor as
// its own floor of the same name would; no shared floor imports a room. Calibration and the release
// axis confirm with the paired diff, so they may import pairs/; pairs imports neither, and the two
// never import each other. workflow/ renders the paired diff's comment, so it may import pairs/ (no
// other room), and only cli/ imports it.
//
// One room serves every floor instead: counted work (counts/), called by bench, the paired diff,
// the release axis, the store and the reports alike. Its files stand on the shared floors
// (FILE_FLOORS gives each its floor), so the floors' rules hold inside it, and it imports no room,
// pipeline or command.
//
// The trend site (gh-pages/src) imports only pure harness modules, and nothing it reaches may
// need Node's built-in modules: it runs in a browser.
//
// harness/test/lib/dependency-rules.test.ts checks that every path named here exists and that every
// source file stands on exactly one floor (a loose file the map misses would stand on none).
const SRC = '^harness/src/';
const ROOMS = ['pairs', 'calibration', 'releases'];
/** A room's folders and the floor each stands on (relative to harness/src). */
const ROOM_FOLDERS = {
  // The paired diff: the statistics that decide a point, the engine's core (match the sides,
  // schedule the pairs, the budget), the PR diff's own stages, and the comment's text.
  'pairs/decide': 'analysis',
  'pairs/engine': 'run',
  'pairs/diff': 'pipeline',
  'pairs/comment': 'report',
  // The release axis: judging a release timeline, and the sweeps that run and confirm it.
  'releases/judge': 'analysis',
  'releases/sweeps': 'pipeline',
};
const STAGES = ['plan', 'build', 'run', 'normalize', 'report'];
const BELOW = ['lib', 'model', 'formats', 'analysis', 'machine'];
const DOWNSTREAM = ['compare', 'store', 'site', 'workflow'];
const TOP = ['pipeline', 'cli'];
const FLOORS = [...BELOW, ...STAGES, ...DOWNSTREAM, ...TOP];
/** Files whose floor is not the folder they sit in (relative to harness/src): the floor's rules follow them. */
const FILE_FLOORS = {
  // The build and normalize stages, a file or two each, sit beside the run stage they bracket; their
  // floors keep the order: build.ts imports no run/ file, and no run/ file imports normalize's.
  'run/build.ts': 'build',
  'run/build-entry.ts': 'build',
  'run/normalize.ts': 'normalize',
  'run/fit-metrics.ts': 'normalize',
  // strace's logs read (pure): below the stages, since a build and an input generator are traced
  // too (machine/sandbox/traced-step.ts), not only the run.
  'run/strace-log.ts': 'machine',
  'run/parse-file-trace.ts': 'machine',
  // A job is the domain's (one point, resolved by plan) but made of the manifest's and results.json's
  // types: it stands on the formats' floor, below everything that reads jobs (counting's key among them).
  'model/job.ts': 'formats',
  // The paired diff's harness-against-harness measurement, one stage's worth of files each.
  'pairs/harness-shift/lead-value.ts': 'analysis',
  'pairs/harness-shift/harness-load.ts': 'analysis',
  'pairs/harness-shift/harness-cpu.ts': 'run',
  'pairs/harness-shift/pooled-shift.ts': 'analysis',
  'pairs/harness-shift/quietest.ts': 'analysis',
  'pairs/harness-shift/harness-change.ts': 'plan',
  'pairs/harness-shift/measuring-files.ts': 'plan',
  'pairs/harness-shift/sample.ts': 'plan',
  'pairs/harness-shift/shift-runs.ts': 'plan',
  'pairs/harness-shift/bench-process.ts': 'run',
  'pairs/harness-shift/harness-sides.ts': 'run',
  'pairs/harness-shift/rounds.ts': 'run',
  'pairs/harness-shift/shift-counts.ts': 'run',
  'pairs/harness-shift/shift-section.ts': 'report',
  'pairs/harness-shift/measure-harness-shift.ts': 'pipeline',
  'pairs/harness-shift/shift-observations.ts': 'pipeline',
  // What a harness runs, recorded from outside: strace's log read, the starts normalized, compared.
  'pairs/harness-shift/transcript-starts.ts': 'normalize',
  'pairs/harness-shift/transcript-places.ts': 'normalize',
  'pairs/harness-shift/repeated-sandboxes.ts': 'normalize',
  'pairs/harness-shift/transcript-compare.ts': 'analysis',
  // Which points' differences are only in their own timed commands, with each side's commands.
  'pairs/harness-shift/transcript-replay.ts': 'analysis',
  'pairs/harness-shift/transcript-record.ts': 'pipeline',
  // The hyperfine a recording shows (its numbers are the raw output both analyses are handed), the
  // numbers compared, both sides recorded at once, and the verdict in words.
  'pairs/harness-shift/hyperfine-player.ts': 'run',
  'pairs/harness-shift/sandbox-replay.ts': 'run',
  'pairs/harness-shift/transcript-numbers.ts': 'analysis',
  'pairs/harness-shift/harness-transcripts.ts': 'pipeline',
  'pairs/harness-shift/reduction.ts': 'pipeline',
  'pairs/harness-shift/trend-moves.ts': 'pipeline',
  'pairs/harness-shift/stored-recording.ts': 'pipeline',
  'pairs/harness-shift/verdict-text.ts': 'report',
  // The paired engine's core in pairs/engine/: its one Budget is pure; starting it, the plainest diff
  // (every point), matching the sides and the answer it builds orchestrate the stages, so they
  // stand with the pipelines.
  'pairs/engine/budget.ts': 'analysis',
  'pairs/engine/pair-engine.ts': 'pipeline',
  'pairs/engine/pairs-outcome.ts': 'pipeline',
  'pairs/engine/every-point.ts': 'pipeline',
  // Matching the sides plans and builds each checkout through bench's shared set-up.
  'pairs/engine/diff-sides.ts': 'pipeline',
  // Calibration: a replay, a report and the two files that run it.
  'calibration/aa-replay.ts': 'analysis',
  'calibration/figures.ts': 'report',
  'calibration/calibrate-machine.ts': 'pipeline',
  'calibration/plant.ts': 'pipeline',
  // Counted work (counts/): the instructions a point runs, counted under Valgrind, on the floors
  // its parts need. Its rule (the tolerance and the spread), the verdict, the reuse of stored
  // counts and the breakdown's diff are pure; reading Valgrind's machine and keying a count sit
  // below the stages; counting and its breakdown run; the store of counts is downstream; its texts
  // are reports the site renders too.
  'counts/count-rule.ts': 'analysis',
  'counts/count-verdict.ts': 'analysis',
  'counts/count-steps.ts': 'analysis',
  'counts/count-reuse.ts': 'analysis',
  'counts/count-breakdown.ts': 'analysis',
  'counts/count-span-text.ts': 'analysis',
  'counts/valgrind-cpu.ts': 'machine',
  'counts/count-key.ts': 'machine',
  'counts/under-valgrind.ts': 'run',
  'counts/parse-valgrind.ts': 'run',
  'counts/parse-callgrind.ts': 'run',
  'counts/count-instructions.ts': 'run',
  'counts/callgrind.ts': 'run',
  'counts/count-jobs.ts': 'run',
  'counts/count-store.ts': 'store',
  'counts/stored-counts.ts': 'store',
  'counts/count-lines.ts': 'report',
  'counts/counting-text.ts': 'report',
  'counts/count-verdict-text.ts': 'report',
  'counts/count-breakdown-text.ts': 'report',
  // The release axis: its files, its plans and its texts (its analysis/ and pipeline/ have folders
  // of their own; its store's schemas and checks are formats/release-store-format.ts).
  'releases/suite-plan.ts': 'plan',
  'releases/sweep-plan.ts': 'plan',
  'releases/counter-groups.ts': 'report',
  'releases/spread-text.ts': 'report',
  'releases/release-files.ts': 'store',
  'releases/release-site-copy.ts': 'store',
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every file and folder (relative to harness/src) a rule names; the tests check that each exists. */
const NAMED = { files: new Set(), folders: new Set() };
/** One file, by its path under harness/src. */
const file = (path) => {
  NAMED.files.add(path);
  return `${SRC}${escape(path)}$`;
};
/** One folder (a room, or a shared floor), by its path under harness/src. */
const folder = (path) => {
  NAMED.folders.add(path);
  return `${SRC}${escape(path)}/`;
};
/** A room's name inside a regular expression that captures it. */
const room = (name) => {
  NAMED.folders.add(name);
  return escape(name);
};
const mapped = Object.keys(FILE_FLOORS).map(escape).join('|');
/** A floor of that name: its shared folder, the rooms' folders on it, and the files the map gives it. */
const floors = (names) => {
  const files = Object.keys(FILE_FLOORS).filter((f) => names.includes(FILE_FLOORS[f]));
  const roomFolders = Object.keys(ROOM_FOLDERS).filter((d) => names.includes(ROOM_FOLDERS[d]));
  roomFolders.forEach((d) => NAMED.folders.add(d));
  const inFolders = `${SRC}${mapped ? `(?!(?:${mapped})$)` : ''}(?:${[...names, ...roomFolders].map(escape).join('|')})/`;
  return [inFolders, ...files.map(file)];
};
const NODE_BUILTINS = '^(node:)?(fs|fs/promises|path|os|child_process|crypto|http|https|net|url|util|stream|worker_threads|zlib|events|process)$';

/** The main job's pipeline: bench.ts and the parts split from it (its options and result, its counted work). */
const BENCH_FILES = ['pipeline/bench.ts', 'pipeline/bench-options.ts', 'pipeline/counts-of-run.ts'];

const later = (i) => [...STAGES.slice(i + 1), ...DOWNSTREAM, ...TOP];
/** Allowed targets of a floor: the named floors, shared or in any room the rules below allow. */
const only = (name, from, names, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: SRC, pathNot: floors(names) },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'Import cycles (type-only ones too) hide the order of the pipeline.', severity: 'error', from: {}, to: { circular: true } },
    only('lib-is-a-leaf', folder('lib'), ['lib'], 'lib/ holds utilities every layer may use: it imports no other harness folder.'),
    only('model-is-data', floors(['model']), ['lib', 'model'], "model/ holds the domain's words and types: it imports lib/ only."),
    only('formats-are-documents', floors(['formats']), ['lib', 'model', 'formats'], 'formats/ holds the documents, written in the words of model/: it imports nothing that measures or reports.'),
    only('analysis-is-pure', floors(['analysis']), ['lib', 'model', 'formats', 'analysis'], 'analysis/ is pure statistics, bundled into the site too.'),
    { name: 'analysis-needs-no-node', severity: 'error', from: { path: floors(['analysis']) }, to: { dependencyTypes: ['core'] } },
    only('machine-below-the-stages', floors(['machine']), ['lib', 'model', 'formats', 'analysis', 'machine'], 'machine/ is facts about this machine, used by the stages.'),
    ...STAGES.map((stage, i) => ({
      name: `${stage}-never-imports-later-stages`,
      comment: `The stages run plan -> build -> run -> normalize -> report: the ${stage} floor imports none that come after it, nor reporting or orchestration.`,
      severity: 'error',
      from: { path: floors([stage]) },
      to: { path: floors(later(i)) },
    })),
    only('report-is-pure', floors(['report']), ['lib', 'model', 'formats', 'analysis', 'report'], 'report/ renders results: pure, also bundled into the site.'),
    {
      name: 'downstream-reads-results-only',
      comment: "compare, store, site and the workflows' plumbing work from results.json, not from the measuring stages.",
      severity: 'error',
      from: { path: floors(DOWNSTREAM) },
      to: { path: floors(['plan', 'build', 'run', 'normalize', ...TOP]) },
    },
    {
      name: 'shared-floors-import-no-room',
      comment: 'A room builds on the shared floors; the shared floors know no room.',
      severity: 'error',
      from: { path: SRC, pathNot: [...ROOMS, 'cli', 'workflow'].map(folder) },
      to: { path: ROOMS.map(folder) },
    },
    {
      name: 'counts-serves-and-calls-no-caller',
      comment:
        'Counted work (counts/) is called by bench, the paired diff, the release axis and the reports; it imports none of them: no room, no pipeline, no command.',
      severity: 'error',
      from: { path: folder('counts') },
      to: { path: [...ROOMS, 'pipeline', 'cli', 'workflow', 'site', 'compare'].map(folder) },
    },
    {
      name: 'workflow-imports-only-the-pairs-room',
      comment: "The workflows' plumbing reads and renders the paired diff's comparison.json; the other rooms are none of its business.",
      severity: 'error',
      from: { path: folder('workflow') },
      to: { path: ROOMS.filter((r) => r !== 'pairs').map(folder) },
    },
    {
      name: 'only-cli-imports-workflow',
      comment: 'The workflows reach workflow/ through their commands; nothing below the commands imports it, so its import of pairs/ stays one way.',
      severity: 'error',
      from: { pathNot: ['cli', 'workflow'].map(folder) },
      to: { path: folder('workflow') },
    },
    {
      name: 'pairs-imports-no-other-room',
      severity: 'error',
      from: { path: folder('pairs') },
      to: { path: [folder('calibration'), folder('releases')] },
    },
    {
      name: 'calibration-and-releases-apart',
      severity: 'error',
      from: { path: `${SRC}(${['calibration', 'releases'].map(room).join('|')})/` },
      to: { path: [folder('calibration'), folder('releases')], pathNot: '$1' },
    },
    {
      name: 'pipelines-share-set-up-not-each-other',
      comment: 'bench and the paired diff share pipeline/setup.ts; neither imports the other.',
      severity: 'error',
      from: { path: [folder('pairs'), folder('calibration')] },
      to: { path: BENCH_FILES.map(file) },
    },
    {
      name: 'bench-never-imports-the-paired-diff',
      severity: 'error',
      from: { path: BENCH_FILES.map(file) },
      to: { path: folder('pairs') },
    },
    {
      name: 'paired-engine-knows-no-caller',
      comment:
        "The paired engine's core (pairs/engine/) takes what it needs as arguments: it imports none of the pipelines around it (the PR diff, its harness comparison, its comment, calibration, the release axis).",
      severity: 'error',
      from: { path: folder('pairs/engine') },
      to: { path: ['pairs/diff', 'pairs/harness-shift', 'pairs/comment', 'calibration', 'releases'].map(folder) },
    },
    {
      name: 'paired-schedule-runs-no-process',
      comment: 'pairs/engine/scheduler.ts decides and schedules; processes are run only through the PairExecutor it is given (tested with a fake one).',
      severity: 'error',
      from: { path: file('pairs/engine/scheduler.ts') },
      to: {
        pathNot: [
          ...['analysis', 'model', 'formats', 'lib', 'pairs/decide'].map(folder),
          file('pairs/engine/executor.ts'),
          file('pairs/engine/lead-metric.ts'),
          file('pairs/engine/budget.ts'),
        ],
      },
    },
    { name: 'only-cli-imports-cli', severity: 'error', from: { pathNot: folder('cli') }, to: { path: folder('cli') } },
    {
      name: 'site-imports-pure-harness-modules',
      comment: 'The site renders the harness own models (compare, summary) and types; nothing that measures or touches disk.',
      severity: 'error',
      from: { path: '^gh-pages/src/' },
      to: {
        path: SRC,
        pathNot: [
          ...floors(['model', 'formats', 'analysis', 'report']),
          ...['compare/quick-look.ts', 'lib/format.ts', 'lib/markdown.ts', 'lib/compare-text.ts'].map(file),
        ],
      },
    },
    { name: 'site-reaches-no-node-builtin', comment: 'The site runs in a browser.', severity: 'error', from: { path: '^gh-pages/src/' }, to: { path: NODE_BUILTINS, reachable: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|harness/test|gh-pages/test)' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a cycle through types is still a cycle a reader must untangle.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs'] },
  },
};

// What harness/test/lib/dependency-rules.test.ts checks against the tree. Not enumerable:
// dependency-cruiser refuses a configuration with keys of its own.
Object.defineProperty(module.exports, 'layout', {
  value: { ROOMS, ROOM_FOLDERS, FLOORS, FILE_FLOORS, floors, named: { files: [...NAMED.files], folders: [...NAMED.folders] } },
});
