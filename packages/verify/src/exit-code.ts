import type { Finding } from './types.js';

/**
 * The exit code a scheduler can act on: 1 when a guess is contradicted; else 3 when a check
 * could not observe its guess (each such finding says why: no answer, refused credentials, a
 * proxy that does not answer, an environment that answers the same whatever it is sent); else
 * 0, every check having been observed or skipped for a stated reason. Usage errors are 2.
 *
 * @example
 * const { findings } = await verifyUpstream(options);
 * process.exitCode = exitCodeOf(findings);
 */
export function exitCodeOf(findings: readonly Pick<Finding, 'status'>[]): 0 | 1 | 3 {
  if (findings.some((finding) => finding.status === 'contradicted')) return 1;
  return findings.some((finding) => finding.status === 'unobserved') ? 3 : 0;
}
