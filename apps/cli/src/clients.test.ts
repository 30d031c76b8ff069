import { describe, expect, it } from 'vitest';
import { assumptionPolicy } from './clients.js';

describe('assumptionPolicy', () => {
  it.each([
    [true, undefined, 'refuse'],
    [false, 'http://127.0.0.1:4010/liability/v1/sandbox', 'refuse'],
    [false, 'http://localhost:4010', 'refuse'],
    [false, 'https://liability.example.com/v1/uat', 'warn'],
    [false, undefined, 'warn'],
    [false, 'not a url', 'warn'],
  ] as const)(
    'embedded sandbox %s, base URL %s: %s a value the spec only assumes',
    (embedded, baseUrl, policy) => {
      expect(assumptionPolicy(embedded, baseUrl)).toBe(policy);
    },
  );
});
