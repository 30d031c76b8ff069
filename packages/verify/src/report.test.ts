import { describe, expect, it } from 'vitest';
import { formatFindings } from './report.js';

describe('formatFindings', () => {
  it('lists contradicted findings first, each with its spec, pointer, evidence and edit', () => {
    const report = formatFindings([
      { spec: 'auth', pointer: '/a', status: 'confirmed', evidence: 'held' },
      {
        spec: 'common',
        pointer: '/components/parameters/Offset/x-upstream-gap',
        status: 'contradicted',
        evidence: 'exposure: a page index\nrisk engineering: a page index',
        edit: [{ op: 'replace', path: '/components/parameters/Offset/x-paging', value: 'page' }],
      },
    ]);
    expect(report).toBe(
      [
        '2 findings: 1 contradicted, 0 unobserved, 1 confirmed',
        '',
        'contradicted  common  /components/parameters/Offset/x-upstream-gap',
        '  exposure: a page index',
        '  risk engineering: a page index',
        '  edit specs/common/openapi.yaml: replace /components/parameters/Offset/x-paging = "page"',
        '',
        'confirmed     auth  /a',
        '  held',
        '',
      ].join('\n'),
    );
  });
});
