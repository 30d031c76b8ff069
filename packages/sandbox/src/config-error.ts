/**
 * Bad sandbox configuration: an option, a fault plan or an admin request that cannot be used.
 * The message names the option.
 *
 * @example
 * try {
 *   await startSandbox({ port: -1 });
 * } catch (error) {
 *   if (error instanceof SandboxConfigError) console.error(error.message); // "port must be …"
 * }
 */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
}
