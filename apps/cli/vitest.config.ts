import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The end-to-end tests start the built CLI as a child process; a loaded machine makes that slow.
    testTimeout: 30_000,
  },
});
