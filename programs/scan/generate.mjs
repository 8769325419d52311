// scan input: a synthetic JavaScript project of --files files: index.js plus modules under lib/
// that import each other (an acyclic graph, checked with Tarjan's algorithm), with top-level
// constants and functions, named from a word list. One extra module is referenced by nobody,
// so a program that lists the folder instead of following imports gets the wrong counts.
// Counting rules (what every scan program implements, line by line, at column 0 only):
//   "import ... from './x.js';" is an import; "const " / "export const " a constant;
//   "function " / "export function " a function. Indented and commented lines do not count.
// Prints one JSON line of facts: files, imports, constants, functions, bytes, sha256.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const WORDS = ['amber', 'basin', 'cedar', 'delta', 'ember', 'fjord', 'glade', 'harbor', 'island', 'juniper', 'kestrel', 'lagoon', 'meadow', 'nectar', 'orchid', 'prairie', 'quartz', 'river', 'summit', 'thicket', 'upland', 'valley', 'willow', 'yarrow', 'zephyr'];

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Tarjan's strongly connected components. Returns the components with a cycle: more than one
 * node, or one node importing itself. An empty list means the graph is acyclic.
 * graph: Map of node -> nodes it imports.
 */
export function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  let next = 0;
  // Iterative, so a 1500-deep import chain cannot overflow the JavaScript stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc);
      }
    }
  }
  return found;
}

export function assertAcyclic(graph) {
  const bad = cycles(graph);
  if (bad.length) throw new Error(`import cycle: ${bad[0].join(' -> ')}`);
}

/** The project as { files: Map path -> text, graph, counts }, deterministic for a given size. */
export function project(total) {
  if (!Number.isInteger(total) || total < 2) throw new Error(`a project needs at least 2 files (got ${total})`);
  const r = rng(total);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const n = total - 1; // modules besides index.js
  const names = Array.from({ length: n + 1 }, (_, i) => `${pick(WORDS)}-${pick(WORDS)}-${i}.js`); // the last is the orphan
  const graph = new Map([['index.js', []]]);
  const imported = new Set();
  for (let i = 0; i < n; i++) {
    // Only later modules: acyclic by construction, and checked anyway below.
    const deps = new Set();
    const want = Math.floor(r() * 4);
    for (let k = 0; k < want && i + 1 < n; k++) deps.add(i + 1 + Math.floor(r() * Math.min(n - i - 1, 40)));
    graph.set(`lib/${names[i]}`, [...deps].map((j) => `lib/${names[j]}`));
    for (const j of deps) imported.add(j);
  }
  for (let i = 0; i < n; i++) if (!imported.has(i)) graph.get('index.js').push(`lib/${names[i]}`);
  const orphan = `lib/${names[n]}`;
  graph.set(orphan, []);
  assertAcyclic(graph);

  const counts = { files: total, imports: 0, constants: 0, functions: 0 };
  const files = new Map();
  for (const [path, deps] of graph) {
    const lines = [`// ${path}: generated for the scan experiment`];
    for (const d of deps) {
      const spec = path === 'index.js' ? `./${d}` : `./${d.slice(4)}`;
      const id = d.slice(d.lastIndexOf('/') + 1, -3).replace(/-/g, '_');
      lines.push(r() < 0.5 ? `import { ${id} } from '${spec}';` : `import ${id} from '${spec}';`);
    }
    const consts = 1 + Math.floor(r() * 4);
    const fns = Math.floor(r() * 4);
    for (let k = 0; k < consts; k++) lines.push(`${r() < 0.5 ? 'export ' : ''}const ${pick(WORDS)}_${k} = ${Math.floor(r() * 1e6)};`);
    lines.push(`// const commented_out = 1;`);
    for (let k = 0; k < fns; k++) {
      lines.push(`${r() < 0.5 ? 'export ' : ''}function ${pick(WORDS)}${k}(a, b) {`, `  const local = a * ${k + 1};`, `  function inner() { return local; }`, '  return inner() + b;', '}');
    }
    lines.push('');
    files.set(path, lines.join('\n'));
    if (path !== orphan) {
      counts.imports += deps.length;
      counts.constants += consts;
      counts.functions += fns;
    }
  }
  return { files, graph, counts };
}

function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, files: { type: 'string', default: '100' } } });
  const total = Number(values.files);
  if (!values.out || !Number.isInteger(total) || total < 2) {
    process.stderr.write(`usage: generate.mjs --out DIR --files N (N >= 2, got "${values.files}")\n`);
    process.exit(2);
  }
  const { files, counts } = project(total);
  mkdirSync(join(values.out, 'lib'), { recursive: true });
  const hash = createHash('sha256');
  let bytes = 0;
  for (const [path, text] of files) {
    writeFileSync(join(values.out, path), text);
    hash.update(path).update(text);
    bytes += Buffer.byteLength(text);
  }
  process.stdout.write(`${JSON.stringify({ ...counts, bytes, sha256: hash.digest('hex') })}\n`);
}

// Run as a script by the harness; imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
