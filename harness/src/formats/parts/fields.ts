/**
 * The field types of results.json that a pull request or a runner could fill with anything: every
 * name-like field gets a strict pattern (no markup, no path tricks), every free-text field a length
 * cap, and every map key refuses the names of Object.prototype's properties (`__proto__`,
 * `constructor`, `valueOf`...): code reads `metrics[name]` from plain objects, where such a key
 * would read an inherited function (a crash in publish) or be dropped silently (`__proto__`).
 * Escaping at the sinks (site, PR comment) stays necessary; these only shrink what can arrive.
 */
import { z } from 'zod';
import { PARAM_NAME_RE, PARAM_VALUE_RE, SEGMENT_RE } from '../../lib/id-patterns.js';
import { DIRECTIONS } from '../../model/metrics.js';

/** Whether a key would collide with an inherited property of a plain object. */
export function isPrototypeKey(key: string): boolean {
  return key in Object.prototype;
}

const notPrototypeKey = (s: string) => !isPrototypeKey(s);
const PROTO_MESSAGE = 'a name of an Object.prototype property (__proto__, constructor, valueOf...) is refused';

/** A plain name that may become a directory or file name: experiment, variant, machine, profile. */
export const Segment = z
  .string()
  .regex(SEGMENT_RE, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters')
  .refine((s) => !s.includes('..'), 'must not contain ".."')
  .refine(notPrototypeKey, PROTO_MESSAGE);

/** A metric, derived value, check field or fit axis name: the same alphabet as a segment. */
export const Name = Segment;

/** A parameter name, as manifests declare them. */
export const ParamName = z
  .string()
  .regex(PARAM_NAME_RE, 'a parameter name ([a-z_][a-z0-9_]*, at most 50 characters)')
  .refine(notPrototypeKey, PROTO_MESSAGE);

/**
 * A parameter value: a finite number or a plain token (it is part of series names and paths).
 * lib/ids.ts's pattern, plus '@' (runtime releases: "bun@1.3.11"), harmless in HTML and paths.
 */
const PARAM_TOKEN_RE = /^[A-Za-z0-9][A-Za-z0-9._+@-]{0,99}$/;
export const ParamValue = z.union([
  z.number().finite(),
  z
    .string()
    .refine(
      (s) => PARAM_VALUE_RE.test(s) || PARAM_TOKEN_RE.test(s),
      "a number or a plain token (letters, digits, '.', '_', '+', '@', '-')",
    )
    .refine((s) => !s.includes('..'), 'must not contain ".."'),
]);

/**
 * A unit as manifests and normalize write them: "s", "MB/s", "ns per line per transform",
 * "µs per transform", "%". Letters, digits, spaces, '/', '%', '.', '_' and '-'; never markup.
 */
const UNIT_RE = /^[A-Za-z0-9µ%][A-Za-z0-9µ% /._-]{0,39}$/;
export const Unit = z.string().regex(UNIT_RE, 'a unit (letters, digits, spaces, "/", "%", ".", "_", "-"; at most 40)');

/** A map key that is free text (a suite's name in github-action-benchmark's data), capped. */
export const FreeKey = z.string().min(1).max(200).refine(notPrototypeKey, PROTO_MESSAGE);

/** A short token: a metric's source, a build's kind, a toolchain's name. */
export const Token = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,49}$/, 'a short token (letters, digits, ".", "_", "@", "+", "-")')
  .refine(notPrototypeKey, PROTO_MESSAGE);

/**
 * Every number a reader takes from a file: finite and far beyond any median, ratio, counter or
 * size a run produces (32 GB piped is 3.2e10 bytes), far below where a chart's or a ratio's
 * arithmetic overflows (values near 1.7e308 draw NaN charts).
 */
const MAX_MAGNITUDE = 1e15;
export const Num = z.number().min(-MAX_MAGNITUDE).max(MAX_MAGNITUDE);
/** A count: a non-negative integer, bounded like every number. */
export const Count = Num.int().nonnegative();

/** A commit id, or "unknown" outside a git checkout. */
export const CommitSha = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64}|unknown)$/, 'a full commit id or "unknown"');

/** A run id such as 20261124T162519Z-19bd67e. */
export const RunId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:+-]{0,99}$/, 'a run id (letters, digits, ".", "_", ":", "+", "-")');

/** A benchmark id: <experiment>/<variant>/<k=v,...>. */
const BENCHMARK_ID = '[A-Za-z0-9._-]{1,100}/[A-Za-z0-9._-]{1,100}/[A-Za-z0-9._+@=,-]{0,400}';
export const BenchmarkId = z.string().regex(new RegExp(`^${BENCHMARK_ID}$`), 'experiment/variant/k=v,...');

/** A calibrated threshold's key: "<benchmark id> <metric>" (noise.json). */
export const NOISE_KEY_RE = new RegExp(`^${BENCHMARK_ID} [A-Za-z0-9][A-Za-z0-9._-]{0,99}$`);
export const NoiseKey = z.string().regex(NOISE_KEY_RE, '"<benchmark id> <metric>"');

/**
 * Free text, capped. The caps are far above anything the harness writes (a commit subject is one
 * line; a command a few hundred characters) and far below what would bloat every visitor's download.
 */
export const TEXT_CAPS = { short: 200, line: 1000, long: 4000 } as const;
export const Text = (cap: keyof typeof TEXT_CAPS) =>
  z.string().max(TEXT_CAPS[cap], `at most ${TEXT_CAPS[cap]} characters`);

/**
 * A map whose keys must pass `key` (which refuses prototype names). `__proto__` needs a look at the
 * raw object first: JSON.parse makes it an own key, but zod's record skips it without a word.
 */
export const SafeRecord = <K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V) =>
  z
    .unknown()
    .superRefine((raw, ctx) => {
      if (raw !== null && typeof raw === 'object' && Object.hasOwn(raw, '__proto__'))
        ctx.addIssue({ code: 'custom', message: PROTO_MESSAGE, path: ['__proto__'] });
    })
    .pipe(z.record(key, value));

/** The schema of model/metrics.ts's Direction (the type is declared there, once). */
export const Direction = z.enum(DIRECTIONS);
