import { defineConfig } from 'vitest/config';

// Each test starts a runtime (and workerd a bundle) as a child process on a CI machine whose two
// cores turbo shares among many tasks: timeouts are generous bounds, not targets.
export default defineConfig({
  test: {
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
