/** Every command of the CLI with its option table (cli/options.ts): main.ts dispatches from it, the help test reads it. */
import { benchCommand, benchSpec } from './commands/bench.js';
import { calibrateCommand, calibrateSpec } from './commands/calibrate.js';
import { compareCommand, compareSpec } from './commands/compare.js';
import { machineIdCommand, machineIdSpec } from './commands/machine-id.js';
import { pagesCommand, pagesSpec } from './commands/pages.js';
import { pairsCommand, pairsSpec } from './commands/pairs.js';
import { prCommentCommand, prCommentSpec } from './commands/pr-comment.js';
import { publishCommand, publishSpec } from './commands/publish.js';
import { releasesCommand, releasesSpec } from './commands/releases.js';
import { sandboxCostCommand, sandboxCostSpec } from './commands/sandbox-cost.js';
import { siteCommand, sitePerfCommand, sitePerfSpec, siteSpec } from './commands/site.js';
import { transcriptCommand, transcriptSpec } from './commands/transcript.js';
import { workflowCommand, workflowSpec } from './commands/workflow.js';
import type { CommandSpec } from './options.js';

export interface Command {
  spec: CommandSpec;
  run: (argv: string[]) => Promise<number>;
}

/** Keyed by the name bootstrap.mjs passes (the npm script's, except site:perf -> site-perf). */
export const COMMANDS: Record<string, Command> = {
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
  transcript: { spec: transcriptSpec, run: transcriptCommand },
  'sandbox-cost': { spec: sandboxCostSpec, run: sandboxCostCommand },
};
/** The old name of publish-run, still understood when called through bootstrap.mjs directly. */
export const ALIASES: Record<string, string> = { publish: 'publish-run' };
