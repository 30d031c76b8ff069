import { checkApprovals } from './approvals.js';
import { checkLiability } from './liability.js';
import { checkPortal } from './portal.js';
import { DOCUMENTS } from './documents.js';
import { createRedactor, redactValue } from './redact.js';
import { Run } from './run.js';
import type { Finding, SpecEdit, VerifyOptions, VerifyResult } from './types.js';

const PRECEDENCE = ['contradicted', 'confirmed', 'unobserved', 'skipped'] as const;

/**
 * One finding per spec and pointer, however many checks observed it: contradicted if any
 * check contradicts it (with the edits of each, one per path), else confirmed if any confirms
 * it, else unobserved, else skipped; the evidence of each check a line of its own.
 */
function merge(findings: readonly Finding[]): Finding[] {
  const merged = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.spec} ${finding.pointer}`;
    merged.set(key, [...(merged.get(key) ?? []), finding]);
  }
  return [...merged.values()].map((group) => {
    const status = PRECEDENCE.find((s) => group.some((f) => f.status === s))!;
    const evidence = [...new Set(group.flatMap((f) => f.evidence.split('\n')))].join('\n');
    const edits = new Map<string, SpecEdit>();
    for (const edit of group.filter((f) => f.status === status).flatMap((f) => f.edit ?? []))
      if (!edits.has(edit.path)) edits.set(edit.path, edit);
    const [{ spec, pointer, expects }] = group as [Finding];
    return edits.size === 0
      ? { spec, pointer, status, expects, evidence }
      : { spec, pointer, status, expects, evidence, edit: [...edits.values()] };
  });
}

/**
 * Checks the guesses of the specs (every `x-upstream-gap` an answer can show) and every answer
 * against the spec, for the services given: a token, small reads, a search, a few deliberately
 * bad requests, and writes only with `allowWrites` on a test address. The requests are built by
 * hand (so no guess of a client can hide a finding) and sent through the SDK's client pipeline
 * (`agent`, `fetch`, timeouts, retries, typed causes), each service's at its tier (the lowest,
 * `bronze`, unless told). A service that answers alike what it should tell apart (a mocking
 * service) is named in `notes`, and nothing it could not tell apart is confirmed. No finding
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
  const run = new Run({ ...DOCUMENTS, ...options.documents }, options);
  const secrets = new Set<string>();
  options.signal?.throwIfAborted();
  if (options.exposure) await checkPortal(run, 'exposure', options.exposure, secrets);
  if (options.riskEngineering)
    await checkPortal(run, 'riskengineering', options.riskEngineering, secrets);
  if (options.liability) await checkLiability(run, options.liability, secrets);
  if (options.approvals) await checkApprovals(run, options.approvals, secrets);
  const redact = createRedactor(secrets);
  const findings = merge(run.results()).map((finding) => redactValue(finding, redact) as Finding);
  return { findings, notes: run.notes.map(redact) };
}
