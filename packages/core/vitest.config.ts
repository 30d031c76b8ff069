import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests run the sources: `@partner-apis/core/default-send` (package.json `exports`) points
// at the build.
export default defineConfig({
  resolve: {
    alias: {
      '@partner-apis/core/default-send': fileURLToPath(
        new URL('./src/transport/default-send.node.ts', import.meta.url),
      ),
    },
  },
});
