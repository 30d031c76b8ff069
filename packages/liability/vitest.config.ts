import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The sandbox compiles a spec's validators on its first requests; on a busy machine (turbo
    // runs every package at once) that alone can take seconds.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // `pnpm test:prism` sets PARTNER_APIS_PRISM: every sandbox is then reached through Prism.
    setupFiles: process.env.PARTNER_APIS_PRISM ? ['@partner-apis/testing/prism-setup'] : [],
  },
  resolve: {
    // The README example imports the package by its public name; tests run it from source.
    alias: { '@partner-apis/liability': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
});
