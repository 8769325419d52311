// More workflow properties read from the YAML: what the PR benchmark checks out, pins with
// versions, toolchain versions in step with the harness, and every command a workflow runs is an npm script a test also runs.
// (Gates, permissions and trust levels: workflows-design.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';

type Step = {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  name?: string;
};
type Job = { steps: Step[]; if?: string; concurrency?: unknown; permissions?: Record<string, string> };
type Workflow = { concurrency?: unknown; jobs: Record<string, Job>; env?: Record<string, string> };

const dir = join(ROOT, '.github', 'workflows');
const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
const text = Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const wf = Object.fromEntries(files.map((f) => [f, parse(text[f]!) as Workflow]));
const steps = (f: string) => Object.values(wf[f]!.jobs).flatMap((j) => j.steps);

// Who may start a benchmark on the self-hosted runners (pr.yml's job conditions evaluated for
// each kind of pull request) is tested in workflows-design.test.ts with GitHub's expression rules.
describe('pr.yml: what the benchmark runs', () => {
  it('benchmarks the pull request head itself, with just(js) fully configured', () => {
    const checkout = steps('pr.yml').find((s) => s.uses?.startsWith('actions/checkout@') && s.with?.path === 'head');
    expect(checkout?.with?.ref).toBe('${{ github.event.pull_request.head.sha }}');
  });
});

describe('all workflows', () => {
  it('pin actions to a commit with the release named in a comment', () => {
    for (const f of files) {
      for (const m of text[f]!.matchAll(/^\s*(?:-\s*)?uses:\s*(\S+)(.*)$/gm)) {
        expect(m[1], f).toMatch(/@[0-9a-f]{40}$/);
        expect(m[2], `${f}: ${m[1]}`).toMatch(/#\s*v\d+(\.\d+){1,2}\s*$/);
      }
    }
  });

  it('set JUST_TARGET wherever they set JUST_HOME (just build needs both)', () => {
    for (const f of files)
      expect(text[f]!.includes('JUST_HOME=') ? text[f]!.includes('JUST_TARGET=') : true, f).toBe(true);
  });

  // harness/toolchains.json is the one place a pin is named: install-just reads it, so a pin bump
  // is one line and no workflow can build another version than the one the points are checked against.
  it('name no just(js) version: install-just reads the pin from harness/toolchains.json', () => {
    for (const f of files) {
      expect(text[f], f).not.toMatch(/JUST_VERSION/);
      expect(text[f], f).not.toMatch(/\b0\.1\.\d+\b/);
      for (const m of text[f]!.matchAll(/install-just --(.*)\)"/g))
        expect(m[1], `${f}: install-just${m[1]}`).toMatch(
          /^( --pins "?[^ "]+toolchains\.json"?)? "\$JSIO_CACHE\/just"$/,
        );
    }
  });

  it("pr.yml installs each side's own just(js) pin and runs each side's points with it", () => {
    const pr = text['pr.yml']!;
    expect(pr).toContain('install-just -- "$JSIO_CACHE/just"');
    expect(pr).toContain('install-just -- --pins ../head/harness/toolchains.json "$JSIO_CACHE/just"');
    expect(pr).toMatch(/npm run pairs -- [^\n]*--base-just "\$JUST_HOME" --head-just "\$HEAD_JUST_HOME"/);
  });

  // GitHub keeps one pending job per concurrency group and cancels the one it replaces: a group
  // is used only where the replaced job is not worth running any more (an older head of the same
  // pull request). Every push, calibration, publish and comment keeps its place.
  it('use concurrency groups only for pull-request heads that a newer head supersedes', () => {
    const grouped = files.flatMap((f) =>
      Object.entries(wf[f]!.jobs)
        .filter(([, j]) => j.concurrency)
        .map(([n]) => `${f} ${n}`),
    );
    expect(grouped.filter((g) => !g.startsWith('ci.yml')).sort()).toEqual(['pr.yml approve', 'pr.yml diff']);
    for (const f of files) if (f !== 'ci.yml') expect(wf[f]!.concurrency, f).toBeUndefined();
  });

  it('keep no logic in YAML: no inline github-script', () => {
    for (const f of files) expect(text[f], f).not.toMatch(/actions\/github-script@/);
  });
});

describe('every command a workflow runs is an npm script that a test runs', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const testDir = join(ROOT, 'harness', 'test');
  const tests = (readdirSync(testDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts') && !basename(f).startsWith('workflows'))
    .map((f) => readFileSync(join(testDir, f), 'utf8'))
    .join('\n');
  /** What a script runs: a bootstrap command (`bench`) or a tool script (`install-just.sh`). */
  const target = (script: string) => {
    const cmd = scripts[script] ?? '';
    return /bootstrap\.mjs (\S+)/.exec(cmd)?.[1] ?? /harness\/tools\/(\S+)/.exec(cmd)?.[1] ?? cmd;
  };
  /** A test passes the command (or the npm script's name) as a quoted argument. */
  const exercised = (script: string) => [script, target(script)].some((t) => tests.includes(`'${t}'`));

  // Plumbing that moves values between steps or installs the platform, not project logic.
  const PLUMBING = [
    /^(echo|printf) .*>> ?"\$GITHUB_(ENV|PATH|OUTPUT|STEP_SUMMARY)"$/,
    /^cat \S+ >> "\$GITHUB_STEP_SUMMARY"$/,
    /^(id|number|dir|sha|file)="\$\(npm run --silent [\w-]+( .*)?\)"$/,
    // A fresh HOME per job and the trust level's caches (docs/runners.md).
    /^mkdir -p "\$RUNNER_TEMP\/home"$/,
    /^\{$/,
    /^echo "(HOME|JSIO_CACHE|npm_config_cache)=\$RUNNER_(TEMP|TOOL_CACHE)\/[\w/-]+"$/,
    /^\} >> "\$GITHUB_ENV"$/,
    // install-just's one line, checked before it reaches GITHUB_ENV/GITHUB_PATH.
    /^\[\[ "\$dir" =~ \^"\$JSIO_CACHE"\/just\/just-\[0-9\]\+\\\.\[0-9\]\+\\\.\[0-9\]\+\$ && "\$dir" =~ \^\/\[A-Za-z0-9\._\/-\]\+\$ \]\] \|\| \{ echo "::error::[^"]+"; exit 1; \}$/,
    /^mkdir -p ((head|"\$side)\/)?\.cache"? "\$JSIO_CACHE\/runtimes"$/,
    /^ln -sfn "\$JSIO_CACHE\/runtimes" "?((head|\$side)\/)?\.cache\/runtimes"?$/,
    /^for side in base head; do$/,
    /^done$/,
    // pr.yml's plan job: no plan, no diff (after the reason went up).
    /^exit 1$/,
    /^find \. -mindepth 1 -maxdepth 1 -exec rm -rf -- \{\} \+$/,
    // Git plumbing: a token-free remote for publish-to-branch, the commit checks, the back-fill.
    /^git init --quiet pages$/,
    /^git -C pages remote add origin "https:\/\/github\.com\/\$\{GITHUB_REPOSITORY\}\.git"$/,
    /^git merge-base --is-ancestor HEAD origin\/main$/,
    /^git checkout --quiet --detach "\$sha"$/,
    /^git -C head worktree prune$/,
    /^test "\$\(git -C head rev-parse HEAD\)" = "\$HEAD_SHA"$/,
    /^npm ci --ignore-scripts$/,
    /^sudo apt-get /,
    /^git (clone|fetch|config|-C \S+ (fetch|worktree add)) /,
    /^\(cd \w+ && npm ci --ignore-scripts\)$/,
    /^mkdir -p \w+$/,
    /^cp [\w/. -]+$/,
    /^printf '%s' "\$PR_NUMBER" > [\w/-]+$/,
    /^node "\$GITHUB_WORKSPACE\/harness\/bootstrap\.mjs" (pages|releases import) /,
    /^test "\$(BENCH|CALIBRATE)_STATUS" = 0$/,
  ];

  it.each(files)('%s', (f) => {
    for (const step of steps(f)) {
      if (!step.run) continue;
      const lines = step.run
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
      for (const line of lines) {
        for (const m of line.matchAll(/npm run (?:--silent )?([\w:-]+)/g)) {
          expect(Object.keys(scripts), `${f}: ${line}`).toContain(m[1]);
          expect(exercised(m[1]!), `${f}: npm run ${m[1]} (${target(m[1]!)}) is not run by any test`).toBe(true);
        }
        const isNpm = /^npm (ci|test)\b/.test(line) || /^npm run /.test(line);
        // Lines of a bench (or calibrate, pairs, the comment's and the merge check's) step's
        // argument assembly and exit-status handling are shell around one npm run.
        const inBenchStep = /npm run (--silent )?(bench|calibrate|pairs|pr-comment|workflow|transcript) /.test(
          step.run,
        );
        if (!isNpm && !inBenchStep && !PLUMBING.some((re) => re.test(line)))
          expect.fail(`${f}: "${line}" is neither an npm script nor plumbing`);
      }
    }
  });
});
