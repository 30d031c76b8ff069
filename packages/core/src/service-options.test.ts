import { basicAuth, clientIdHeaders, type ClientCredentials } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServiceClientFromOptions,
  isHeaderValue,
  withOptionNames,
  createClientPipeline,
} from './index.js';

interface paths {
  '/ping': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: Record<string, unknown>; content: { 'application/json': { ok: boolean } } };
      };
    };
  };
}

const credentials = { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' };
const basic = (c: Record<string, unknown>) => basicAuth(c as unknown as ClientCredentials);

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function configurationError(create: () => unknown): ConfigurationError {
  try {
    create();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('createServiceClientFromOptions', () => {
  it('sends the auth, the fixed headers and the User-Agent on every request', async () => {
    server = await startFaultServer([{ body: { ok: true } }]);
    const { raw } = createServiceClientFromOptions<paths>(
      { baseUrl: server.url, credentials, userAgent: 'claims-portal/2.3' },
      { auth: basic, headers: { 'X-Z-Conversation-Id': 'flow-1' } },
    );
    await raw.GET('/ping');
    const [seen] = server.requests;
    expect(seen?.headers['user-agent']).toBe('claims-portal/2.3');
    expect(seen?.headers['x-z-conversation-id']).toBe('flow-1');
    expect(seen?.headers['authorization']).toBe(
      `Basic ${Buffer.from('client-7f3a:s3cr3t-value-9c1d').toString('base64')}`,
    );
  });

  it.each([
    [undefined, 'options', 'must be an object'],
    [{ baseUrl: 'https://a.example' }, 'credentials', 'must be an object'],
    [
      { baseUrl: 'https://a.example', credentials: 'id:secret' },
      'credentials',
      'must be an object',
    ],
    [{ baseUrl: 'http://a.example', credentials }, 'baseUrl', 'must use https'],
    [
      { baseUrl: 'https://a.example', credentials: { clientId: 'id' } },
      'credentials.clientSecret',
      '',
    ],
    [
      { baseUrl: 'https://a.example', credentials: { clientId: 'a:b', clientSecret: 's' } },
      'credentials.clientId',
      'must not contain ":"',
    ],
    [
      { baseUrl: 'https://a.example', credentials: { ...credentials, secretCreatedAt: 'soon' } },
      'credentials.secretCreatedAt',
      'must be a valid date',
    ],
    [{ baseUrl: 'https://a.example', credentials, userAgent: 'a\r\nb' }, 'userAgent', ''],
    [{ baseUrl: 'https://a.example', credentials, retry: { attempts: 0 } }, 'retry.attempts', ''],
  ])('refuses %j naming %s', (options, option, problem) => {
    const error = configurationError(() =>
      createServiceClientFromOptions<paths>(options as never, { auth: basic }),
    );
    expect(error.option).toBe(option);
    expect(error.message).toContain(`${option}: ${problem}`);
    expect(error.message).not.toContain('s3cr3t-value-9c1d');
  });

  it("names the pipeline's options as the service's users know them", () => {
    const error = configurationError(() =>
      createServiceClientFromOptions<paths>(
        { baseUrl: 'https://a.example', credentials },
        {
          auth: clientIdHeaders as never,
          rateLimit: { requestsPerSecond: -1 },
          optionNames: { rateLimit: 'tier' },
        },
      ),
    );
    expect(error.option).toBe('tier.requestsPerSecond');
  });
});

describe('withOptionNames', () => {
  it('lets the longest matching name win and leaves other errors alone', () => {
    const names = { auth: 'credentials', 'auth.tokenUrl': 'tokenUrl' };
    const thrown = (option: string) =>
      configurationError(() =>
        withOptionNames(names, () => {
          throw new ConfigurationError(option, 'is wrong');
        }),
      );
    expect(thrown('auth.tokenUrl').message).toBe('tokenUrl: is wrong');
    expect(thrown('auth.clientId').message).toBe('credentials.clientId: is wrong');
    expect(thrown('authority').message).toBe('authority: is wrong');
    const other = new RangeError('not a configuration error');
    expect(() =>
      withOptionNames(names, () => {
        throw other;
      }),
    ).toThrow(other);
    expect(
      withOptionNames(names, () => createClientPipeline({ baseUrl: 'https://a.example' })).baseUrl,
    ).toBe('https://a.example');
  });
});

describe('isHeaderValue', () => {
  it('accepts what Headers accepts and refuses blanks, line breaks and non-strings', () => {
    expect(isHeaderValue('flow-42')).toBe(true);
    for (const bad of ['', '  ', 'a\nb', 'a\r\nb', 'a\0b', 42, undefined]) {
      expect(isHeaderValue(bad)).toBe(false);
    }
  });
});
