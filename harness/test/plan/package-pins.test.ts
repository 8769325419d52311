// Packages pinned by a checkout's lockfile: the package and its dependencies by version and
// integrity; a package the lockfile lacks is an error the caller fails closed on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addPackagePins, packageName, UnpinnedPackage } from '../../src/plan/package-pins.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-package-pins-'));
afterAll(() => removeScratch(dir));
writeFileSync(
  join(dir, 'package-lock.json'),
  JSON.stringify({
    packages: {
      'node_modules/through2': {
        version: '2.0.5',
        integrity: 'sha512-t2',
        dependencies: { 'readable-stream': '~2.3.6' },
      },
      'node_modules/readable-stream': { version: '2.3.8', integrity: 'sha512-rs' },
    },
  }),
);

describe('addPackagePins', () => {
  it('pins a package and what it depends on', () => {
    const pins: Record<string, string> = {};
    addPackagePins(['through2'], dir, pins);
    expect(pins).toEqual({ 'package through2': '2.0.5 sha512-t2', 'package readable-stream': '2.3.8 sha512-rs' });
  });

  it('refuses a package the lockfile does not pin, and a missing lockfile when a package is imported', () => {
    expect(() => addPackagePins(['left-pad'], dir, {})).toThrow(UnpinnedPackage);
    const bare = mkdtempSync(join(dir, 'bare-'));
    expect(() => addPackagePins(['through2'], bare, {})).toThrow(/package-lock.json is missing/);
    // Nothing imported: nothing to pin, with or without a lockfile.
    const none: Record<string, string> = {};
    addPackagePins([], bare, none);
    expect(none).toEqual({});
  });

  it('names the package of a specifier', () => {
    expect(packageName('through2')).toBe('through2');
    expect(packageName('@scope/pkg/sub/path.js')).toBe('@scope/pkg');
    expect(packageName('yaml/util')).toBe('yaml');
  });
});
