import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Every test talks HTTP to a sandbox that validates each response against the spec; a busy
  // CI machine needs more than the default 5 s for a full listing.
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // `pnpm test:prism` sets PARTNER_APIS_PRISM: every sandbox is then reached through Prism.
    setupFiles: process.env.PARTNER_APIS_PRISM ? ['@partner-apis/testing/prism-setup'] : [],
  },
  resolve: {
    // The README example imports the package by its public name; tests run it from source.
    alias: {
      '@partner-apis/riskengineering': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
});
