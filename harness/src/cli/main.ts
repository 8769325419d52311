/**
 * The command line: `node <bundle> <command> [flags]`, reached through npm scripts. Each command
 * lives in cli/commands/ and returns its exit status (lib/errors.ts EXIT); a UserError prints one
 * clear message (and a hint) and exits "refused" (2); anything else is a bug: exit 3 with the stack.
 */
import { EXIT, UserError } from '../lib/errors.js';
import { ALIASES, COMMANDS } from './command-table.js';
import { helpSpecFor, helpText, isHelp } from './options.js';

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

async function main(argv: string[]): Promise<number> {
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
    process.stdout.write(helpText(helpSpecFor(command.spec, rest)));
    return EXIT.ok;
  }
  return command.run(rest);
}

/**
 * Exits once what was written has left: on Linux a pipe is written asynchronously, so exiting at
 * once cuts output a slow reader (`| jq`) has not taken yet at the pipe's 64 KiB.
 */
function exitWhenWritten(code: number): void {
  const streams = [process.stdout, process.stderr];
  let open = streams.length;
  for (const stream of streams) {
    let left = false;
    const done = () => {
      if (left) return;
      left = true;
      if (--open === 0) process.exit(code);
    };
    stream.once('error', done); // a reader that went away (EPIPE) takes nothing more
    stream.write('', done);
  }
}

main(process.argv.slice(2)).then(
  (code) => exitWhenWritten(code),
  (err: unknown) => {
    if (err instanceof UserError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      if (err instanceof UserError && err.hint) process.stderr.write(`hint: ${err.hint}\n`);
      else if (!(err instanceof UserError)) process.stderr.write('hint: --help lists every flag\n');
      return exitWhenWritten(EXIT.refused);
    }
    process.stderr.write(`internal error: ${(err as Error).stack ?? String(err)}\n`);
    exitWhenWritten(EXIT.internalError);
  },
);
