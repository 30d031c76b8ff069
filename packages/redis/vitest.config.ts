import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each test file starts its own redis-server; on a busy machine that can take seconds.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The fault test runs up to 16 processes; files side by side would starve each other's timing.
    fileParallelism: false,
  },
  resolve: {
    // The README example imports the package by its public name; tests run it from source.
    alias: { '@partner-apis/redis': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
});
