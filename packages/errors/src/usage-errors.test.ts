import { describe, expect, it } from 'vitest';
import { ConfigurationError, InvalidArgumentError, redactUrl } from './index.js';

describe('ConfigurationError and InvalidArgumentError', () => {
  it('name the option or argument first', () => {
    const config = new ConfigurationError('baseUrl', 'must use https (got http://example.com)');
    expect(config.message).toBe('baseUrl: must use https (got http://example.com)');
    expect(config.option).toBe('baseUrl');
    expect(config.toJSON()).toEqual({
      name: 'ConfigurationError',
      message: config.message,
      option: 'baseUrl',
    });
    const argument = new InvalidArgumentError(
      'employeeNumber',
      'must not be empty',
      'getApprovals',
    );
    expect(argument.message).toBe('getApprovals: employeeNumber must not be empty');
    expect(new InvalidArgumentError('pageSize', 'must be at most 1024').message).toBe(
      'pageSize must be at most 1024',
    );
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://u:p@h.test/a?b=c#d', 'https://h.test/a?[redacted]'],
    ['https://h.test/a#frag', 'https://h.test/a#[redacted]'],
    ['https://h.test/a', 'https://h.test/a'],
    ['not a url?x', 'not a url?[redacted]'],
  ])('redacts %j', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
