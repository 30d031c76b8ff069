import { describe, expect, it } from 'vitest';
import { isTestAddress } from './liability.js';

describe('isTestAddress', () => {
  it.each([
    'http://127.0.0.1:8080/liability/v1/sandbox',
    'http://localhost:3000',
    'http://[::1]:3000',
    'https://liability.partner-platform.invalid/v1/uat',
    'https://api.uat.partner-platform.invalid',
    'https://liability-staging.example/v1',
    'https://mock.partner-platform.invalid/liability/v1',
  ])('takes %s for a test environment', (url) => {
    expect(isTestAddress(url)).toBe(true);
  });

  it.each([
    'https://liability.partner-platform.invalid/v1',
    'https://api.partner-platform.invalid',
    'not a url',
  ])('takes %s for production', (url) => {
    expect(isTestAddress(url)).toBe(false);
  });
});
