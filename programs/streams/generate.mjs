// Writes names.txt: a deterministic ASCII text shaped like Unicode's NamesList.txt (short lines:
// code points with names, aliases, cross-references, block headers). Same --seed and --lines,
// same bytes. Prints one JSON line of facts: file, bytes, lines, sha256.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { out: { type: 'string' }, lines: { type: 'string', default: '48800' }, seed: { type: 'string', default: '1' } } });
const lines = Number(values.lines);
const seed = Number(values.seed);
if (!values.out || !Number.isInteger(lines) || lines < 1 || !Number.isInteger(seed)) {
  process.stderr.write('usage: generate.mjs --out DIR [--lines N>0] [--seed INT]\n');
  process.exit(2);
}

// mulberry32: tiny, fast, and fully determined by the seed (Math.random is not seedable).
let state = seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const WORDS = ['LATIN', 'CAPITAL', 'SMALL', 'LETTER', 'WITH', 'ACUTE', 'GRAVE', 'DIGIT', 'SIGN', 'MARK', 'ARROW', 'CJK', 'GREEK', 'ARABIC', 'TAMIL', 'VOWEL', 'DOUBLE', 'STROKE', 'HOOK', 'TONE', 'COMBINING', 'SYMBOL', 'BOX', 'LIGHT', 'HIRAGANA', 'MATHEMATICAL', 'IDEOGRAPH', 'MODIFIER', 'A', 'B', 'O'];
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, '0');

const out = [];
let cp = 0x20;
for (let i = 0; i < lines; i++) {
  const r = random();
  if (r < 0.02) out.push(`@@\t${hex(cp)}\t${words(2)}\t${hex(cp + 0x7f)}`);
  else if (r < 0.18) out.push(`\t= ${words(2 + Math.floor(random() * 2)).toLowerCase()}`);
  else if (r < 0.28) out.push(`\tx (${words(2).toLowerCase()} - ${hex(cp + 1 + Math.floor(random() * 64))})`);
  else out.push(`${hex((cp += 1 + Math.floor(random() * 3)))}\t${words(3 + Math.floor(random() * 3))}`);
}
const text = Buffer.from(`${out.join('\n')}\n`, 'latin1');
writeFileSync(join(values.out, 'names.txt'), text);
process.stdout.write(`${JSON.stringify({ file: 'names.txt', bytes: text.length, lines, sha256: createHash('sha256').update(text).digest('hex') })}\n`);
