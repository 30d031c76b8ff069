import { describe, expect, it } from 'vitest';
import { basicAuth, basicAuthorization, clientIdHeaders } from './index.js';

const decode = (header: string) => Buffer.from(header.replace(/^Basic /, ''), 'base64').toString();

describe('basicAuthorization', () => {
  it('form-urlencodes both parts for OAuth 2.0 (RFC 6749 §2.3.1): ": % + é"', () => {
    const header = basicAuthorization('client:1', 'a:b%c+d é', 'form-urlencoded');
    expect(decode(header)).toBe('client%3A1:a%3Ab%25c%2Bd+%C3%A9');
  });

  it('keeps both parts as they are for plain Basic (RFC 7617, the liability document)', () => {
    const header = basicAuthorization('client', 'a:b%c+d é', 'plain');
    expect(header).toBe(`Basic ${Buffer.from('client:a:b%c+d é', 'utf8').toString('base64')}`);
    expect(decode(header)).toBe('client:a:b%c+d é');
  });

  it('encodes characters beyond Latin-1 as UTF-8', () => {
    expect(basicAuthorization('id', 'pa€€', 'plain')).toBe('Basic aWQ6cGHigqzigqw=');
  });
});

describe('basicAuth and clientIdHeaders', () => {
  it('basicAuth sets Authorization: Basic base64(client_id:client_secret)', () => {
    const scheme = basicAuth({ clientId: 'liability-app', clientSecret: 'p:ss%+é' });
    const headers = new Headers();
    void scheme.authorize(headers, {} as never);
    expect(headers.get('authorization')).toBe(
      `Basic ${Buffer.from('liability-app:p:ss%+é').toString('base64')}`,
    );
    expect(scheme.secretHeaderNames).toEqual(['authorization']);
  });

  it('clientIdHeaders sets client_id and client_secret', () => {
    const scheme = clientIdHeaders({ clientId: 'approvals-app', clientSecret: 's3cr3t' });
    const headers = new Headers({ accept: 'application/json' });
    void scheme.authorize(headers, {} as never);
    expect(Object.fromEntries(headers)).toEqual({
      accept: 'application/json',
      client_id: 'approvals-app',
      client_secret: 's3cr3t',
    });
    expect(scheme.secretHeaderNames).toEqual(['client_id', 'client_secret']);
  });

  it('never shows the secret when a scheme is logged', () => {
    for (const scheme of [
      basicAuth({ clientId: 'id', clientSecret: 'hidden-1234' }),
      clientIdHeaders({ clientId: 'id', clientSecret: 'hidden-1234' }),
    ]) {
      expect(JSON.stringify(scheme)).not.toContain('hidden-1234');
      expect(String(scheme)).not.toContain('hidden-1234');
    }
  });

  it.each([
    [{ clientId: '', clientSecret: 's' }, 'auth.clientId: must be a non-empty string'],
    [{ clientId: 'id', clientSecret: undefined }, 'auth.clientSecret: must be a non-empty string'],
    [{ clientId: 'id', clientSecret: 'a\r\nb' }, 'auth.clientSecret: must not contain line breaks'],
  ])('refuses %j with a ConfigurationError', (credentials, message) => {
    expect(() => clientIdHeaders(credentials as never)).toThrow(message);
    expect(() => basicAuth(credentials as never)).toThrow(message);
  });
});
