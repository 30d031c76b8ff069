import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The README example imports the package by its public name; tests run it from source.
    alias: {
      '@partner-apis/riskengineering': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
});
