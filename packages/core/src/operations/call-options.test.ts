import { InvalidArgumentError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { checkCallOptions } from './call-options.js';

describe('checkCallOptions', () => {
  it('gives {} for no options and the options themselves otherwise', () => {
    const signal = new AbortController().signal;
    expect(checkCallOptions(undefined, 'things.list')).toEqual({});
    expect(checkCallOptions({ signal }, 'things.list')).toEqual({ signal });
  });

  it.each([
    [null, 'things.list: options must be an object'],
    ['fast', 'things.list: options must be an object'],
    [{ signal: 'stop' }, 'things.list: options.signal must be an AbortSignal'],
  ])('refuses %j before any request', (options, message) => {
    const call = () => checkCallOptions(options as never, 'things.list');
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(message);
  });
});
