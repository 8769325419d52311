/**
 * The command line: `node <bundle> <command> [flags]`, reached through npm scripts. Each command
 * lives in cli/commands/ and returns its exit status (lib/errors.ts EXIT); a UserError prints one
 * clear message (and a hint) and exits "refused" (2); anything else is a bug: exit 3 with the stack.
 */
import { EXIT, UserError } from '../lib/errors.js';
import { benchCommand } from './commands/bench.js';
import { calibrateCommand } from './commands/calibrate.js';
import { compareCommand } from './commands/compare.js';
import { machineIdCommand } from './commands/machine-id.js';
import { pagesCommand } from './commands/pages.js';
import { pairsCommand } from './commands/pairs.js';
import { prCommentCommand } from './commands/pr-comment.js';
import { publishCommand } from './commands/publish.js';
import { roundsCommand } from './commands/rounds.js';
import { siteCommand, sitePerfCommand } from './commands/site.js';
import { workflowCommand } from './commands/workflow.js';

const HELP = `jsio-bench: I/O in JavaScript runtimes vs C

  npm run bench -- [--profile smoke|quick|standard|full] [--experiments a,b] [--variants x,y]
                   [--param name=v1,v2 ...] [--out DIR] [--store DIR | --no-store] [--require just,...]
                   [--programs DIR] [--strict] [--runs N] [--profile-cpu]
  npm run compare -- --base A.json [B.json...] --head C.json [D.json...] [--out DIR] [--noise FILE | --noise-store DIR]
  npm run publish -- RESULTS.json [--store DIR]     (or --noise NOISE.json... [--store DIR])
  npm run pr-comment -- --artifact DIR --pr N [--out FILE] [--post]  |  --find-pr [--event FILE]
  npm run rounds -- --base DIR --head DIR [--rounds N] [--out DIR] [--noise FILE | --noise-store DIR] [-- bench flags...]
  npm run pairs -- --base DIR [--head DIR] [--budget MINUTES] [--seed N] [--out DIR] [--noise FILE | --noise-store DIR]
                   [--profile P] [--experiments a,b] [--variants x,y] [--param name=v1,v2 ...] [--require just] [--strict]
  npm run pages -- RESULTS.json... --dir GH_PAGES_CHECKOUT
  npm run calibrate -- [--rounds 6] [--out DIR] [--store DIR] [-- bench flags...]
  npm run calibrate -- --paired [--repeats 3] [--budget MINUTES] [--plant-ns N] [--busy] [--out DIR] [-- bench flags...]
  npm run machine-id [-- RESULTS.json]
  npm run site  -- [--serve] [--store DIR] [--out DIR] [--port N]
  npm run workflow -- pr-head|comment-target|gab-gate|pick-commit [flags]   (the workflows' checks: docs/workflows.md)
  npm test

Exit status: 0 ok; 1 some benchmarks failed (all results written); 2 refused to run (bad input,
nothing measured); 3 internal error; 130 interrupted (partial results written).`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  bench: benchCommand,
  compare: compareCommand,
  rounds: roundsCommand,
  pairs: pairsCommand,
  calibrate: calibrateCommand,
  publish: publishCommand,
  pages: pagesCommand,
  'pr-comment': prCommentCommand,
  'machine-id': machineIdCommand,
  site: siteCommand,
  'site-perf': sitePerfCommand,
  workflow: (argv) => workflowCommand(argv),
};

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h') {
    process.stdout.write(`${HELP}\n`);
    return cmd ? EXIT.ok : EXIT.refused;
  }
  const run = COMMANDS[cmd];
  if (!run) throw new UserError(`unknown command "${cmd}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UserError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      if (err instanceof UserError && err.hint) process.stderr.write(`hint: ${err.hint}\n`);
      process.exit(EXIT.refused);
    }
    process.stderr.write(`internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(EXIT.internalError);
  },
);
