import { describe, expect, it } from 'vitest';
import { publicHeaders, ReceivedHeaders } from './received-headers.js';

/** node's rawHeaders of one answer: mixed case, a repeated name, two cookies. */
const RAW = [
  'Content-Type',
  'application/json',
  'X-Z-Request-Id',
  'r-1',
  'Vary',
  'Accept',
  'vary',
  'Origin',
  'Set-Cookie',
  'a=1',
  'Set-Cookie',
  'b=2',
  'Content-Length',
  '120',
  'Transfer-Encoding',
  'chunked',
];

/** The same answer read into a `Headers`, as fetch gives it. */
function fetchHeaders(): Headers {
  const headers = new Headers();
  for (let i = 0; i < RAW.length; i += 2) headers.append(RAW[i] as string, RAW[i + 1] as string);
  return headers;
}

describe('ReceivedHeaders', () => {
  it('reads as the Headers fetch would give for the same answer', () => {
    const received = new ReceivedHeaders(RAW);
    const expected = fetchHeaders();
    expect([...received]).toEqual([...expected]);
    for (const name of ['content-type', 'X-Z-REQUEST-ID', 'vary', 'set-cookie', 'etag']) {
      expect(received.get(name)).toBe(expected.get(name));
      expect(received.has(name)).toBe(expected.has(name));
    }
    expect(received.getSetCookie()).toEqual(['a=1', 'b=2']);
    const visited: string[] = [];
    received.forEach((value, name) => visited.push(`${name}: ${value}`));
    expect(visited).toEqual([...expected].map(([name, value]) => `${name}: ${value}`));
    expect([...received.keys()]).toEqual([...expected.keys()]);
    expect([...received.values()]).toEqual([...expected.values()]);
    expect(Object.prototype.toString.call(received)).toBe('[object Headers]');
  });

  it('given the decoded length, gives it as Content-Length and drops Transfer-Encoding', () => {
    const received = new ReceivedHeaders(RAW, 4096);
    expect(received.get('content-length')).toBe('4096');
    expect(received.has('transfer-encoding')).toBe(false);
  });

  it('changes like Headers', () => {
    const received = new ReceivedHeaders(RAW);
    received.set('Vary', 'Cookie');
    received.append('x-extra', '1');
    received.delete('Content-Type');
    expect(received.get('vary')).toBe('Cookie');
    expect(received.get('x-extra')).toBe('1');
    expect(received.has('content-type')).toBe(false);
  });

  it('becomes a real Headers where a user receives it; other headers pass as they are', () => {
    const shown = publicHeaders(new ReceivedHeaders(RAW));
    expect(shown).toBeInstanceOf(Headers);
    expect([...shown]).toEqual([...fetchHeaders()]);
    const own = new Headers({ a: '1' });
    expect(publicHeaders(own)).toBe(own);
  });
});
