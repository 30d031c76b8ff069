import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  ApiError,
  ConfigurationError,
  ConnectionError,
  ERROR_BRAND,
  NotFoundError,
  PartnerApisError,
  ServiceUnavailableError,
  TimeoutError,
  TokenError,
  ValidationError,
  isApiError,
  isPartnerApisError,
} from './index.js';
import type * as errors from './index.js';

describe('instanceof as a brand check', () => {
  it('holds along the class chain and nowhere else', () => {
    const error = new ValidationError({ status: 400, code: 'data_validation', message: 'bad' });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(PartnerApisError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error.name).toBe('ValidationError');
    expect(error[ERROR_BRAND]).toEqual(['PartnerApisError', 'ApiError', 'ValidationError']);
    expect(new ConfigurationError('x', 'y')).not.toBeInstanceOf(ApiError);
    expect(isApiError(error)).toBe(true);
    expect(isApiError(new TimeoutError({ timeoutMs: 1, scope: 'total' }))).toBe(false);
    expect(isPartnerApisError(new TokenError({ status: 401, error: 'x', tokenUrl: 'u' }))).toBe(
      true,
    );
  });

  it.each([null, undefined, 42, 'ApiError', {}, new Error('x'), { [ERROR_BRAND]: 'ApiError' }])(
    'is false for %o',
    (value) => {
      expect(value instanceof PartnerApisError).toBe(false);
      expect(isApiError(value)).toBe(false);
    },
  );

  it('works across two copies of the package', async () => {
    vi.resetModules();
    // The query makes the module loader evaluate the package a second time.
    const secondCopy = './index.js?copy';
    const copy = (await import(secondCopy)) as typeof errors;
    expect(copy.ApiError).not.toBe(ApiError);
    const fromCopy = new copy.ServiceUnavailableError({ status: 503, code: 'x', message: 'm' });
    expect(fromCopy).toBeInstanceOf(ServiceUnavailableError);
    expect(fromCopy).toBeInstanceOf(ApiError);
    expect(fromCopy).not.toBeInstanceOf(NotFoundError);
    expect(isApiError(fromCopy)).toBe(true);
    expect(new NotFoundError({ status: 404, code: 'x', message: 'm' })).toBeInstanceOf(
      copy.ApiError,
    );
  });

  it('holds for a subclass a user writes, without a kind of its own', () => {
    class QuoteRefusedError extends ApiError {}
    class StrictQuoteRefusedError extends QuoteRefusedError {}
    const error = new StrictQuoteRefusedError({ status: 409, code: 'refused', message: 'no' });
    expect(error).toBeInstanceOf(StrictQuoteRefusedError);
    expect(error).toBeInstanceOf(QuoteRefusedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(PartnerApisError);
    expect(isApiError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error.name).toBe('StrictQuoteRefusedError');
    expect(error[ERROR_BRAND]).toEqual(['PartnerApisError', 'ApiError']);
    const plain = new ApiError({ status: 409, code: 'refused', message: 'no' });
    expect(plain).not.toBeInstanceOf(QuoteRefusedError);
    expect(new ValidationError({ status: 400, code: 'x', message: 'm' })).not.toBeInstanceOf(
      QuoteRefusedError,
    );
  });

  it('holds for a user subclass of a status subclass, across copies of the package', async () => {
    vi.resetModules();
    const secondCopy = './index.js?subclass';
    const copy = (await import(secondCopy)) as typeof errors;
    class ThrottledError extends copy.RateLimitError {}
    const error = new ThrottledError({ status: 429, code: 'slow_down', message: 'wait' });
    expect(error).toBeInstanceOf(ThrottledError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe('ThrottledError');
  });

  it('narrows the type', () => {
    const value: unknown = new NotFoundError({ status: 404, code: 'not_found', message: 'm' });
    if (value instanceof ApiError) expectTypeOf(value.status).toEqualTypeOf<number>();
    if (isApiError(value)) expectTypeOf(value.correlationId).toEqualTypeOf<string | undefined>();
  });
});
