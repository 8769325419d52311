// The act files are part of every `npm test`: where a piece they need is missing they skip with one
// line saying why, and under CI=true the same file fails instead. Planted here by running one act
// file in a vitest of its own without just(js) (JUST_HOME unset), which stops it before any run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

function vitestWithoutJust(ci: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.JUST_HOME;
  delete env.CI;
  if (ci) env.CI = 'true';
  const r = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'vitest'),
    ['run', 'harness/test/workflow/act/pr.act.test.ts'],
    { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: r.status, out: stripVTControlCharacters(`${r.stdout}${r.stderr}`) };
}

describe('the act files when a piece is missing', () => {
  it('skip with one line naming it', { timeout: 150_000 }, () => {
    const r = vitestWithoutJust(false);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('workflows under act skipped: no just(js) (JUST_HOME)');
    expect(r.out).toMatch(/Tests +\d+ skipped/);
  });

  it('fail under CI=true, naming it', { timeout: 150_000 }, () => {
    const r = vitestWithoutJust(true);
    expect(r.status).toBe(1);
    expect(r.out).toContain('act, just(js) and a local copy of every pinned action are here (CI requires them)');
    expect(r.out).toContain('no just(js) (JUST_HOME)');
    expect(r.out).toMatch(/Tests +1 failed/);
  });
});
