/**
 * Loads the experiments through the one manifest reader (formats/read-manifests.ts), adding the
 * cross-field checks a schema cannot express (files exist, names resolve).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Experiment, jsRuntimes, type Manifest } from '../formats/manifest-format.js';
import {
  parseManifestText,
  readExperiment,
  readExperiments,
  readExperimentsTolerant,
} from '../formats/read-manifests.js';
import { evaluate, referencedNames, templatePlaceholders } from '../lib/expr.js';
import { PROFILES } from '../model/profiles.js';

export type { Experiment };

/** A syntax error or unknown function in an expression (evaluated with every name bound to 1). */
function syntaxProblem(field: string, expr: string): string | undefined {
  try {
    evaluate(expr, Object.fromEntries(referencedNames(expr).map((n) => [n, 1])));
    return undefined;
  } catch (e) {
    const msg = (e as Error).message;
    const prefix = `expression "${expr}": `;
    return `${field}: ${msg.startsWith(prefix) ? msg.slice(prefix.length) : msg} (got "${expr}")`;
  }
}

/** Cross-field checks the schema cannot express: files exist, names resolve. */
function checkConsistency(_file: string, dir: string, m: Manifest): string[] {
  const problems = [
    ...variantProblems(dir, m),
    ...expressionProblems(m),
    ...sectionProblems(dir, m),
    ...measurementProblems(m),
  ];
  return problems.map((p) => `  ${p}`);
}

/** Each variant: a unique id, its files there, the parameters and checks it names declared. */
function variantProblems(dir: string, m: Manifest): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const [i, v] of m.variants.entries()) {
    if (ids.has(v.id)) problems.push(`variants.${i}.id: duplicate variant id (got "${v.id}")`);
    ids.add(v.id);
    if (v.source && !existsSync(join(dir, v.source)))
      problems.push(`variants.${i}.source: file not found (got "${v.source}")`);
    if (v.build?.kind === 'just-static' && !existsSync(join(dir, v.build.config))) {
      problems.push(`variants.${i}.build.config: file not found (got "${v.build.config}")`);
    }
    for (const k of Object.keys(v.when ?? {})) {
      if (!(k in m.parameters)) problems.push(`variants.${i}.when: unknown parameter (got "${k}")`);
    }
    for (const k of v.ignores) {
      if (!(k in m.parameters)) problems.push(`variants.${i}.ignores: unknown parameter (got "${k}")`);
      else if (k in (v.when ?? {})) problems.push(`variants.${i}.ignores: "${k}" is also in its when selector`);
    }
    for (const field of Object.keys(v.skipChecks)) {
      if (!m.validate.some((c) => c.field === field))
        problems.push(`variants.${i}.skipChecks: no check on field "${field}"`);
    }
  }
  return problems;
}

/** Every expression parses, and in every profile its names and each template's placeholders resolve. */
function expressionProblems(m: Manifest): string[] {
  const problems: string[] = [];
  const params = Object.keys(m.parameters);
  // Expressions: syntax once, names per profile (constants may differ between profiles).
  const expressions: [string, string, 'derive' | 'run' | 'generate'][] = [
    ...Object.entries(m.derive).map(([k, e]): [string, string, 'derive'] => [`derive.${k}`, e, 'derive']),
    ...Object.entries(m.generate?.args ?? {}).map(([k, e]): [string, string, 'generate'] => [
      `generate.args.${k}`,
      e,
      'generate',
    ]),
    ...m.validate.map((c, i): [string, string, 'run'] => {
      const op = c.equals !== undefined ? 'equals' : c.atLeast !== undefined ? 'atLeast' : 'atMost';
      return [`validate.${i}.${op}`, c[op] ?? '', 'run'];
    }),
    ...(m.throughputBytes ? [['throughputBytes', m.throughputBytes, 'run'] as [string, string, 'run']] : []),
    ...Object.entries(m.rates).map(([k, r]): [string, string, 'run'] => [`rates.${k}.per`, r.per, 'run']),
    ...(m.fit?.bytes ? [['fit.bytes', m.fit.bytes, 'run'] as [string, string, 'run']] : []),
    ...(m.fit?.expected ? [['fit.expected', m.fit.expected, 'run'] as [string, string, 'run']] : []),
  ];
  const badSyntax = new Set<string>();
  for (const [field, expr] of expressions) {
    const problem = syntaxProblem(field, expr);
    if (problem) {
      problems.push(problem);
      badSyntax.add(field);
    }
  }
  // Input facts (input_*) exist only once the generator ran: with a generator, any is accepted.
  const isInput = (n: string) => m.generate !== undefined && n.startsWith('input_');
  const perProfile = new Set<string>();
  for (const p of PROFILES) {
    // `scale` is 1 at a point's own size, and each of fit.scales at its smaller sizes.
    const known = new Set([...params, ...Object.keys(m.profiles[p].constants), 'scale']);
    const check = (field: string, expr: string, inputs: boolean) => {
      if (badSyntax.has(field)) return;
      for (const ref of referencedNames(expr)) {
        if (!known.has(ref) && !(inputs && isInput(ref)))
          perProfile.add(`${field}: unknown name "${ref}" in profile ${p} (got "${expr}")`);
      }
    };
    for (const [field, expr, kind] of expressions) {
      if (kind !== 'derive') continue;
      check(field, expr, false);
      known.add(field.slice('derive.'.length));
    }
    for (const [field, expr, kind] of expressions) if (kind !== 'derive') check(field, expr, kind === 'run');
    // Templates see what the runner puts in scope (bench.ts): values, folders, inputs, the
    // variant's source and build output, and its runtime's binary.
    const common = [...known, 'scratch', 'dir'];
    const checkTemplate = (field: string, template: string, extra: readonly string[]) => {
      for (const name of templatePlaceholders(template)) {
        if (!common.includes(name) && !extra.includes(name) && !isInput(name))
          perProfile.add(`${field}: unknown placeholder {${name}} (got "${template}")`);
      }
    };
    if (m.input) checkTemplate('input.pipe', m.input.pipe, []);
    for (const [i, path] of (m.evict?.paths ?? []).entries()) checkTemplate(`evict.paths.${i}`, path, []);
    for (const [i, v] of m.variants.entries()) {
      const runtime = jsRuntimes(v) ? ['js', 'runtime'] : [];
      const extra = [...runtime, ...(v.source ? ['src'] : []), ...(v.build ? ['bin'] : [])];
      for (const name of templatePlaceholders(v.command)) {
        if (v.ignores.includes(name))
          perProfile.add(
            `variants.${i}.command: placeholder {${name}} names a parameter the variant ignores (got "${v.command}")`,
          );
      }
      checkTemplate(`variants.${i}.command`, v.command, extra);
    }
  }
  return [...problems, ...perProfile];
}

/** The generator, eviction, the summary, releases and `at` sections: files exist, names resolve. */
function sectionProblems(dir: string, m: Manifest): string[] {
  const problems: string[] = [];
  const ids = new Set(m.variants.map((v) => v.id));
  if (m.generate && !existsSync(join(dir, m.generate.script)))
    problems.push(`generate.script: file not found (got "${m.generate.script}")`);
  for (const k of Object.keys(m.evict?.when ?? {})) {
    if (!(k in m.parameters)) problems.push(`evict.when: unknown parameter (got "${k}")`);
  }
  for (const [i, a] of (m.summary?.answers ?? []).entries()) {
    for (const k of Object.keys(a.base))
      if (!(k in m.parameters)) problems.push(`summary.answers.${i}.base: unknown parameter (got "${k}")`);
  }
  for (const r of m.summary?.ratios ?? []) {
    if (r.to !== undefined && !ids.has(r.to)) problems.push(`summary.ratios: unknown variant (got "${r.to}")`);
    for (const k of Object.keys(r.at ?? {}))
      if (!(k in m.parameters)) problems.push(`summary.ratios.at: unknown parameter (got "${k}")`);
  }
  for (const [i, v] of [...(m.releases?.variants ?? []), ...(m.releases?.reference ?? [])].entries()) {
    const variant = m.variants.find((x) => x.id === v);
    if (!variant) problems.push(`releases: unknown variant (got "${v}")`);
    else if (i < (m.releases?.variants.length ?? 0) && !jsRuntimes(variant))
      problems.push(`releases.variants: "${v}" runs under no JavaScript runtime, so no release changes it`);
  }
  if (m.releases?.referenceRuns !== undefined && !m.releases.reference.length)
    problems.push('releases.referenceRuns: the suite has no reference variants to time that often');
  for (const section of [m.summary?.at, m.headline.at, m.releases?.at]) {
    for (const k of Object.keys(section ?? {})) {
      if (!(k in m.parameters) && k !== 'runtime') problems.push(`at: unknown parameter (got "${k}")`);
    }
  }
  return problems;
}

/** Checks, rates, the fit, reports, exclusions and analyses: fields reported, the runner suited, parameters declared. */
function measurementProblems(m: Manifest): string[] {
  const problems: string[] = [];
  for (const [i, c] of m.validate.entries()) {
    if (!(c.field in m.reports)) problems.push(`validate.${i}.field: not a reported field (got "${c.field}")`);
    else if (m.reports[c.field]?.samples)
      problems.push(`validate.${i}.field: a samples field cannot be checked (got "${c.field}")`);
    for (const k of Object.keys(c.when ?? {})) {
      if (!(k in m.parameters)) problems.push(`validate.${i}.when: unknown parameter (got "${k}")`);
    }
  }
  for (const [k, r] of Object.entries(m.rates)) {
    if (r.time === undefined) continue;
    if (!(r.time in m.reports)) problems.push(`rates.${k}.time: not a reported field (got "${r.time}")`);
    else if (m.runner !== 'self')
      problems.push(
        `rates.${k}.time: needs "runner": "self", which reads every run's report (got runner "${m.runner}")`,
      );
  }
  if (m.fit) {
    if (!(m.fit.x in m.reports)) problems.push(`fit.x: not a reported field (got "${m.fit.x}")`);
    if (m.runner !== 'hyperfine') problems.push(`fit: needs "runner": "hyperfine" (got runner "${m.runner}")`);
    if (!Object.values(m.derive).some((e) => referencedNames(e).includes('scale')))
      problems.push('fit.scales: no derive expression uses `scale`, so every size would be the same');
  }
  for (const [field, spec] of Object.entries(m.reports)) {
    if (spec.samples && m.runner !== 'self')
      problems.push(`reports.${field}.samples: needs "runner": "self" (got runner "${m.runner}")`);
  }
  for (const [i, sel] of m.exclude.entries()) {
    for (const k of Object.keys(sel))
      if (!(k in m.parameters)) problems.push(`exclude.${i}: unknown parameter (got "${k}")`);
  }
  for (const [i, a] of m.analyses.entries()) {
    const spec = m.parameters[a.x];
    if (!spec) problems.push(`analyses.${i}.x: unknown parameter (got "${a.x}")`);
    else if (PROFILES.some((p) => spec.values[p].some((v) => typeof v !== 'number')))
      problems.push(`analyses.${i}.x: parameter "${a.x}" must have numeric values only`);
    if (a.per && !(a.per.value in m.derive) && !a.per.value.startsWith('input_'))
      problems.push(`analyses.${i}.per.value: not a derived value or input fact (got "${a.per.value}")`);
  }
  return problems;
}

/** A manifest's text, checked as loadExperiment checks it. */
export const parseManifest = (file: string, dir: string, text: string): Manifest =>
  parseManifestText(file, dir, text, checkConsistency);

export const loadExperiment = (dir: string): Experiment => readExperiment(dir, checkConsistency);

/** Every folder under programs/ with a manifest.json is an experiment. */
export const loadAllExperiments = (programsDir: string): Experiment[] => readExperiments(programsDir, checkConsistency);
/** Every experiment this harness can read, and those it cannot (formats/read-manifests.ts). */
export const loadReadableExperiments = (programsDir: string) => readExperimentsTolerant(programsDir, checkConsistency);
