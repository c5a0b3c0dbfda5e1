import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'common/**/*.test.ts',
      'main/**/*.test.ts',
      'renderer/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    setupFiles: ['fake-indexeddb/auto'],
    globalSetup: ['scripts/vitest-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here: model tests pin their own threads; keep files from fighting over them.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
