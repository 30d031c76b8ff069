/**
 * Runs `work` and returns the process warnings emitted meanwhile (`process.emitWarning`, such as
 * Node's `MaxListenersExceededWarning`), including those emitted on the turn after it ends,
 * which is when Node delivers them.
 */
export async function warningsDuring(work: () => Promise<unknown>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}
