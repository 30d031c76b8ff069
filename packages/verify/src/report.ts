import type { Finding, FindingStatus } from './types.js';

const ORDER: readonly FindingStatus[] = ['contradicted', 'unobserved', 'confirmed', 'skipped'];

/** Options of `formatFindings`. */
export interface ReportOptions {
  /** The `notes` of `verifyUpstream`, printed under the counts. */
  notes?: readonly string[] | undefined;
  /** Lines are wrapped at spaces to this many columns (a terminal's width); not by default. */
  width?: number | undefined;
}

/** `text` wrapped at spaces to `width` columns, each line after the first indented by `indent`. */
function wrap(text: string, width: number | undefined, indent: string): string[] {
  if (width === undefined || text.length <= width) return [text];
  // The text's own indent starts its first line.
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = line.trim() === '' ? `${line}${word}` : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/**
 * A readable report of findings: contradicted first, then unobserved, confirmed and skipped;
 * each with its spec and pointer, its evidence and the edit that would make the spec true.
 *
 * @example
 * const { findings, notes } = await verifyUpstream(options);
 * process.stdout.write(formatFindings(findings, { notes, width: process.stdout.columns }));
 * // 12 findings: 1 contradicted, 2 unobserved, 9 confirmed, 0 skipped
 * //
 * // contradicted  common  /components/parameters/Offset/x-upstream-gap
 * //   exposure listLocations: offset=0 was refused; … a one-based page index
 * //   edit specs/common/openapi.yaml: replace /components/parameters/Offset/x-paging = "page"
 */
export function formatFindings(findings: readonly Finding[], options: ReportOptions = {}): string {
  const { width } = options;
  const sorted = [...findings].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
  const counts = ORDER.map(
    (status) => `${findings.filter((f) => f.status === status).length} ${status}`,
  ).join(', ');
  const lines = [
    ...wrap(`${findings.length} findings: ${counts}`, width, ''),
    ...(options.notes ?? []).flatMap((note) => wrap(`note: ${note}`, width, '  ')),
    '',
  ];
  for (const finding of sorted) {
    lines.push(
      ...wrap(`${finding.status.padEnd(12)}  ${finding.spec}  ${finding.pointer}`, width, '  '),
    );
    for (const line of finding.evidence.split('\n'))
      lines.push(...wrap(`  ${line}`, width, '    '));
    for (const edit of finding.edit ?? []) {
      const text = `  edit specs/${finding.spec}/openapi.yaml: ${edit.op} ${edit.path} = ${JSON.stringify(edit.value)}`;
      lines.push(...wrap(text, width, '    '));
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
