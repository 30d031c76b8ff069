import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests start the built server as a child process; on a loaded 2-core machine one start
  // can take seconds.
  test: { testTimeout: 120_000 },
});
