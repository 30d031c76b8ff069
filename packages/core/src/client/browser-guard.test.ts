import { clientIdHeaders } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient } from './service-client.js';

const baseUrl = 'https://approvals.example.com/v1';
const credentials = { clientId: 'my-client', clientSecret: 'confidential-secret-1234' };
const create = (options: object = {}) =>
  createServiceClient(
    { baseUrl, credentials, ...options },
    { auth: () => clientIdHeaders(credentials) },
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a client holding a client secret', () => {
  it('refuses to start in a browser page, naming the secret and the way out', () => {
    vi.stubGlobal('window', { document: {} });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(
      /^credentials\.clientSecret: would be readable by anyone who opens this browser page: .*dangerouslyAllowBrowser: true/,
    );
    expect(() => create()).not.toThrow(/confidential-secret-1234/);
  });

  it('starts in a browser page when the caller opts in', () => {
    vi.stubGlobal('window', { document: {} });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
    expect(() => create({ dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('starts in Node, Deno, Bun and workerd, which have no window with a document', () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    expect(() => create()).not.toThrow();
  });
});
