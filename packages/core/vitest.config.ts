import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests run the sources: `#default-send` (package.json `imports`) points at the build.
export default defineConfig({
  resolve: {
    alias: {
      '#default-send': fileURLToPath(
        new URL('./src/transport/default-send.node.ts', import.meta.url),
      ),
    },
  },
});
