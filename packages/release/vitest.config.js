// @ts-check
import { defineConfig } from 'vitest/config';

// These tests start git, redocly, npm, tsc, a registry and the sandbox as child processes, on a
// CI machine whose two cores turbo shares among many tasks: timings are generous bounds, not
// targets.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
