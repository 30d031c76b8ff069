import { describe, expect, it } from 'vitest';
import { inferSchema } from './infer.js';

describe('inferSchema', () => {
  it('gives the types, formats and properties the samples share, and no value', () => {
    expect(
      inferSchema(
        [
          {
            status: 400,
            title: 'Bad Request',
            at: '2026-02-03T10:00:00Z',
            day: '2026-02-03',
            tags: ['a'],
          },
          { status: 404, title: 'Not Found', score: 1.5 },
        ],
        { required: true },
      ),
    ).toEqual({
      type: 'object',
      required: ['status', 'title'],
      properties: {
        status: { type: 'integer' },
        title: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        tags: { type: 'array', items: { type: 'string' } },
        score: { type: 'number' },
      },
    });
  });

  it('widens an integer seen beside a fraction to a number, and lists mixed kinds', () => {
    expect(inferSchema([1, 2.5])).toEqual({ type: 'number' });
    expect(inferSchema(['a', null])).toEqual({ type: ['null', 'string'] });
    expect(inferSchema([[]])).toEqual({ type: 'array' });
  });
});
