import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applySpecEdits } from './spec-edits.js';

const SPEC = `openapi: 3.1.0
components:
  parameters:
    # The position of a page.
    Offset:
      name: offset
      x-upstream-gap: The unit of offset is not shown; we assume a record index.
      x-paging: offset
      schema:
        type: integer
        minimum: 0
  # Comment before responses.
  responses:
    '200':
      description: The records.
      content:
        application/json:
          schema:
            type: array
            items:
              $ref: '#/components/schemas/Location'
`;

describe('applySpecEdits', () => {
  it('changes a scalar in place and keeps every comment and every other line', () => {
    const edited = applySpecEdits(SPEC, [
      { op: 'replace', path: '/components/parameters/Offset/x-paging', value: 'page' },
      { op: 'replace', path: '/components/parameters/Offset/schema/minimum', value: 1 },
    ]);
    expect(edited).toBe(
      SPEC.replace('x-paging: offset', 'x-paging: page').replace('minimum: 0', 'minimum: 1'),
    );
  });

  it('replaces a mapping with another, indented where it was', () => {
    const schema = {
      type: 'object',
      'x-records': 'items',
      required: ['items'],
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Location' } } },
    };
    const path = '/components/responses/200/content/application~1json/schema';
    const edited = applySpecEdits(SPEC, [{ op: 'replace', path, value: schema }]);
    expect(edited).toContain(
      [
        '          schema:',
        '            type: object',
        '            x-records: items',
        '            required: [items]',
        '            properties:',
        '              items:',
        '                type: array',
        '                items:',
        "                  $ref: '#/components/schemas/Location'",
      ].join('\n'),
    );
    expect(parse(edited).components.responses['200'].content['application/json'].schema).toEqual(
      schema,
    );
  });

  it('adds a member at the end of its mapping, quoting keys and dates as the specs do', () => {
    const edited = applySpecEdits(SPEC, [
      {
        op: 'add',
        path: '/components/responses/400',
        value: { description: 'Seen on 2026-02-03.', example: '2026-02-03' },
      },
    ]);
    expect(
      edited.endsWith(
        "    '400':\n      description: Seen on 2026-02-03.\n      example: '2026-02-03'\n",
      ),
    ).toBe(true);
  });

  it('folds prose longer than its line, as the specs write it', () => {
    const text =
      'The unit of offset and whether it is zero or one based are not shown; observed: a one-based page index.';
    const edited = applySpecEdits(SPEC, [
      { op: 'replace', path: '/components/parameters/Offset/x-upstream-gap', value: text },
    ]);
    expect(edited).toContain('      x-upstream-gap: >-\n        The unit of offset');
    expect(edited.split('\n').every((line) => line.length <= 100)).toBe(true);
    expect(parse(edited).components.parameters.Offset['x-upstream-gap']).toBe(text);
    expect(edited).toContain('    # The position of a page.\n');
  });

  it('refuses to replace what is not there, or to add where the parent is missing', () => {
    expect(() =>
      applySpecEdits(SPEC, [
        { op: 'replace', path: '/components/parameters/Limit/x-paging', value: 'limit' },
      ]),
    ).toThrow(/\/components\/parameters\/Limit\/x-paging: its parent is not a mapping/);
    expect(() =>
      applySpecEdits(SPEC, [
        { op: 'replace', path: '/components/parameters/Offset/style', value: 'form' },
      ]),
    ).toThrow(/nothing to replace/);
  });
});
