// Shared by the scan JavaScript programs: the line-by-line counting rules (see generate.mjs)
// and import resolution. Portable JavaScript only.

/** Counts one file's constants and functions and returns the project paths it imports. */
export function scanText(path, text, totals) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const imports = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('import ')) {
      const at = line.indexOf(" from '");
      if (at < 0) continue;
      const spec = line.slice(at + 7, line.indexOf("'", at + 7));
      imports.push(resolveSpec(dir, spec));
      totals.imports++;
    } else if (line.startsWith('const ') || line.startsWith('export const ')) totals.constants++;
    else if (line.startsWith('function ') || line.startsWith('export function ')) totals.functions++;
  }
  return imports;
}

/** './x.js' from 'lib/' -> 'lib/x.js'. The generator writes only './' specifiers. */
function resolveSpec(dir, spec) {
  if (!spec.startsWith('./')) throw new Error(`unsupported import specifier "${spec}"`);
  return dir + spec.slice(2);
}

/**
 * The counts every program prints; each also adds scan_seconds, the walk's own time on its
 * monotonic clock (start-up and module loading left out).
 */
export function newTotals() {
  return { files: 0, imports: 0, constants: 0, functions: 0 };
}

export function usage(name, root) {
  if (!root) throw new Error(`usage: ${name} PROJECT_DIR`);
  return root;
}
