import type { Finding, SpecName } from './types.js';

/** Text as XML 1.0 can hold it, escaped for an attribute or an element. */
function xml(text: string): string {
  return (
    text
      // Control characters other than tab and line breaks are not allowed in XML 1.0 at all.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
  );
}

/** The body of a test case: what the check expects, what was seen, and the edits. */
function details(finding: Finding): string {
  return [
    `confirmed by: ${finding.expects.confirm}`,
    `contradicted by: ${finding.expects.contradict}`,
    ...finding.evidence.split('\n'),
    ...(finding.edit ?? []).map(
      (edit) =>
        `edit specs/${finding.spec}/openapi.yaml: ${edit.op} ${edit.path} = ${JSON.stringify(edit.value)}`,
    ),
  ].join('\n');
}

function testCase(finding: Finding): string {
  const head = `    <testcase classname="specs/${finding.spec}/openapi.yaml" name="${xml(finding.pointer)}">`;
  const first = xml(finding.evidence.split('\n')[0] ?? '');
  const body = xml(details(finding));
  switch (finding.status) {
    case 'contradicted':
      return `${head}\n      <failure message="${first}" type="contradicted">${body}</failure>\n    </testcase>`;
    case 'unobserved':
      return `${head}\n      <error message="${first}" type="unobserved">${body}</error>\n    </testcase>`;
    case 'skipped':
      return `${head}\n      <skipped message="${first}"/>\n      <system-out>${body}</system-out>\n    </testcase>`;
    default:
      return `${head}\n      <system-out>${body}</system-out>\n    </testcase>`;
  }
}

function counts(findings: readonly Finding[]): string {
  const count = (status: string) => findings.filter((f) => f.status === status).length;
  return `tests="${findings.length}" failures="${count('contradicted')}" errors="${count('unobserved')}" skipped="${count('skipped')}"`;
}

/**
 * The findings as a JUnit XML report, for a CI server's test view: one test suite per spec, one
 * test case per check (its class the spec file, its name the JSON Pointer of the guess), a
 * `<failure>` for a contradicted guess, an `<error>` for one that could not be observed, and
 * `<skipped>` with the reason for one not run. Each case says what would confirm and what would
 * contradict its guess, what was seen, and the edits; `notes` go in the report's properties.
 *
 * @example
 * const { findings, notes } = await verifyUpstream(options);
 * await writeFile('verify.junit.xml', formatJunit(findings, { notes }));
 */
export function formatJunit(
  findings: readonly Finding[],
  options: { notes?: readonly string[] | undefined } = {},
): string {
  const specs = [...new Set(findings.map((f) => f.spec))] as SpecName[];
  // What the environment as a whole showed belongs to every suite.
  const notes = (options.notes ?? []).map(
    (note, i) => `      <property name="note ${i + 1}" value="${xml(note)}"/>`,
  );
  const suites = specs.map((spec) => {
    const own = findings.filter((f) => f.spec === spec);
    return [
      `  <testsuite name="specs/${spec}/openapi.yaml" ${counts(own)}>`,
      ...(notes.length > 0 ? ['    <properties>', ...notes, '    </properties>'] : []),
      ...own.map(testCase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="partner-apis verify" ${counts(findings)}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
