// @ts-check

/**
 * Waits until a child process prints a line matching `pattern` on stdout, and returns it.
 * Rejects when the process exits first or `timeoutMs` passes, with what it printed on stderr.
 *
 * @param {import('node:child_process').ChildProcess} child
 * @param {RegExp} pattern
 * @param {number} timeoutMs
 * @returns {Promise<string>}
 */
export function waitForLine(child, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const finish = (/** @type {() => void} */ settle) => {
      clearTimeout(timer);
      child.stdout?.off('data', onStdout);
      child.stderr?.off('data', onStderr);
      child.off('exit', onExit);
      settle();
    };
    const onStdout = (/** @type {Buffer} */ chunk) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) finish(() => resolve(line));
    };
    const onStderr = (/** @type {Buffer} */ chunk) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
    };
    const onExit = (/** @type {number | null} */ code) =>
      finish(() => reject(new Error(`The process exited with ${code} before ready: ${stderr}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`Not ready after ${timeoutMs} ms: ${stderr}`))),
      timeoutMs,
    );
    child.stdout?.on('data', onStdout);
    child.stderr?.on('data', onStderr);
    child.once('exit', onExit);
  });
}
