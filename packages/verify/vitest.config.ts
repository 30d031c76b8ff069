import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each run compiles the specs' validators and walks several sandboxes and stand-ins; on a
    // busy machine that alone can take seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
  resolve: {
    // The README example imports the package by its public name; tests run it from source.
    alias: { '@partner-apis/verify': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
});
