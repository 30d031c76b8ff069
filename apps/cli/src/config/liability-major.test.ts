import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../usage-error.js';
import { chooseLiabilityMajor, liabilityEndpoint } from './liability-major.js';

const settings = (variables: Record<string, string> = {}) => ({ variables, sources: {} });
const chosen = (major: number) => ({ major, chosen: true });

describe('chooseLiabilityMajor', () => {
  test('--major, else the variable, else the highest major', () => {
    expect(chooseLiabilityMajor([1, 2], undefined, settings())).toEqual({
      major: 2,
      chosen: false,
    });
    const one = settings({ PARTNER_APIS_LIABILITY_MAJOR: '1' });
    expect(chooseLiabilityMajor([2, 1], undefined, one)).toEqual(chosen(1));
    expect(chooseLiabilityMajor([1, 2], '2', one)).toEqual(chosen(2));
  });

  test('a major without a client is a usage error that names the majors', () => {
    expect(() => chooseLiabilityMajor([1, 2], '3', settings())).toThrow(
      new UsageError(
        '--major: the CLI has no client for major 3 of the liability API; it calls v1, v2',
      ),
    );
  });
});

describe('liabilityEndpoint of a configured environment', () => {
  const base = (url: string, more: Record<string, string> = {}) => ({
    PARTNER_APIS_LIABILITY_BASE_URL: url,
    ...more,
  });

  test('the one /v<k> segment of the base URL becomes /v<n>; query and host stay', () => {
    expect(
      liabilityEndpoint(chosen(2), base('https://l.example/v1/uat?x=1'), settings(), undefined),
    ).toEqual({
      baseUrl: 'https://l.example/v2/uat?x=1',
      variable: 'PARTNER_APIS_LIABILITY_BASE_URL',
    });
    // The major it already has: the URL exactly as configured.
    expect(
      liabilityEndpoint(chosen(1), base('https://l.example/v1/'), settings(), undefined)?.baseUrl,
    ).toBe('https://l.example/v1/');
  });

  test("a major's own base URL wins", () => {
    const variables = base('https://l.example/v1/uat', {
      PARTNER_APIS_LIABILITY_V2_BASE_URL: 'https://v2.l.example/uat',
    });
    expect(liabilityEndpoint(chosen(2), variables, settings(), undefined)).toEqual({
      baseUrl: 'https://v2.l.example/uat',
      variable: 'PARTNER_APIS_LIABILITY_V2_BASE_URL',
    });
  });

  test('without exactly one segment: as configured for the default major, an error for a chosen one', () => {
    for (const url of ['https://l.example/uat', 'https://l.example/v1/api/v1']) {
      expect(
        liabilityEndpoint({ major: 2, chosen: false }, base(url), settings(), undefined)?.baseUrl,
      ).toBe(url);
      expect(() => liabilityEndpoint(chosen(2), base(url), settings(), undefined)).toThrow(
        ConfigurationError,
      );
    }
  });

  test('no base URL, or one that is no URL: left for the client to report', () => {
    expect(liabilityEndpoint(chosen(1), {}, settings(), undefined)).toBeUndefined();
    expect(liabilityEndpoint(chosen(2), base('not a url'), settings(), undefined)?.baseUrl).toBe(
      'not a url',
    );
  });
});

describe('liabilityEndpoint of a sandbox', () => {
  const sandbox = {
    origin: 'http://127.0.0.1:4010',
    liabilityMajors: { 1: 'http://127.0.0.1:4010/liability/v1/sandbox' },
  };

  test('the URL the sandbox serves the major at, whatever the variables say', () => {
    expect(
      liabilityEndpoint(chosen(1), { PARTNER_APIS_LIABILITY_BASE_URL: 'x' }, settings(), sandbox),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:4010/liability/v1/sandbox',
      variable: 'PARTNER_APIS_LIABILITY_BASE_URL',
    });
  });

  test('a major it does not serve is a usage error that says how to serve it', () => {
    expect(() => liabilityEndpoint(chosen(2), {}, settings(), sandbox)).toThrow(
      /^the sandbox at http:\/\/127\.0\.0\.1:4010 serves liability v1, not v2: .*--liability-spec/,
    );
  });
});
