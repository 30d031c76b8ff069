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
    expect(argument).toMatchObject({
      argument: 'employeeNumber',
      problem: 'must not be empty',
      operation: 'getApprovals',
    });
    expect(new InvalidArgumentError('pageSize', 'must be at most 1024').message).toBe(
      'pageSize must be at most 1024',
    );
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://u:p@h.test/a?b=c#d', 'https://h.test/a?b=c#[redacted]'],
    ['https://h.test/a#frag', 'https://h.test/a#[redacted]'],
    ['https://h.test/a', 'https://h.test/a'],
    ['not a url?x', 'not a url?x'],
    ['https://h.test/a?limit=10&offset=20', 'https://h.test/a?limit=10&offset=20'],
    [
      'https://h.test/a?subscription-key=k1&limit=1&access_token=t&sig=s',
      'https://h.test/a?subscription-key=[redacted]&limit=1&access_token=[redacted]&sig=[redacted]',
    ],
    ['https://h.test/a?Client%5FSecret=s', 'https://h.test/a?Client%5FSecret=[redacted]'],
    ['https://h.test/a?%E0%A4%A=x', 'https://h.test/a?[redacted]'],
  ])('redacts %j', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('redacts the parameters a spec names as secret, whatever they are called', () => {
    expect(redactUrl('https://h.test/a?gw=k&limit=1', ['GW'])).toBe(
      'https://h.test/a?gw=[redacted]&limit=1',
    );
  });
});
