import { clientIdHeaders } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient, oauth2Service } from '../index.js';
import { PAGING_OPTION_NAMES } from '../internal.js';
import { clientOptionNames } from '../client/service-client.js';
import { CALL_OPTION_NAMES } from '../operations/call-options.js';
import { unknownOptions } from './option-names.js';

/** A spec whose client sets no header of its own. */
const NO_TRACING = { operations: {}, securitySchemes: {}, tracingHeaders: {} } as const;

const credentials = { clientId: 'client-1', clientSecret: 'secret-1' };
const baseUrl = 'http://127.0.0.1:9';

describe('unknownOptions', () => {
  it('names nothing for the options every client takes, nested ones included', () => {
    const options = {
      baseUrl,
      credentials,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 3, retryWrites: true },
      timeout: { attemptMs: 1, totalMs: 2 },
      tracing: { propagate: true },
      userAgent: 'claims-portal/2.3',
      assumptions: 'warn',
    };
    expect(unknownOptions(options, clientOptionNames())).toEqual([]);
  });

  it('names each unknown option by its path, with the known one it most likely meant', () => {
    const options = {
      baseURL: baseUrl,
      retry: { attempt: 2, maxRetries: 0 },
      timeout: { totalMS: 5 },
      colour: 'blue',
    };
    expect(unknownOptions(options, clientOptionNames())).toEqual([
      'unknown option baseURL is ignored; did you mean baseUrl?',
      'unknown option retry.attempt is ignored; did you mean retry.attempts?',
      'unknown option retry.maxRetries is ignored',
      'unknown option timeout.totalMS is ignored; did you mean timeout.totalMs?',
      'unknown option colour is ignored',
    ]);
  });

  it("knows a service's own options", () => {
    expect(
      unknownOptions({ tier: 'gold', tire: 'gold' }, clientOptionNames({ tier: true })),
    ).toEqual(['unknown option tire is ignored; did you mean tier?']);
  });

  it("knows a call's options, and not the client's in their place", () => {
    const call = {
      signal: new AbortController().signal,
      conversationId: 'flow-42',
      timeout: { attemptMs: 1, totalMs: 2 },
      retry: { attempts: 1, retryWrites: true, baseDelayMs: 5 },
      maxRedirects: 3,
    };
    expect(unknownOptions(call, CALL_OPTION_NAMES)).toEqual([
      'unknown option maxRedirects is ignored',
    ]);
  });

  it('leaves a nested option that is no object to the check of its value', () => {
    expect(unknownOptions({ retry: 3, timeout: null }, clientOptionNames())).toEqual([]);
  });
});

describe('a client with an option it does not know', () => {
  afterEach(() => vi.restoreAllMocks());

  it('tells the logger', () => {
    const warn = vi.fn();
    const logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
    const options = { baseUrl, credentials, logger, retrys: { attempts: 1 } };
    createServiceClient(options, {
      auth: () => clientIdHeaders(credentials),
      serviceOptions: { tier: true },
    });
    expect(warn.mock.calls).toEqual([
      [
        'unknown option retrys is ignored; did you mean retry?',
        { code: 'PARTNER_APIS_UNKNOWN_OPTION' },
      ],
    ]);
  });

  it('is a process warning of its own code without a logger', () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const options = {
      baseUrl,
      tokenUrl: `${baseUrl}/token`,
      credentials: { ...credentials, subscriptionKeys: { primary: 'key-1' } },
      pageSize: 50,
      prefetch: 2,
      scopeSeperator: ',',
    };
    const wiring = oauth2Service(options, ['Portal.Api'], NO_TRACING);
    createServiceClient(options, {
      ...wiring,
      serviceOptions: { ...wiring.serviceOptions, ...PAGING_OPTION_NAMES },
    });
    expect(emitWarning.mock.calls).toEqual([
      [
        'unknown option scopeSeperator is ignored; did you mean scopeSeparator?',
        { code: 'PARTNER_APIS_UNKNOWN_OPTION' },
      ],
    ]);
  });
});

describe('a required option named almost right', () => {
  it.each([
    [
      { baseURL: 'https://api.example.com', credentials: {} },
      'baseUrl: is required; did you mean baseUrl instead of baseURL?',
    ],
    [
      { baseurl: 'https://api.example.com', credentials: {} },
      'baseUrl: is required; did you mean baseUrl instead of baseurl?',
    ],
    [
      { baseUrl: 'https://api.example.com', credential: {} },
      'credentials: is required; did you mean credentials instead of credential?',
    ],
  ])('%j is refused with the name it meant, before any other check', (options, message) => {
    const create = () =>
      createServiceClient<object>(options as never, {
        auth: () => ({ secretHeaderNames: [], authorize: () => undefined }),
      });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(message);
  });

  it('names retry.attempts for the retries options of other SDKs', () => {
    expect(unknownOptions({ maxRetries: 2, retries: 2 }, clientOptionNames())).toEqual([
      'unknown option maxRetries is ignored; did you mean retry.attempts?',
      'unknown option retries is ignored; did you mean retry.attempts?',
    ]);
  });
});
