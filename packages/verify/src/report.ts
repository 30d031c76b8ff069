import type { Finding } from './types.js';

const ORDER = { contradicted: 0, unobserved: 1, confirmed: 2 } as const;

/**
 * A readable report of findings: contradicted first, then unobserved, then confirmed; each with
 * its spec and pointer, its evidence and the edit that would make the spec true.
 *
 * @example
 * process.stdout.write(formatFindings(findings));
 * // contradicted  common  /components/parameters/Offset/x-upstream-gap
 * //   exposure listLocations: offset=0 was refused; … a one-based page index
 * //   edit: replace /components/parameters/Offset/x-paging = "page"
 */
export function formatFindings(findings: readonly Finding[]): string {
  const sorted = [...findings].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  const counts = (['contradicted', 'unobserved', 'confirmed'] as const)
    .map((status) => `${findings.filter((f) => f.status === status).length} ${status}`)
    .join(', ');
  const lines = [`${findings.length} findings: ${counts}`, ''];
  for (const finding of sorted) {
    lines.push(`${finding.status.padEnd(12)}  ${finding.spec}  ${finding.pointer}`);
    for (const line of finding.evidence.split('\n')) lines.push(`  ${line}`);
    for (const edit of finding.edit ?? []) {
      lines.push(
        `  edit specs/${finding.spec}/openapi.yaml: ${edit.op} ${edit.path} = ${JSON.stringify(edit.value)}`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
