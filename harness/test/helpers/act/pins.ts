/**
 * Every `uses: owner/name@SHA` of the workflows, and a local copy of each at that SHA for act.
 * Machines without GitHub carry the copies in ../shared (one tarball per action and commit:
 * `actions/<name>-<sha>.tar.gz`, or `gab/<name>-<tag>.tar.gz` for a tree published by its tag, the
 * tag being the `# vX.Y.Z` comment the workflow writes beside the SHA); where GitHub is reachable
 * the copy is fetched at the SHA instead. Copies are unpacked once into .cache/act/actions (act
 * reads a --local-repository folder on every use, so they hold only the action's own files).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../cli.js';

const SHARED = join(ROOT, '..', 'shared');
const UNPACKED = join(ROOT, '.cache', 'act', 'actions');

export interface Pin {
  /** owner/name */
  action: string;
  sha: string;
  /** The `# vX.Y.Z` comment beside it, when there is one. */
  tag?: string;
  /** Workflow files that use it. */
  files: string[];
}

const USES = /^\s*(?:-\s+)?uses:\s*([\w.-]+\/[\w.-]+)@([^\s#]+)\s*(?:#\s*(\S+))?/;

/** The pins of every workflow file under `dir`; a `uses:` that is not a full SHA is an error. */
export function workflowPins(dir = join(ROOT, '.github', 'workflows')): Pin[] {
  const pins = new Map<string, Pin>();
  for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const m = USES.exec(line);
      if (!m) continue;
      const [, action, sha, tag] = m as unknown as [string, string, string, string | undefined];
      if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`${file}: uses ${action}@${sha}: pin a full commit SHA`);
      const key = `${action}@${sha}`;
      const pin = pins.get(key) ?? { action, sha, ...(tag ? { tag } : {}), files: [] };
      if (!pin.files.includes(file)) pin.files.push(file);
      pins.set(key, pin);
    }
  }
  return [...pins.values()].sort((a, b) => (a.action < b.action ? -1 : 1));
}

/** The tarball in ../shared that holds this pin's tree, if any. */
export function sharedCopy(pin: Pin): string | undefined {
  const name = pin.action.split('/')[1]!;
  const candidates = [join(SHARED, 'actions', `${name}-${pin.sha}.tar.gz`)];
  if (pin.tag) candidates.push(join(SHARED, 'gab', `${name}-${pin.tag}.tar.gz`));
  return candidates.find((c) => existsSync(c));
}

const label = (pin: Pin) => `${pin.action}@${pin.sha}${pin.tag ? ` (${pin.tag})` : ''} in ${pin.files.join(', ')}`;

/** A clone at exactly the pinned commit, from GitHub; undefined when GitHub cannot be reached. */
function fetchFromGitHub(pin: Pin, into: string): boolean {
  try {
    execFileSync('git', ['init', '--quiet', into], { stdio: 'ignore' });
    execFileSync('git', ['-C', into, 'fetch', '--quiet', '--depth', '1', `https://github.com/${pin.action}`, pin.sha], {
      stdio: 'ignore',
      timeout: 60_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    execFileSync('git', ['-C', into, 'checkout', '--quiet', 'FETCH_HEAD'], { stdio: 'ignore' });
    rmSync(join(into, '.git'), { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

export interface LocalActions {
  /** act's --local-repository values, one per pin: owner/name@SHA=DIR */
  flags: string[];
  /** Pins with no copy, described for an error message. */
  missing: string[];
}

/**
 * Unpacks (or fetches) a copy of every pin. `fetch: false` only looks: the pin check reports what
 * is missing without reaching for the network.
 */
export function localActions(pins: Pin[] = workflowPins(), { fetch = true } = {}): LocalActions {
  const flags: string[] = [];
  const missing: string[] = [];
  for (const pin of pins) {
    const dir = join(UNPACKED, `${pin.action.replace('/', '+')}@${pin.sha}`);
    if (!existsSync(join(dir, '.complete'))) {
      const tarball = sharedCopy(pin);
      if (!tarball && !fetch) {
        missing.push(label(pin));
        continue;
      }
      const part = `${dir}.${process.pid}.part`;
      rmSync(part, { recursive: true, force: true });
      mkdirSync(part, { recursive: true });
      if (tarball) execFileSync('tar', ['-xzf', tarball, '-C', part]);
      const ok = tarball ? true : fetchFromGitHub(pin, part);
      if (!ok || !existsSync(join(part, 'action.yml'))) {
        rmSync(part, { recursive: true, force: true });
        missing.push(label(pin));
        continue;
      }
      writeFileSync(join(part, '.complete'), `${pin.action}@${pin.sha}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(part, dir);
    }
    flags.push(`${pin.action}@${pin.sha}=${dir}`);
  }
  return { flags, missing };
}
