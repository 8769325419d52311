// The harness's architecture, checked by `npm test` (dependency-cruiser). The main job's stages
// run in this order and a stage never imports a later one:
//   plan -> build -> run -> normalize -> report
// Below them: lib (shared utilities, a leaf), model (schemas and types), analysis (pure
// statistics), machine (this machine's facts, tools and runtimes). Downstream of results.json:
// compare, calibrate, store, site, and the workflows' decisions (workflow). On top: pipeline (the orchestration) and cli (the commands).
// The two pipelines, bench (one checkout) and pairs (the PR diff), share their set-up stage
// (pipeline/setup.ts) and never import each other. The paired runner (run/paired/) sits behind
// its executor seam: its schedule reaches no process, only the decision logic and the types.
// The trend site (gh-pages/src) imports only pure harness modules, and nothing it reaches may
// need Node's built-in modules: it runs in a browser.
const SRC = '^harness/src/';
const STAGES = ['plan', 'build', 'run', 'normalize', 'report'];
const DOWNSTREAM = ['compare', 'calibrate', 'store', 'site', 'workflow'];
const TOP = ['pipeline', 'cli'];
const folders = (names) => `${SRC}(${names.join('|')})/`;
const NODE_BUILTINS = '^(node:)?(fs|fs/promises|path|os|child_process|crypto|http|https|net|url|util|stream|worker_threads|zlib|events|process)$';

const later = (i) => [...STAGES.slice(i + 1), ...DOWNSTREAM, ...TOP];

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'Import cycles hide the order of the pipeline.', severity: 'error', from: {}, to: { circular: true } },
    { name: 'lib-is-a-leaf', comment: 'lib/ holds utilities every layer may use: it imports no other harness folder.', severity: 'error', from: { path: `${SRC}lib/` }, to: { path: SRC, pathNot: `${SRC}lib/` } },
    { name: 'model-is-data', comment: 'model/ holds schemas and types: it imports lib/ only.', severity: 'error', from: { path: `${SRC}model/` }, to: { path: SRC, pathNot: folders(['lib', 'model']) } },
    { name: 'analysis-is-pure', comment: 'analysis/ is pure statistics, bundled into the site too.', severity: 'error', from: { path: `${SRC}analysis/` }, to: { path: SRC, pathNot: folders(['lib', 'model', 'analysis']) } },
    { name: 'analysis-needs-no-node', severity: 'error', from: { path: `${SRC}analysis/` }, to: { dependencyTypes: ['core'] } },
    { name: 'machine-below-the-stages', comment: 'machine/ is facts about this machine, used by the stages.', severity: 'error', from: { path: `${SRC}machine/` }, to: { path: SRC, pathNot: folders(['lib', 'model', 'analysis', 'machine']) } },
    ...STAGES.map((stage, i) => ({
      name: `${stage}-never-imports-later-stages`,
      comment: `The stages run plan -> build -> run -> normalize -> report: ${stage}/ imports none that come after it, nor reporting or orchestration.`,
      severity: 'error',
      from: { path: `${SRC}${stage}/` },
      to: { path: folders(later(i)) },
    })),
    { name: 'report-is-pure', comment: 'report/ renders results: pure, also bundled into the site.', severity: 'error', from: { path: `${SRC}report/` }, to: { path: SRC, pathNot: folders(['lib', 'model', 'analysis', 'report']) } },
    { name: 'downstream-reads-results-only', comment: 'compare, calibrate, store and site work from results.json, not from the measuring stages.', severity: 'error', from: { path: folders(DOWNSTREAM) }, to: { path: folders(['plan', 'build', 'run', 'normalize', ...TOP]) } },
    {
      name: 'pipelines-share-set-up-not-each-other',
      comment: 'bench and the paired diff share pipeline/setup.ts; neither imports the other.',
      severity: 'error',
      from: { path: `${SRC}pipeline/(pairs|calibrate)` },
      to: { path: `${SRC}pipeline/bench\\.ts$` },
    },
    {
      name: 'bench-never-imports-the-paired-diff',
      severity: 'error',
      from: { path: `${SRC}pipeline/bench\\.ts$` },
      to: { path: `${SRC}(pipeline/pairs|run/paired/)` },
    },
    {
      name: 'paired-schedule-runs-no-process',
      comment: 'run/paired/scheduler.ts decides and schedules; processes are run only through the PairExecutor it is given (tested with a fake one).',
      severity: 'error',
      from: { path: `${SRC}run/paired/scheduler\\.ts$` },
      to: { pathNot: `${SRC}(analysis/|model/|lib/|run/paired/(executor|lead)\\.ts$)` },
    },
    { name: 'only-cli-imports-cli', severity: 'error', from: { pathNot: `${SRC}cli/` }, to: { path: `${SRC}cli/` } },
    {
      name: 'site-imports-pure-harness-modules',
      comment: 'The site renders the harness own models (compare, summary) and types; nothing that measures or touches disk.',
      severity: 'error',
      from: { path: '^gh-pages/src/' },
      to: { path: SRC, pathNot: `${SRC}(model/|analysis/|report/|compare/(compare|render)\\.ts$|lib/(format|markdown)\\.ts$)` },
    },
    { name: 'site-reaches-no-node-builtin', comment: 'The site runs in a browser.', severity: 'error', from: { path: '^gh-pages/src/' }, to: { path: NODE_BUILTINS, reachable: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|harness/test|gh-pages/test)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs'] },
  },
};
