// A vitest setup file: with PARTNER_APIS_PRISM set, every sandbox a test starts is reached
// through Stoplight Prism, one validation proxy per spec the variable names.
import { vi } from 'vitest';
import { prismSpecsFromEnv, withPrism, type PrismableSandbox } from './prism.js';

type StartSandbox = (...args: unknown[]) => Promise<PrismableSandbox>;

vi.mock('@partner-apis/sandbox', async (importOriginal) => {
  const original = await importOriginal<{ startSandbox: StartSandbox }>();
  const specs = prismSpecsFromEnv();
  if (specs.length === 0) return original;
  return {
    ...original,
    startSandbox: async (...args: unknown[]) =>
      withPrism(await original.startSandbox(...args), specs),
  };
});
