/** The flags that choose what to measure, shared by every command that measures (bench, pairs, calibrate). */
import { UserError } from '../lib/errors.js';
import { isProfile, PROFILES, type Profile } from '../model/profiles.js';
import type { Filters } from '../plan/plan.js';
import { list, parseParamFlags } from './args.js';
import type { OptionSpec } from './options.js';

export const SELECTION_OPTIONS = {
  // JSIO_PROFILE changes the default (the docs' command test runs them at smoke size).
  profile: {
    type: 'string',
    default: process.env.JSIO_PROFILE ?? 'quick',
    value: 'P',
    description: `workload size: ${PROFILES.join(', ')}`,
  },
  experiments: { type: 'string', value: 'a,b', description: 'only these experiments (default: all)' },
  variants: { type: 'string', value: 'x,y', description: 'only these variants (default: all)' },
  param: {
    type: 'string',
    multiple: true,
    default: [],
    value: 'name=v1,v2',
    description: "a parameter's values instead of the profile's (once per name; checked against the manifest)",
  },
  require: {
    type: 'string',
    multiple: true,
    default: [],
    value: 'just,...',
    description: 'runtimes (or counts: valgrind) whose absence is an error instead of a skip',
  },
} as const satisfies Record<string, OptionSpec>;

export interface SelectionValues {
  profile: string;
  experiments?: string | undefined;
  variants?: string | undefined;
  param: string[];
  require: string[];
}

/** A --profile value, checked: the one place an unknown profile is refused. */
export function profileFlag(value: string): Profile {
  if (!isProfile(value))
    throw new UserError(`--profile ${value}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  return value;
}

/** The profile, filters and required runtimes, checked. */
export function selectionOf(values: SelectionValues): { profile: Profile; filters: Filters; require: string[] } {
  return {
    profile: profileFlag(values.profile),
    filters: {
      ...(list(values.experiments) ? { experiments: list(values.experiments) } : {}),
      ...(list(values.variants) ? { variants: list(values.variants) } : {}),
      params: parseParamFlags(values.param),
    },
    require: values.require.flatMap((r) => list(r) ?? []),
  };
}
