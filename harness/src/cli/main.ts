/**
 * The command line: `node <bundle> <command> [flags]`, reached through npm scripts. Each command
 * lives in cli/commands/ and returns its exit status (lib/errors.ts EXIT); a UserError prints one
 * clear message (and a hint) and exits "refused" (2); anything else is a bug: exit 3 with the stack.
 */
import { EXIT, UserError } from '../lib/errors.js';
import { benchCommand, benchSpec } from './commands/bench.js';
import { calibrateCommand, calibrateSpec } from './commands/calibrate.js';
import { compareCommand, compareSpec } from './commands/compare.js';
import { machineIdCommand, machineIdSpec } from './commands/machine-id.js';
import { pagesCommand, pagesSpec } from './commands/pages.js';
import { pairsCommand, pairsSpec } from './commands/pairs.js';
import { prCommentCommand, prCommentSpec } from './commands/pr-comment.js';
import { publishCommand, publishSpec } from './commands/publish.js';
import { releasesCommand, releasesSpec } from './commands/releases.js';
import { siteCommand, sitePerfCommand, sitePerfSpec, siteSpec } from './commands/site.js';
import { workflowCommand, workflowSpec } from './commands/workflow.js';
import { type CommandSpec, helpText, isHelp } from './options.js';

interface Command {
  spec: CommandSpec;
  run: (argv: string[]) => Promise<number>;
}

/** Keyed by the name bootstrap.mjs passes (the npm script's, except site:perf -> site-perf). */
const COMMANDS: Record<string, Command> = {
  bench: { spec: benchSpec, run: benchCommand },
  pairs: { spec: pairsSpec, run: pairsCommand },
  compare: { spec: compareSpec, run: compareCommand },
  calibrate: { spec: calibrateSpec, run: calibrateCommand },
  'publish-run': { spec: publishSpec, run: publishCommand },
  pages: { spec: pagesSpec, run: pagesCommand },
  'pr-comment': { spec: prCommentSpec, run: prCommentCommand },
  'machine-id': { spec: machineIdSpec, run: machineIdCommand },
  releases: { spec: releasesSpec, run: releasesCommand },
  site: { spec: siteSpec, run: siteCommand },
  'site-perf': { spec: sitePerfSpec, run: sitePerfCommand },
  workflow: { spec: workflowSpec, run: (argv) => workflowCommand(argv) },
};
/** The old name of publish-run, still understood when called through bootstrap.mjs directly. */
const ALIASES: Record<string, string> = { publish: 'publish-run' };

function overview(): string {
  const lines = Object.values(COMMANDS).map(
    (c) => `  npm run ${c.spec.name.padEnd(12)} ${c.spec.brief ?? c.spec.summary}`,
  );
  return [
    'jsio-bench: I/O in JavaScript runtimes vs C',
    '',
    ...lines,
    `  npm test${' '.repeat(13)} typecheck, lint, the tests`,
    '',
    'Every command answers --help (e.g. npm run bench -- --help).',
    'Exit status: 0 ok; 1 some benchmarks failed (all results written); 2 refused to run (bad input,',
    'nothing measured); 3 internal error; 130 interrupted (partial results written).',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(overview());
    return cmd ? EXIT.ok : EXIT.refused;
  }
  const command = COMMANDS[ALIASES[cmd] ?? cmd];
  if (!command)
    throw new UserError(
      `unknown command "${cmd}"; commands: ${Object.keys(COMMANDS).join(', ')}`,
      'npm run <command> -- --help explains one',
    );
  if (isHelp(rest)) {
    process.stdout.write(helpText(command.spec));
    return EXIT.ok;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UserError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      if (err instanceof UserError && err.hint) process.stderr.write(`hint: ${err.hint}\n`);
      else if (!(err instanceof UserError)) process.stderr.write('hint: --help lists every flag\n');
      process.exit(EXIT.refused);
    }
    process.stderr.write(`internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(EXIT.internalError);
  },
);
