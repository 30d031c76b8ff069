import { describe, expect, it } from 'vitest';
import { HeaderMap, publicHeaders } from './header-map.js';

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

describe('HeaderMap', () => {
  it('reads as the Headers fetch would give for the same answer', () => {
    const received = HeaderMap.received(RAW);
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
    const received = HeaderMap.received(RAW, 4096);
    expect(received.get('content-length')).toBe('4096');
    expect(received.has('transfer-encoding')).toBe(false);
  });

  it('changes like Headers', () => {
    const received = HeaderMap.received(RAW);
    received.set('Vary', 'Cookie');
    received.append('x-extra', '1');
    received.delete('Content-Type');
    expect(received.get('vary')).toBe('Cookie');
    expect(received.get('x-extra')).toBe('1');
    expect(received.has('content-type')).toBe(false);
  });

  it('becomes a real Headers where a user receives it; other headers pass as they are', () => {
    const shown = publicHeaders(HeaderMap.received(RAW));
    expect(shown).toBeInstanceOf(Headers);
    expect([...shown]).toEqual([...fetchHeaders()]);
    const own = new Headers({ a: '1' });
    expect(publicHeaders(own)).toBe(own);
  });

  it('takes and cuts what Headers takes, from a record or by set and append', () => {
    const init = { 'X-Tenant': ' a ', Accept: 'application/json' };
    const ours = new HeaderMap(init);
    const theirs = new Headers(init);
    ours.set('X-Trace', '\t1\n');
    theirs.set('X-Trace', '\t1\n');
    ours.append('accept', 'text/plain');
    theirs.append('accept', 'text/plain');
    expect([...ours]).toEqual([...theirs]);
    expect(ours.get('x-tenant')).toBe('a');
    expect(new HeaderMap({ city: 'Zürich' }).get('city')).toBe('Zürich');
  });

  it.each([
    ['a value with a line break', 'x-a', 'one\r\ntwo: 2'],
    ['a value with NUL', 'x-a', 'a\u0000b'],
    ['a value beyond Latin-1', 'x-a', 'token-☂'],
    ['a name with a space', 'x a', '1'],
    ['an empty name', '', '1'],
  ])('refuses %s as Headers does, naming the header but never the value', (_, name, value) => {
    expect(() => new Headers().set(name, value)).toThrow(TypeError);
    for (const write of ['set', 'append'] as const) {
      let thrown: unknown;
      try {
        new HeaderMap()[write](name, value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).not.toContain(value);
    }
  });
});
