/**
 * Which of a manifest's gcc flags the plan may hand to gcc when it lists what a C program reads
 * (`gcc -M`). The plan runs on the trusted side before any pull-request code, and the flags come
 * from the pull request's manifest: a flag that names a program, a plugin, a spec file or a tool
 * folder (`-wrapper`, `-B`, `-fplugin=`, `-specs=`, `@file`) would make gcc run the pull request's
 * code there. So only flags that change WHAT is compiled are passed (macros, include folders and
 * files, optimization, code generation, the language standard, warnings); any other flag is
 * refused, and the program's identity is then unknown (its points affected, gcc never run).
 * Pure.
 */

/** Flags whose value may follow as the next word (`-I dir`) or be attached (`-Idir`). */
const WITH_VALUE = ['-D', '-U', '-I', '-iquote', '-isystem', '-idirafter', '-include', '-imacros'] as const;

/** Whole flags and attached forms that change only what is compiled. */
const ALLOWED: readonly RegExp[] = [
  /^-O([0-3sgz]|fast)?$/,
  /^-std=[\w+.-]+$/,
  /^-(ansi|pedantic|pedantic-errors|w|pthread|static|pie|no-pie|rdynamic|s|c)$/,
  /^-g[\w=-]*$/,
  // Warnings, but not -Wl, -Wa, -Wp, (options passed on to the linker, assembler, preprocessor).
  /^-W(?![lap],)[\w=+-]+$/,
  /^-f[\w+.=,:-]+$/,
  /^-m[\w+.=,-]+$/,
  // Libraries and their folders: the link's, which -M ignores.
  /^-[lL][\w+./-]+$/,
];

/** -f flags that load or write something: a plugin, dumps, a self-test's files. */
const F_REFUSED = /^-f(plugin|dump|self-test|callgraph-info|stack-usage|record-gcc-switches)/;

export type ScanFlags = { ok: true; argv: string[] } | { ok: false; flag: string };

/**
 * The flags to run `gcc -M` with, all of them, or the first one refused. A value given as the next
 * word must not itself look like a flag (`-I -wrapper` is refused at the value).
 */
export function gccScanFlags(flags: readonly string[]): ScanFlags {
  const argv: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    const valued = WITH_VALUE.find((p) => f === p || f.startsWith(p));
    if (valued) {
      if (f === valued) {
        const value = flags[i + 1];
        if (value === undefined || value.startsWith('-') || value.startsWith('@')) return { ok: false, flag: f };
        argv.push(f, value);
        i++;
      } else argv.push(f);
      continue;
    }
    if (F_REFUSED.test(f) || !ALLOWED.some((re) => re.test(f))) return { ok: false, flag: f };
    argv.push(f);
  }
  return { ok: true, argv };
}
