// scan-just-sync: walk the project from index.js, following imports, reading each file whole with
// just.fs.readFile (open, fstat, read(2) into one buffer of the file's size) in a depth-first loop
// with a Set of visited paths: scan-node-sync on just(js). Prints {files, imports, constants, functions}.
// Usage: just scan-just-sync.js PROJECT_DIR
//
// The counting rules are those of scan-common.js (see generate.mjs), repeated here: just(js)
// runs scripts, not ES modules, and its module loader resolves imports against the working
// directory, so the shared ES module cannot be imported as it is.
const root = just.args[2]
if (!root) {
  just.error('usage: just scan-just-sync.js PROJECT_DIR')
  just.exit(2)
}

const totals = { files: 0, imports: 0, constants: 0, functions: 0 }
// just.hrtime() is nanoseconds on a monotonic clock (a Number in this build, a BigInt in some): both subtract.
const started = just.hrtime()

/** Counts one file's constants and functions and returns the project paths it imports. */
function scanText (path, text) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : ''
  const imports = []
  for (const line of text.split('\n')) {
    if (line.startsWith('import ')) {
      const at = line.indexOf(" from '")
      if (at < 0) continue
      const spec = line.slice(at + 7, line.indexOf("'", at + 7))
      if (!spec.startsWith('./')) throw new Error(`unsupported import specifier "${spec}"`)
      imports.push(dir + spec.slice(2))
      totals.imports++
    } else if (line.startsWith('const ') || line.startsWith('export const ')) totals.constants++
    else if (line.startsWith('function ') || line.startsWith('export function ')) totals.functions++
  }
  return imports
}

try {
  const seen = new Set(['index.js'])
  const todo = ['index.js']
  while (todo.length) {
    const path = todo.pop()
    totals.files++
    for (const dep of scanText(path, just.fs.readFile(`${root}/${path}`))) {
      if (!seen.has(dep)) {
        seen.add(dep)
        todo.push(dep)
      }
    }
  }
} catch (err) {
  // A script that throws exits 0 in just(js) 0.1.13: report and fail explicitly.
  just.error(`scan-just-sync: ${err.message}`)
  just.exit(1)
}
totals.scan_seconds = Number(just.hrtime() - started) / 1e9
just.print(JSON.stringify(totals))
