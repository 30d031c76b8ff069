import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Each test bundles specs and compiles validators: seconds on a busy 2-core machine.
  test: { testTimeout: 60_000 },
});
