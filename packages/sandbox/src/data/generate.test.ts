import { describe, expect, it } from 'vitest';
import { generate, withExamples } from './generate.js';
import { keyFormat } from './records.js';

describe('withExamples', () => {
  it('gives an open record the fields of its examples, typed as they are', () => {
    const schema = withExamples({ type: 'object', additionalProperties: true }, [
      { id: 'A-1', score: 3, open: true, tags: ['x'] },
      { id: 'A-2', score: 7 },
    ]);
    expect(schema).toMatchObject({
      type: 'object',
      properties: {
        id: { type: 'string', examples: ['A-1', 'A-2'] },
        score: { type: 'integer', minimum: 3, maximum: 7 },
        open: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string', examples: ['x'] } },
      },
    });
  });

  it('keeps only the examples the schema allows, and the schema bounds of numbers', () => {
    const schema = withExamples(
      {
        type: 'object',
        properties: {
          country: { type: 'string', pattern: '^[A-Z]{2}$', examples: ['NL', 'Netherlands'] },
          year: { type: 'integer', maximum: 2000, examples: [1990] },
          grade: { enum: ['A', 'B'] },
        },
      },
      [{ grade: 'Z' }],
    ) as { properties: Record<string, unknown> };
    expect(schema.properties.country).toMatchObject({ examples: ['NL'] });
    expect(schema.properties.year).toMatchObject({ minimum: 995, maximum: 2000 });
    expect(schema.properties.grade).toEqual({ enum: ['A', 'B'] });
  });
});

describe('generate', () => {
  const schema = withExamples({ type: 'object', additionalProperties: true }, [
    { city: 'Lyon', area: 120.5 },
    { city: 'Hamburg', area: 80.25 },
  ]);

  it('is the same for a seed, within the examples, with their decimals', () => {
    const values = Array.from({ length: 20 }, (_, seed) => generate(schema, seed)) as {
      city: string;
      area: number;
    }[];
    expect(generate(schema, 3)).toEqual(values[3]);
    expect(new Set(values.map((v) => v.city))).toEqual(new Set(['Lyon', 'Hamburg']));
    for (const { area } of values) {
      expect(area).toBeGreaterThanOrEqual(80.25);
      expect(area).toBeLessThanOrEqual(120.5);
      expect(Math.round(area * 100)).toBeCloseTo(area * 100, 6);
    }
    expect(new Set(values.map((v) => v.area)).size).toBeGreaterThan(10);
  });
});

describe('keyFormat', () => {
  it('counts in the last digits of the example, from 1', () => {
    expect(keyFormat('LOC-0001842')(0)).toBe('LOC-0000001');
    expect(keyFormat('QTE-2026-0004418')(41)).toBe('QTE-2026-0000042');
    expect(keyFormat('v2')(9)).toBe('v10');
    expect(keyFormat('abc')(4)).toBe('5');
    expect(keyFormat(1842)(4)).toBe(5);
    expect(keyFormat(undefined)(0)).toBe(1);
  });
});
