/**
 * `npm run workflow -- plan-tools`: pr.yml's plan job traces the base's programs in their
 * sandboxes (pairs --plan --trace), which needs strace, bubblewrap and hyperfine, and on Ubuntu
 * 24.04 unprivileged user namespaces let through AppArmor. Installs only what is missing, so a
 * runner image that has them all needs no sudo; a machine without sudo is told what to install.
 */
import { readFileSync } from 'node:fs';
import { EXIT, UserError } from '../../lib/errors.js';
import { runProcess } from '../../lib/exec.js';
import { systemTool } from '../../machine/tools.js';
import { type CommandSpec, parseCommand } from '../options.js';

/** The trace's tools: executable -> Debian package. */
const TRACE_TOOLS: Record<string, string> = { strace: 'strace', bwrap: 'bubblewrap', hyperfine: 'hyperfine' };

const USERNS_SWITCH = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

export const planToolsSpec = {
  name: 'workflow plan-tools',
  brief: "pr.yml's plan job: install the trace's tools (strace, bubblewrap, hyperfine) where missing",
  summary:
    "Installs what the plan's trace needs and is missing (strace, bubblewrap, hyperfine, with sudo apt-get), and lets " +
    'bubblewrap create user namespaces where AppArmor forbids it (Ubuntu 24.04). Does nothing where all is there.',
  options: {},
  example: 'npm run workflow -- plan-tools',
} as const satisfies CommandSpec;

/** The Debian packages of the trace's tools this machine lacks (looked for in root-owned folders only). */
function missingPackages(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(TRACE_TOOLS)
    .filter(([exe]) => !systemTool(exe, env))
    .map(([, pkg]) => pkg);
}

async function sudo(argv: string[], what: string): Promise<void> {
  const r = await runProcess(['sudo', '-n', ...argv], { timeoutMs: 600_000 });
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(-1)[0] || `exit status ${r.code}`;
    throw new UserError(`${what} failed: ${said}; run as root: ${argv.join(' ')}`);
  }
}

export async function planToolsCmd(argv: string[], io: { stderr: (s: string) => void }): Promise<number> {
  parseCommand(planToolsSpec, argv);
  const missing = missingPackages();
  if (missing.length) {
    io.stderr(`installing what the plan's trace needs: ${missing.join(', ')}\n`);
    await sudo(['apt-get', 'update', '-qq'], 'apt-get update');
    await sudo(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing], 'apt-get install');
  } else io.stderr("the plan's trace has its tools: strace, bubblewrap, hyperfine\n");
  let restricted = '';
  try {
    restricted = readFileSync(USERNS_SWITCH, 'utf8').trim();
  } catch {
    // no AppArmor switch here: user namespaces are not restricted by it
  }
  if (restricted === '1') {
    io.stderr('letting bubblewrap create user namespaces (AppArmor restricts them here)\n');
    await sudo(['sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0'], 'sysctl');
  }
  return EXIT.ok;
}
