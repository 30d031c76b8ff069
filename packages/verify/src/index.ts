/**
 * First contact with an environment of the partner platform: which guesses of the specs hold.
 *
 * @example
 * import { formatFindings, verifyUpstream, writeSpecEdits } from '@partner-apis/verify';
 *
 * const { findings, notes } = await verifyUpstream({ exposure: { baseUrl, tokenUrl, credentials } });
 * process.stdout.write(formatFindings(findings, { notes }));
 * await writeSpecEdits('specs', findings);
 */
export { verifyUpstream } from './verify.js';
export { exitCodeOf } from './exit-code.js';
export { formatFindings } from './report.js';
export { formatJunit } from './junit.js';
export { formatSarif } from './sarif.js';
export type { SpecFile } from './sarif.js';
export type { ReportOptions } from './report.js';
export { applySpecEdits, writeSpecEdits } from './spec-edits.js';
export { isTestAddress } from './liability.js';
export type {
  ApprovalsTarget,
  ClientCredentials,
  Expectation,
  Finding,
  FindingStatus,
  LiabilityTarget,
  Pace,
  PortalCredentials,
  PortalTarget,
  SpecEdit,
  SpecName,
  VerifyOptions,
  VerifyResult,
} from './types.js';
