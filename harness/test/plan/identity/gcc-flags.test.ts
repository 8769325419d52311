// The plan's gcc allow-list: flags that change what is compiled pass, flags that would make gcc
// run or load something of the pull request's are refused (by the first one).
import { describe, expect, it } from 'vitest';
import { gccScanFlags } from '../../../src/plan/identity/gcc-flags.js';

describe('gccScanFlags', () => {
  it('passes the flags that change what is compiled, values attached or as the next word', () => {
    const flags = [
      '-O3',
      '-Wall',
      '-std=c11',
      '-DX=1',
      '-U',
      'Y',
      '-I',
      'inc',
      '-include',
      'pre.h',
      '-isystem',
      '../sys',
    ];
    const more = ['-fno-strict-aliasing', '-march=x86-64-v2', '-g', '-pthread', '-lm', '-Llib', '-imacros', 'm.h'];
    expect(gccScanFlags([...flags, ...more])).toEqual({ ok: true, argv: [...flags, ...more] });
  });

  it.each([
    [['-wrapper', './w.sh'], '-wrapper'],
    [['-O2', '-B', 'tools/'], '-B'],
    [['-Btools/'], '-Btools/'],
    [['-fplugin=./p.so'], '-fplugin=./p.so'],
    [['-specs=./s.specs'], '-specs=./s.specs'],
    [['@flags.rsp'], '@flags.rsp'],
    [['-Wp,-MD,out.d'], '-Wp,-MD,out.d'],
    [['-Wl,--wrap=read'], '-Wl,--wrap=read'],
    [['-Xpreprocessor', '-x'], '-Xpreprocessor'],
    [['--sysroot=/tmp/x'], '--sysroot=/tmp/x'],
    [['-iplugindir=./p'], '-iplugindir=./p'],
    [['-o', 'out'], '-o'],
    [['-MD'], '-MD'],
    [['-save-temps'], '-save-temps'],
    [['-fdump-tree-all'], '-fdump-tree-all'],
    [['-I', '-wrapper'], '-I'],
    [['-include'], '-include'],
  ])('refuses %j (at %s)', (flags, at) => {
    expect(gccScanFlags(flags)).toEqual({ ok: false, flag: at });
  });
});
