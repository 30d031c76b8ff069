const MISSING = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);

/**
 * Imports a workspace package that may not exist yet in this checkout, or is not built. Resolves
 * to the module, or to a sentence saying it is not available, so a scenario can skip the rows
 * that need it instead of failing.
 *
 * @example
 * const core = await loadOptional<CoreModule>('@partner-apis/core');
 * if (typeof core === 'string') notes.push(core);
 */
export async function loadOptional<Module>(specifier: string): Promise<Module | string> {
  try {
    return (await import(specifier)) as Module;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && MISSING.has(code)) {
      return `${specifier} is not available in this checkout (not installed or not built)`;
    }
    throw error;
  }
}
