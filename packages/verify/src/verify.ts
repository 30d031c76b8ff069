import { checkApprovals } from './approvals.js';
import { checkLiability } from './liability.js';
import { checkPortal } from './portal.js';
import { DOCUMENTS } from './documents.js';
import { createRedactor, redactValue } from './redact.js';
import { Run } from './run.js';
import type { Finding, VerifyOptions, VerifyResult } from './types.js';

/** Findings with the same spec, pointer, status and edit become one, their evidence joined. */
function merge(findings: readonly Finding[]): Finding[] {
  const merged = new Map<string, Finding>();
  for (const finding of findings) {
    const key = JSON.stringify([
      finding.spec,
      finding.pointer,
      finding.status,
      finding.edit ?? null,
    ]);
    const existing = merged.get(key);
    if (existing === undefined) merged.set(key, { ...finding });
    else if (!existing.evidence.split('\n').includes(finding.evidence))
      existing.evidence += `\n${finding.evidence}`;
  }
  return [...merged.values()];
}

/**
 * Checks the guesses of the specs (every `x-upstream-gap` an answer can show) and every answer
 * against the spec, for the services given, with raw HTTP requests: a token, small reads, a
 * search, a few deliberately bad requests, and writes only with `allowWrites` on a test address.
 * Each service's calls are spaced to its tier (the lowest, `bronze`, unless told). No finding
 * holds a credential or a token, in any encoding.
 *
 * @example
 * const { findings } = await verifyUpstream({
 *   exposure: { baseUrl: sb.urls.exposure, tokenUrl: sb.urls.tokenUrl, credentials: sb.credentials.exposure },
 *   approvals: { baseUrl: sb.urls.approvals, credentials: sb.credentials.approvals, employeeNumber: '100234' },
 * });
 * for (const f of findings) console.log(f.status, f.spec, f.pointer);
 */
export async function verifyUpstream(options: VerifyOptions): Promise<VerifyResult> {
  const run = new Run({ ...DOCUMENTS, ...options.documents }, options.signal);
  const secrets = new Set<string>();
  options.signal?.throwIfAborted();
  if (options.exposure) await checkPortal(run, 'exposure', options.exposure, secrets);
  if (options.riskEngineering)
    await checkPortal(run, 'riskengineering', options.riskEngineering, secrets);
  if (options.liability) await checkLiability(run, options.liability, secrets);
  if (options.approvals) await checkApprovals(run, options.approvals, secrets);
  const redact = createRedactor(secrets);
  const findings = merge([...run.findings, ...run.answerFindings()]).map(
    (finding) => redactValue(finding, redact) as Finding,
  );
  return { findings };
}
