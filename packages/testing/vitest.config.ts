import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Prism and the sandbox start and compile their validators in these tests; on a busy
    // machine (turbo runs every package at once) that alone can take many seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
