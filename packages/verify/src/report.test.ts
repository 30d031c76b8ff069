import { describe, expect, it } from 'vitest';
import { formatFindings } from './report.js';

const expects = { confirm: 'an answer that confirms', contradict: 'one that contradicts' };

describe('formatFindings', () => {
  it('lists contradicted findings first, each with its spec, pointer, evidence and edit', () => {
    const report = formatFindings([
      { spec: 'auth', pointer: '/a', status: 'confirmed', expects, evidence: 'held' },
      {
        spec: 'common',
        pointer: '/components/parameters/Offset/x-upstream-gap',
        status: 'contradicted',
        expects,
        evidence: 'exposure: a page index\nrisk engineering: a page index',
        edit: [{ op: 'replace', path: '/components/parameters/Offset/x-paging', value: 'page' }],
      },
    ]);
    expect(report).toBe(
      [
        '2 findings: 1 contradicted, 0 unobserved, 1 confirmed, 0 skipped',
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

  it('names the notes under the counts, and wraps every line at spaces to the width given', () => {
    const report = formatFindings(
      [
        {
          spec: 'auth',
          pointer: '/components/schemas/TokenRequest/properties/scope/x-upstream-gap',
          status: 'unobserved',
          expects,
          evidence:
            'exposure: the token endpoint grants a token to anything, so the scopes it takes cannot be told',
        },
      ],
      { notes: ['exposure answered a wrong key as it answered the real requests'], width: 40 },
    );
    const lines = report.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '1 findings: 0 contradicted, 1',
      'unobserved, 0 confirmed, 0 skipped',
      'note: exposure answered a wrong key as',
      '  it answered the real requests',
    ]);
    // The pointer is one word: it is never cut.
    expect(lines).toContain('  /components/schemas/TokenRequest/properties/scope/x-upstream-gap');
    expect(lines.filter((line) => line.length > 40 && line.includes(' ', 2))).toEqual([]);
    // Evidence keeps its indent on the first of its lines, and the rest go deeper.
    expect(lines).toContain('  exposure: the token endpoint grants a');
    expect(lines).toContain('    token to anything, so the scopes it');
  });
});
