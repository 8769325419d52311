/**
 * The environment measured programs run in: only what a process needs to start, nothing else
 * from the machine. A variable set for the machine's other work changes what is measured: with
 * NODE_EXTRA_CA_CERTS set (as on the development VM), Node 20 and Node 22 before 22.7 parse the
 * whole CA bundle at every start, so the machine's environment reads as a start-up change between
 * releases (docs/runners.md); NODE_OPTIONS, UV_THREADPOOL_SIZE, GLIBC_TUNABLES or LD_PRELOAD change
 * the runtime itself. Commands set what they need themselves (`UV_THREADPOOL_SIZE={pool} ...`).
 */

/** What measured programs keep from the harness's environment (docs/runners.md, "CPU isolation"). */
const PROGRAM_ENV_KEPT = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  // just(js) finds its modules through these.
  'JUST_HOME',
  'JUST_TARGET',
] as const;

/** `env` narrowed to the variables measured programs keep. */
export function programEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const k of PROGRAM_ENV_KEPT) if (env[k] !== undefined) out[k] = env[k];
  return out;
}
