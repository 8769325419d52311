// Identity by exclusion: one change of every class a reviewer could use to slip a slowdown past
// the PR diff is planted in a copy of this repository (base and head share a set-up, the head
// adds the change), and the exact set of affected points is checked. Each class once passed as
// "changes nothing": a data file, a computed or non-import load, headers a flag pulls in, a
// runtime's own configuration, a nested lockfile entry, the bundler, a script a command runs, a
// generator's helper. Real esbuild (the pinned one), real gcc -M, real acorn.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PointIdentity, planImpact } from '../../src/pairs/decide/impact.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { forgetMeasuredInputs, generatorIdentity, measuredInputs } from '../../src/plan/identify-inputs.js';
import { expand, type Point } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'jsio-exclusion-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Edit = (root: string) => void;
let copies = 0;

/** A checkout with what identities read: programs, pins, the lockfile and package.json. */
function checkout(edit: Edit): string {
  const root = join(scratch, `c${copies++}`);
  cpSync(join(ROOT, 'programs'), join(root, 'programs'), { recursive: true });
  for (const f of ['harness/toolchains.json', 'package-lock.json', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, f), join(root, f));
  edit(root);
  return root;
}

const write = (root: string, file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};
const append = (root: string, file: string, text: string) => appendFileSync(join(root, file), text);
const prepend = (root: string, file: string, text: string) =>
  writeFileSync(join(root, file), `${text}${readFileSync(join(root, file), 'utf8')}`);
const editJson = (root: string, file: string, f: (j: any) => void) => {
  const j = JSON.parse(readFileSync(join(root, file), 'utf8'));
  f(j);
  writeFileSync(join(root, file), JSON.stringify(j, null, 2));
};
const variant = (m: any, id: string) => m.variants.find((v: { id: string }) => v.id === id);

function identities(root: string): PointIdentity[] {
  forgetMeasuredInputs();
  const points: Point[] = expand(loadAllExperiments(join(root, 'programs')), 'smoke', {});
  return points.map((p) => ({ id: p.id, experiment: p.experiment.id, identity: measuredInputs(p, root) }));
}

/** The ids a change planted over a shared set-up affects (no control drawn), and the head's reasons. */
function affectedBy(setup: Edit, change: Edit) {
  const base = identities(checkout(setup));
  const head = identities(
    checkout((r) => {
      setup(r);
      change(r);
    }),
  );
  const plan = planImpact(base, head, 0, 1);
  return { ids: [...plan.affected.keys()].sort(), reasons: plan.affected, head };
}

let all: string[];
beforeAll(() => {
  all = identities(checkout(() => {})).map((p) => p.id);
});

const ids = (pred: (id: string) => boolean) => all.filter(pred).sort();
const of =
  (experiment: string, ...variants: string[]) =>
  (id: string) =>
    variants.some((v) => id.startsWith(`${experiment}/${v}/`) || id === `${experiment}/${v}`);
const inExperiment = (e: string) => (id: string) => id.startsWith(`${e}/`);
const runtimeIs = (...r: string[]) => new RegExp(`[,/]runtime=(${r.join('|')})(,|$)`);
const none: Edit = () => {};
const GENERATED = ['records', 'scan', 'streams', 'threadpool'];

describe('data files a program reads', () => {
  it('a file read by a literal path: the program that names it, wherever the file is', () => {
    const setup: Edit = (r) => {
      write(r, 'programs/wc/table.txt', 'a\n');
      write(r, 'data/far.txt', 'a\n');
      prepend(
        r,
        'programs/wc/wc-readsync.js',
        "import { readFileSync as readTable } from 'node:fs';\nreadTable(new URL('./table.txt', import.meta.url));\nreadTable('../../data/far.txt');\n",
      );
    };
    const readsync = ids(of('wc', 'readsync'));
    expect(readsync.length).toBeGreaterThan(2);
    expect(affectedBy(setup, (r) => write(r, 'programs/wc/table.txt', 'b\n')).ids).toEqual(readsync);
    expect(affectedBy(setup, (r) => write(r, 'data/far.txt', 'b\n')).ids).toEqual(readsync);
  });

  it('a file in the folder that no program names (read by a computed path): every point of the experiment', () => {
    const setup: Edit = (r) => write(r, 'programs/wc/notes.dat', '1');
    expect(affectedBy(setup, (r) => write(r, 'programs/wc/notes.dat', '2')).ids).toEqual(ids(inExperiment('wc')));
  });

  it('a file a C program opens by name, and one an .incbin embeds from outside the folder: the C program', () => {
    const setup: Edit = (r) => {
      write(r, 'programs/wc/wc-table.txt', '1');
      write(r, 'data/blob.bin', '1');
      prepend(
        r,
        'programs/wc/wc-c.c',
        'static const char *table_path = "wc-table.txt";\n__asm__(".section .rodata\\n.incbin \\"../../data/blob.bin\\"\\n.previous");\n',
      );
    };
    expect(affectedBy(setup, (r) => write(r, 'programs/wc/wc-table.txt', '2')).ids).toEqual(ids(of('wc', 'c')));
    expect(affectedBy(setup, (r) => write(r, 'data/blob.bin', '2')).ids).toEqual(ids(of('wc', 'c')));
  });
});

describe('loads the import graph does not follow (the guard, under the pinned esbuild)', () => {
  const unknown = (file: string, code: string, variantIds: string[], experiment = 'wc') => {
    const got = affectedBy((r) => prepend(r, file, code), none);
    expect(got.ids).toEqual(ids(of(experiment, ...variantIds)));
    for (const id of got.ids)
      expect(got.reasons.get(id)!.join(' ')).toMatch(/cannot be identified on the head: .*(computed|createRequire)/);
  };
  it('a computed import(), nothing else changed: affected, with the reason', () =>
    unknown('programs/wc/wc-readsync.js', "const helper = ['./x', 'js'].join('.');\nif (0) await import(helper);\n", [
      'readsync',
    ]));
  it('createRequire', () =>
    unknown(
      'programs/wc/wc-node-stream.js',
      "import { createRequire } from 'node:module';\nconst req = createRequire(import.meta.url);\n",
      ['node-stream'],
    ));
  it('a Worker of a computed path', () =>
    unknown(
      'programs/wc/wc-node-pipe.js',
      "import { Worker } from 'node:worker_threads';\nif (0) new Worker(process.argv[9]);\n",
      ['node-pipe'],
    ));
  it("just.require of a computed name (the static app shares the script's source)", () =>
    unknown('programs/wc/wc-just-sync.js', 'if (0) just.require(just.args[9]);\n', ['just-sync', 'just-static']));

  it('a literal Worker file outside the folder is followed: changing it affects the program', () => {
    const setup: Edit = (r) => {
      write(r, 'shared/worker.mjs', 'export const x = 1;\n');
      prepend(
        r,
        'programs/wc/wc-node-pipe.js',
        "import { Worker } from 'node:worker_threads';\nif (0) new Worker(new URL('../../shared/worker.mjs', import.meta.url));\n",
      );
    };
    expect(affectedBy(setup, (r) => write(r, 'shared/worker.mjs', 'export const x = 2;\n')).ids).toEqual(
      ids(of('wc', 'node-pipe')),
    );
  });
});

describe('what gcc reads, as the build runs it (compiler, every flag, the folder)', () => {
  const wcFlags = (r: string, flags: string[], libs?: string[]) =>
    editJson(r, 'programs/wc/manifest.json', (m) => {
      variant(m, 'c').build.flags = flags;
      if (libs) variant(m, 'c').build.libs = libs;
    });
  const c = () => ids(of('wc', 'c'));

  it('a header pulled in by -include from outside the folder', () => {
    const setup: Edit = (r) => {
      write(r, 'include/pre.h', '#define PRE 1\n');
      wcFlags(r, ['-O3', '-include', '../../include/pre.h']);
    };
    expect(affectedBy(setup, (r) => write(r, 'include/pre.h', '#define PRE 2\n')).ids).toEqual(c());
  });

  it('a header only -O selects (__OPTIMIZE__)', () => {
    const setup: Edit = (r) => {
      write(r, 'include/opt.h', '#define OPT 1\n');
      prepend(r, 'programs/wc/wc-c.c', '#ifdef __OPTIMIZE__\n#include "../../include/opt.h"\n#endif\n');
    };
    expect(affectedBy(setup, (r) => write(r, 'include/opt.h', '#define OPT 2\n')).ids).toEqual(c());
  });

  it('a header in an -isystem folder (a system header to -MM)', () => {
    const setup: Edit = (r) => {
      write(r, 'sys/wcsys.h', '#define SYS 1\n');
      wcFlags(r, ['-O3', '-isystem', '../../sys']);
      prepend(r, 'programs/wc/wc-c.c', '#include <wcsys.h>\n');
    };
    expect(affectedBy(setup, (r) => write(r, 'sys/wcsys.h', '#define SYS 2\n')).ids).toEqual(c());
  });

  it('an @file response file', () => {
    const setup: Edit = (r) => {
      write(r, 'build/wc.rsp', '-DWC_EXTRA=1\n');
      wcFlags(r, ['-O3', '@../../build/wc.rsp']);
    };
    expect(affectedBy(setup, (r) => write(r, 'build/wc.rsp', '-DWC_EXTRA=2\n')).ids).toEqual(c());
  });

  it('an extra source in build.libs, and a header it includes', () => {
    const setup: Edit = (r) => {
      write(r, 'lib/extra.c', '#include "extra.h"\nint extra(void) { return EXTRA; }\n');
      write(r, 'lib/extra.h', '#define EXTRA 1\n');
      wcFlags(r, ['-O3'], ['../../lib/extra.c']);
    };
    expect(affectedBy(setup, (r) => append(r, 'lib/extra.c', '/* more */\n')).ids).toEqual(c());
    expect(affectedBy(setup, (r) => write(r, 'lib/extra.h', '#define EXTRA 2\n')).ids).toEqual(c());
  });
});

describe("the plan runs no tool of the head's choosing (gcc's allow-list)", () => {
  // A wrapper script and a planted cc1 that would leave a mark if the plan ran them.
  const planted = (r: string, flags: string[]) => {
    const mark = join(r, 'ran');
    // Outside the experiment's folder (every file in it counts for all of its points anyway).
    write(r, 'tools/w.sh', `#!/bin/sh\ntouch ${mark}\nexec "$@"\n`);
    chmodSync(join(r, 'tools/w.sh'), 0o755);
    write(r, 'tools/cc1', `#!/bin/sh\ntouch ${mark}\nexit 1\n`);
    chmodSync(join(r, 'tools/cc1'), 0o755);
    editJson(r, 'programs/wc/manifest.json', (m) => {
      variant(m, 'c').build.flags = flags;
    });
    return mark;
  };
  it.each([[['-O3', '-wrapper', '../../tools/w.sh']], [['-O3', '-B', '../../tools/']], [['-O3', '-B../../tools/']]])(
    // The rest of wc with it: the C source no longer belongs to the C program's own graph alone.
    '%j: never run, and the C program is affected with the flag named',
    (flags) => {
      let mark = '';
      const got = affectedBy(none, (r) => {
        mark = planted(r, flags);
      });
      expect(existsSync(mark)).toBe(false);
      expect(got.ids).toEqual(expect.arrayContaining(ids(of('wc', 'c'))));
      expect(got.ids.every((id) => id.startsWith('wc/'))).toBe(true);
      const reasons = got.reasons.get(ids(of('wc', 'c'))[0]!)!.join(' ');
      expect(reasons).toContain('not one the plan passes to gcc');
    },
  );
});

describe('configuration a runtime discovers on its own', () => {
  const jsPoints = (runtimes: string[]) => (id: string) => runtimeIs(...runtimes).test(id);
  it("bunfig.toml at the root and a .env in programs/: Bun's points only", () => {
    expect(affectedBy(none, (r) => write(r, 'bunfig.toml', 'smol = true\n')).ids).toEqual(ids(jsPoints(['bun'])));
    expect(affectedBy(none, (r) => write(r, 'programs/.env', 'X=1\n')).ids).toEqual(ids(jsPoints(['bun'])));
  });

  it("deno.json: Deno's points only", () => {
    expect(affectedBy(none, (r) => write(r, 'deno.json', '{"nodeModulesDir": "none"}\n')).ids).toEqual(
      ids(jsPoints(['deno'])),
    );
  });

  it('package.json\'s "type": every point a Node, Bun or Deno process runs (generators run under Node); its scripts: none', () => {
    const nodeLike = (id: string) =>
      GENERATED.some((e) => id.startsWith(`${e}/`)) || runtimeIs('node\\d*', 'bun', 'deno').test(id);
    const got = affectedBy(none, (r) => editJson(r, 'package.json', (p) => (p.type = 'commonjs'))).ids;
    expect(got).toEqual(ids(nodeLike));
    expect(got).not.toContain(ids(of('wc', 'c'))[0]);
    expect(affectedBy(none, (r) => editJson(r, 'package.json', (p) => (p.scripts.extra = 'true'))).ids).toEqual([]);
  });

  it('a node_modules vendored below the root', () => {
    const nodeLike = (id: string) =>
      GENERATED.some((e) => id.startsWith(`${e}/`)) || runtimeIs('node\\d*', 'bun', 'deno').test(id);
    expect(affectedBy(none, (r) => write(r, 'programs/node_modules/x/index.js', '1')).ids).toEqual(ids(nodeLike));
  });

  it('a nested lockfile entry the program loads', () => {
    const nested = 'node_modules/through2/node_modules/readable-stream';
    const setup: Edit = (r) =>
      editJson(r, 'package-lock.json', (l) => (l.packages[nested] = { version: '2.3.7', integrity: 'sha512-a' }));
    expect(
      affectedBy(setup, (r) => editJson(r, 'package-lock.json', (l) => (l.packages[nested].version = '2.3.8'))).ids,
    ).toEqual(ids(of('streams', 'through2', 'through2-bundle')));
  });

  it("the bundler's version: the bundled variant only", () => {
    expect(
      affectedBy(none, (r) =>
        editJson(r, 'package-lock.json', (l) => (l.packages['node_modules/esbuild'].version = '0.0.1')),
      ).ids,
    ).toEqual(ids(of('streams', 'through2-bundle')));
  });
});

describe('scripts and files the manifest entry names', () => {
  it('a script the input pipe runs: every point it feeds', () => {
    const setup: Edit = (r) => {
      write(r, 'scripts/feed.sh', 'exec dd if=/dev/zero bs="$1" count="$2" status=none\n');
      editJson(r, 'programs/wc/manifest.json', (m) => (m.input.pipe = 'sh ../../scripts/feed.sh {bs} {count}'));
    };
    expect(affectedBy(setup, (r) => append(r, 'scripts/feed.sh', '# edited\n')).ids).toEqual(ids(inExperiment('wc')));
  });

  it("a file a variant's command names: that variant", () => {
    const setup: Edit = (r) => {
      write(r, 'scripts/args.txt', '1');
      editJson(
        r,
        'programs/wc/manifest.json',
        (m) => (variant(m, 'readsync').command = '{js} {bs} ../../scripts/args.txt'),
      );
    };
    expect(affectedBy(setup, (r) => write(r, 'scripts/args.txt', '2')).ids).toEqual(ids(of('wc', 'readsync')));
  });
});

describe('input generators', () => {
  const setup: Edit = (r) => {
    write(r, 'programs/scan/gen-helper.mjs', 'export const words = 1;\n');
    prepend(r, 'programs/scan/generate.mjs', "import './gen-helper.mjs';\n");
  };

  it("a generator's helper module: every point of its experiment, and the generator's identity (the input's cache key) differs", () => {
    const base = checkout(setup);
    const head = checkout((r) => {
      setup(r);
      append(r, 'programs/scan/gen-helper.mjs', '// edited\n');
    });
    const exp = (root: string) => loadAllExperiments(join(root, 'programs')).find((e) => e.id === 'scan')!;
    forgetMeasuredInputs();
    const [b, h] = [generatorIdentity(exp(base), base), generatorIdentity(exp(head), head)];
    expect(b.ok && h.ok).toBe(true);
    expect(b.ok && h.ok && b.digest !== h.digest).toBe(true);
    expect(affectedBy(setup, (r) => append(r, 'programs/scan/gen-helper.mjs', '// edited\n')).ids).toEqual(
      ids(inExperiment('scan')),
    );
  });

  it('a comment in the generator: every point of its experiment (measured, not set aside)', () => {
    expect(affectedBy(none, (r) => append(r, 'programs/scan/generate.mjs', '\n// a comment\n')).ids).toEqual(
      ids(inExperiment('scan')),
    );
  });

  it("a file only another variant's program imports leaves the rest alone; a stray file in the folder does not", () => {
    expect(affectedBy(none, (r) => append(r, 'programs/scan/scan-c.c', '\n/* edited */\n')).ids).toEqual(
      ids(of('scan', 'c-blocking', 'c-eventloop')),
    );
    expect(affectedBy(none, (r) => write(r, 'programs/scan/NOTES.md', 'x')).ids).toEqual(ids(inExperiment('scan')));
  });
});

describe('trees on disk, not commits', () => {
  it('an untracked file counts like a tracked one, and an identical copy affects nothing', () => {
    expect(affectedBy(none, none).ids).toEqual([]);
    expect(affectedBy(none, (r) => write(r, 'programs/records/scratch.bin', '1')).ids).toEqual(
      ids(inExperiment('records')),
    );
  });
});

describe('file modes', () => {
  it('a script losing or gaining its executable bit: affected, like a change of its bytes', () => {
    const setup: Edit = (r) => write(r, 'programs/wc/helper.sh', 'true\n');
    expect(affectedBy(setup, (r) => chmodSync(join(r, 'programs/wc/helper.sh'), 0o755)).ids).toEqual(
      ids(inExperiment('wc')),
    );
  });
});

describe('files that are not files', () => {
  it('a named pipe in the folder: the identity is unknown (reading it would block), so every point is affected', () => {
    const { ids: changed, head } = affectedBy(none, (r) => {
      execFileSync('mkfifo', [join(r, 'programs/wc/feed')]);
    });
    expect(changed).toEqual(ids(inExperiment('wc')));
    const wc = head.find((p) => p.experiment === 'wc')!.identity;
    expect(wc.ok ? '' : wc.reason).toContain('programs/wc/feed is not a regular file');
  });
});

describe('links are read through', () => {
  // A program reads what a link points to, so the target's bytes count, not only the link's text.
  const linked =
    (target: string, link = 'programs/wc/input.txt'): Edit =>
    (r) => {
      write(r, 'shared/one.txt', 'v1');
      write(r, 'shared/set/a.txt', 'v1');
      symlinkSync(target, join(r, link));
    };

  it('a link in the folder to a file elsewhere in the checkout: its target changing affects the experiment', () => {
    const setup = linked('../../shared/one.txt');
    expect(affectedBy(setup, none).ids).toEqual([]);
    const { ids: changed, reasons } = affectedBy(setup, (r) => write(r, 'shared/one.txt', 'v2'));
    expect(changed).toEqual(ids(inExperiment('wc')));
    expect(reasons.get(changed[0]!)?.join()).toContain('shared/one.txt');
  });

  it('a link to a folder: a file changing in it affects the experiment', () => {
    const setup = linked('../../shared/set');
    expect(affectedBy(setup, none).ids).toEqual([]);
    expect(affectedBy(setup, (r) => write(r, 'shared/set/b.txt', 'new')).ids).toEqual(ids(inExperiment('wc')));
  });

  it('a dangling link whose target appears: affected', () => {
    expect(affectedBy(linked('../../shared/later.txt'), (r) => write(r, 'shared/later.txt', 'x')).ids).toEqual(
      ids(inExperiment('wc')),
    );
  });

  it('a link out of the checkout is the same file for both sides: its text alone counts', () => {
    expect(affectedBy(linked('/etc/hostname'), none).ids).toEqual([]);
  });
});

describe("a profile's limits", () => {
  const smoke = (f: (p: any) => void) => (r: string) =>
    editJson(r, 'programs/wc/manifest.json', (m) => f(m.profiles.smoke));

  it("its timeout (60 s → 0.05 s kills runs that used to finish): every point of that profile's experiment", () => {
    const { ids: changed, reasons } = affectedBy(
      none,
      smoke((p) => {
        p.timeout = 0.05;
      }),
    );
    expect(changed).toEqual(ids(inExperiment('wc')));
    expect(reasons.get(changed[0]!)).toEqual(['changed: run timeout']);
  });

  it("another profile's timeout, and the runs and warm-ups (precision only): none", () => {
    const quick = (r: string) =>
      editJson(r, 'programs/wc/manifest.json', (m) => {
        m.profiles.quick.timeout = 0.05;
      });
    expect(affectedBy(none, quick).ids).toEqual([]);
    expect(
      affectedBy(
        none,
        smoke((p) => {
          p.runs = 7;
          p.warmup = 3;
        }),
      ).ids,
    ).toEqual([]);
  });
});
