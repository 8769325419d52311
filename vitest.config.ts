import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['harness/test/**/*.test.ts', 'gh-pages/test/**/*.test.ts'],
    // Integration tests run real gcc, hyperfine and strace: give them room on 2 cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Real benchmarks must not compete with each other for the two cores.
    fileParallelism: false,
    // A scratch TMPDIR per run, removed at its end (tests make GBs of temporary git worlds).
    globalSetup: ['harness/test/global-setup.ts'],
  },
});
