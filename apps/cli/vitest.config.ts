import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The end-to-end tests start the built CLI as a child process, some of them ten times in a
    // row; on a loaded 2-core machine one start can take seconds.
    testTimeout: 120_000,
  },
});
