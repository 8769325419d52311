/**
 * Builds the static trend site: gh-pages/ bundled with esbuild, plus a copy of the store under
 * data/. The output is plain files that work from any static host, under any sub-path.
 */

import {
  constants,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { Overview } from '../formats/manifest-format.js';
import { MARKS_FILE, MARKS_SCHEMA } from '../formats/marks-format.js';
import { uncalibrated } from '../formats/noise-format.js';
import { paths, RELEASES_DIR } from '../formats/parts/store-layout.js';
import { readExperiments } from '../formats/read-manifests.js';
import { CatalogFile, CommitsFile, ShardFile } from '../formats/trend-store-format.js';
import { probe } from '../lib/exec.js';
import { isSegment } from '../lib/ids.js';
import { checkStore } from '../store/check.js';
import { readNoiseFile } from '../store/noise-thresholds.js';
import { regressionsFile } from '../store/regression-scan.js';
import { readStoreFile } from '../store/store-files.js';
import { settleAppFiles } from './app-files.js';
import { bundleApp, bundlePreloader } from './bundle.js';
import { indexPage } from './index-page.js';
import { writeNewestPairs } from './newest-pair.js';
import { replaceSite } from './output-dir.js';
import { preloadPlan } from './preload-build.js';

/** A file of the store copy, validated as every store reader does (undefined when absent). */
const readIf = <T>(data: string, file: string, schema: z.ZodType<T>): T | undefined =>
  readStoreFile(data, join(data, file), schema);

/**
 * trends/<profile>/regressions.json for every machine and profile of a store copy: the change
 * points of every series, newest first (the Regressions view, and tools).
 */
function writeRegressions(data: string): number {
  let files = 0;
  for (const entry of existsSync(data) ? readdirSync(data, { withFileTypes: true }) : []) {
    const machine = entry.name;
    const trends = join(data, machine, 'trends');
    if (!entry.isDirectory() || !existsSync(trends)) continue;
    const noiseFile = join(data, paths.noise(machine));
    const noise = existsSync(noiseFile) ? readNoiseFile(noiseFile).thresholds : {};
    for (const profile of readdirSync(trends)) {
      const catalog = readIf(data, paths.catalog(machine, profile), CatalogFile);
      if (!catalog) continue;
      const commits = catalog.windows.flatMap(
        (w) => readIf(data, paths.commits(machine, profile, w.id), CommitsFile) ?? [],
      );
      const file = regressionsFile({
        machine,
        catalog,
        commits,
        noise,
        shard: (w, e, m) => readIf(data, paths.shard(machine, profile, w, e, m), ShardFile),
      });
      writeFileSync(join(data, paths.regressions(machine, profile)), `${JSON.stringify(file)}\n`);
      files++;
    }
  }
  return files;
}

/** Where commit links point: the GitHub repository of the workflow, or this clone's origin. */
function repoUrl(root: string): string | undefined {
  if (process.env.GITHUB_REPOSITORY)
    return `${process.env.GITHUB_SERVER_URL ?? 'https://github.com'}/${process.env.GITHUB_REPOSITORY}`;
  const origin = probe(['git', '-C', root, 'remote', 'get-url', 'origin']);
  const m = origin && /github\.com[:/](.+?)(\.git)?$/.exec(origin);
  return m ? `https://github.com/${m[1]}` : undefined;
}

/**
 * Each experiment's Overview picture and metric labels (manifest `overview`, `labels`; the site
 * shows "cost per read", not `read_cost`), read as `npm run bench` reads the manifests: the site
 * draws stored runs, old ones too, the way the current manifests say.
 */
function manifestConfig(root: string): {
  overview: Record<string, Overview>;
  labels: Record<string, Record<string, string>>;
} {
  const overview: Record<string, Overview> = {};
  const labels: Record<string, Record<string, string>> = {};
  for (const { id, manifest } of readExperiments(join(root, 'programs'))) {
    if (manifest.overview !== undefined) overview[id] = manifest.overview;
    labels[id] = manifest.labels;
  }
  return { overview, labels };
}

const copied = (src: string) => {
  const st = lstatSync(src);
  return !src.endsWith('.lock') && (st.isDirectory() || st.isFile());
};

/**
 * In place (for the gh-pages checkout): write the app files only; the store already lives in
 * outDir/data and other files (github-action-benchmark's dev/bench) are left alone.
 */
/**
 * A check of the data a feature room owns, run on the site's copy before the page reads it (the
 * releases part: releases/release-site-copy.ts). The CLI passes them: shared floors import no room.
 */
export type DataCheck = (data: string, warn: (line: string) => void) => unknown;

export interface BuildOptions {
  inPlace?: boolean;
  dataChecks?: readonly DataCheck[];
}

export async function buildSite(
  root: string,
  storeDir: string,
  outDir: string,
  opts: BuildOptions = {},
): Promise<string> {
  // A corrupt store is named before anything is built (not a SyntaxError from the copy).
  checkStore(storeDir);
  if (opts.inPlace) await buildInto(root, storeDir, outDir, true, opts);
  else await replaceSite(outDir, storeDir, (dir) => buildInto(root, storeDir, dir, false, opts));
  return join(outDir, 'index.html');
}

async function buildInto(
  root: string,
  storeDir: string,
  outDir: string,
  inPlace: boolean,
  opts: BuildOptions,
): Promise<void> {
  const src = join(root, 'gh-pages');
  mkdirSync(outDir, { recursive: true });
  const bundle = await bundleApp(src);
  if (!inPlace) {
    mkdirSync(join(outDir, 'data'), { recursive: true });
    if (existsSync(storeDir))
      // Only folders and regular files: a symlink in a store would put what it points to in the site.
      cpSync(storeDir, join(outDir, 'data'), { recursive: true, filter: copied });
  }
  const warn = (line: string) => process.stderr.write(`site: ${line}\n`);
  for (const check of opts.dataChecks ?? []) check(join(outDir, 'data'), warn);
  // Uncalibrated machines get a valid file saying so (rounds 0), so the page never requests a
  // missing one and compare --noise-store reads it like any other; machines without trend marks
  // get an empty marks file for the same reason.
  const data = join(outDir, 'data');
  for (const entry of existsSync(data) ? readdirSync(data, { withFileTypes: true }) : []) {
    if (!entry.isDirectory() || entry.name === RELEASES_DIR) continue;
    const noise = join(data, entry.name, 'noise.json');
    if (!existsSync(noise)) writeFileSync(noise, `${JSON.stringify(uncalibrated(entry.name))}\n`);
    const marks = join(data, entry.name, MARKS_FILE);
    if (!existsSync(marks)) writeFileSync(marks, `${JSON.stringify({ schema: MARKS_SCHEMA, commits: {} })}\n`);
  }
  writeRegressions(data);
  writeNewestPairs(data);
  const config = JSON.stringify({ repoUrl: repoUrl(root), ...manifestConfig(root), releases: releaseFiles(data) });
  writeFileSync(join(outDir, 'config.json'), config);
  const page = indexPage(readFileSync(join(src, 'index.html'), 'utf8'), {
    css: readFileSync(join(src, 'style.css'), 'utf8') + bundle.css,
    config,
    plan: preloadPlan(data),
    preloader: await bundlePreloader(src),
    app: bundle.js,
  });
  writeFileSync(join(outDir, 'index.html'), page);
  if (inPlace) settleAppFiles(outDir, ['index.html', 'config.json'], warn);
}

/**
 * Which release files each machine has (releases/<machine>/index.json, changes.json): the
 * Runtimes view asks only for files that exist, so an empty store costs no failed request.
 */
function releaseFiles(data: string): Record<string, { index: boolean; changes: boolean }> {
  const dir = join(data, RELEASES_DIR);
  const out: Record<string, { index: boolean; changes: boolean }> = {};
  for (const e of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
    if (!e.isDirectory() || !isSegment(e.name)) continue;
    const has = (f: string) => existsSync(join(dir, e.name, f));
    out[e.name] = { index: has('index.json'), changes: has('changes.json') };
  }
  return out;
}

/** A regular file's bytes, opened without following a final symlink. */
async function readNoFollow(file: string): Promise<Buffer> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!(await fh.stat()).isFile()) throw new Error(`${file}: not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
};

/**
 * The file a request path names inside `base`, or the HTTP status refusing it: decoded first
 * (`..%2f` is `../`), then resolved and required inside the site; a symlink anywhere on the way
 * is refused rather than followed (a store copied into a site is data others shaped).
 */
function siteFile(base: string, urlPath: string): string | number {
  let path: string;
  try {
    path = decodeURIComponent(new URL(urlPath, 'http://x').pathname);
  } catch {
    return 400;
  }
  const file = resolve(base, `.${sep}${path.endsWith('/') ? `${path}index.html` : path}`);
  const rel = relative(base, file);
  if (path.includes('\0') || rel.startsWith('..') || isAbsolute(rel)) return 403;
  let cur = base;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    try {
      if (lstatSync(cur).isSymbolicLink()) return 403;
    } catch {
      return 404;
    }
  }
  return file;
}

/** The types GitHub Pages compresses: every text file the site has. */
const COMPRESSED = /^(text\/|application\/(json|javascript))/;

/** Serves a built site on 127.0.0.1 (port 0 = any free port); resolves with the URL. */
export function serveSite(dir: string, port = 0): Promise<{ url: string; close: () => void }> {
  const base = realpathSync(resolve(dir));
  // Each file compressed once while its bytes stay the same, as a CDN keeps it: site:perf times
  // the page, and compressing it on every request put this server's CPU (on the same cores as the
  // browser) into every first chart.
  const compressed = new Map<string, { body: Buffer; gz: Buffer }>();
  const gzipOnce = (file: string, body: Buffer) => {
    const known = compressed.get(file);
    if (known?.body.equals(body)) return known.gz;
    const gz = gzipSync(body);
    compressed.set(file, { body, gz });
    return gz;
  };
  const server = createServer((req, res) => {
    const file = siteFile(base, req.url ?? '/');
    if (typeof file === 'number') {
      res.writeHead(file).end();
      return;
    }
    readNoFollow(file).then(
      (body) => {
        const type = TYPES[extname(file)] ?? 'application/octet-stream';
        // Compressed like GitHub Pages serves the site (gzip for text), so site:perf counts the
        // bytes a visitor downloads; a client that does not ask for gzip gets the file as is.
        const gzip = COMPRESSED.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
        const headers = { 'content-type': type, vary: 'accept-encoding' };
        if (gzip) res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipOnce(file, body));
        else res.writeHead(200, headers).end(body);
      },
      () => res.writeHead(404).end('not found'),
    );
  });
  return new Promise((ok) => {
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      const p = typeof addr === 'object' && addr ? addr.port : port;
      ok({ url: `http://127.0.0.1:${p}/`, close: () => server.close() });
    });
  });
}
