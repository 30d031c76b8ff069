// @ts-check
import { describe, expect, it } from 'vitest';
import { inlineRefs, resolveRef } from './document.js';

const document = {
  components: {
    schemas: {
      Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } },
      Alias: { $ref: '#/components/schemas/Node' },
      'a/b': { type: 'string' },
    },
  },
};

describe('resolveRef', () => {
  it('follows a chain of local references, escaped names included', () => {
    expect(resolveRef(document, { $ref: '#/components/schemas/Alias' })).toBe(
      document.components.schemas.Node,
    );
    expect(resolveRef(document, { $ref: '#/components/schemas/a~1b' })).toEqual({
      type: 'string',
    });
  });

  it('refuses a reference into another file, and one that leads nowhere', () => {
    expect(() => resolveRef(document, { $ref: 'common.yaml#/x' })).toThrow(
      '$ref common.yaml#/x is not local: bundle the spec first',
    );
    expect(() => resolveRef(document, { $ref: '#/components/schemas/None' })).toThrow(
      'unresolved $ref #/components/schemas/None',
    );
  });
});

describe('inlineRefs', () => {
  it('copies a schema with its references inlined, a recursive one becoming {}', () => {
    expect(inlineRefs(document, { $ref: '#/components/schemas/Alias' })).toEqual({
      type: 'object',
      properties: { child: { type: 'object', properties: { child: {} } } },
    });
  });
});
