/**
 * `--param` values checked against what each chosen experiment's manifest declares (model/
 * formats/parts/parameter.ts `accepts`) before anything is planned: a value no program could run with is
 * refused with one line naming the parameter, the value and what is allowed. The `runtime`
 * parameter is not declared by manifests: plan.ts checks it against the runtimes variants run under.
 */

import type { Experiment } from '../formats/manifest-format.js';
import { type ParamValue, rejectValue } from '../formats/parts/parameter.js';
import { UserError } from '../lib/errors.js';

export function checkParamValues(chosen: readonly Experiment[], params: Record<string, readonly ParamValue[]>): void {
  for (const [name, values] of Object.entries(params)) {
    if (name === 'runtime') continue;
    for (const exp of chosen) {
      const spec = exp.manifest.parameters[name];
      if (!spec) continue;
      for (const v of values) {
        const why = rejectValue(spec, v);
        if (why)
          throw new UserError(
            `--param ${name}=${v}: ${exp.id}'s ${name} must be ${why}`,
            `declared in ${exp.manifestPath} (parameters.${name}.accepts)`,
          );
      }
    }
  }
}
