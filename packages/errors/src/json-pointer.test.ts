import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonPointer, parseJsonPointer, valueAt } from './index.js';

// The example document of RFC 6901 §5.
const rfcDocument = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

// Property runs are CPU-bound: give them room on a loaded machine.
describe('parseJsonPointer and valueAt', { timeout: 30_000 }, () => {
  it.each([
    ['', rfcDocument],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
    ['#/c%25d', 2],
    ['#/a~1b', 1],
  ])('resolves the RFC 6901 example %j', (pointer, expected) => {
    expect(valueAt(rfcDocument, pointer)).toEqual(expected);
  });

  it('unescapes ~01 to ~1, not to /', () => {
    expect(parseJsonPointer('/~01')).toEqual(['~1']);
  });

  it.each(['foo', '/a~2b', '/a~', '#%E0%A4%A'])('refuses %j', (pointer) => {
    expect(parseJsonPointer(pointer)).toBeUndefined();
    expect(valueAt(rfcDocument, pointer)).toBeUndefined();
  });

  it.each([
    ['/foo/2', 'past the end'],
    ['/foo/-', 'the "-" index'],
    ['/foo/01', 'a leading zero'],
    ['/foo/bar', 'a name on an array'],
    ['/foo/0/x', 'a step into a string'],
    ['/__proto__', 'a prototype'],
    ['/constructor', 'an inherited property'],
  ])('gives undefined for %j (%s)', (pointer) => {
    expect(valueAt(rfcDocument, pointer)).toBeUndefined();
  });

  it('never throws, whatever the pointer and document', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (pointer, document) => {
        parseJsonPointer(pointer);
        valueAt(document, pointer);
      }),
      { numRuns: 500 },
    );
  });

  it('formats and parses back any tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tokens) => {
        expect(parseJsonPointer(formatJsonPointer(tokens))).toEqual(tokens);
      }),
      { numRuns: 500 },
    );
  });

  it('finds any value it was pointed at', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 }),
        fc.jsonValue(),
        (tokens, leaf) => {
          const document = tokens.reduceRight<unknown>(
            (inner, token) => ({ [token]: inner }),
            leaf,
          );
          expect(valueAt(document, formatJsonPointer(tokens))).toEqual(leaf);
        },
      ),
      { numRuns: 300 },
    );
  });
});
