import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  REDACTED,
  TokenError,
  apiErrorFromResponse,
  redactUrl,
  scrubSecrets,
  type PartnerApisError,
} from './index.js';

// Characters that every encoding treats differently: `+`, `/`, `=`, a space, `@`, `é`, `€`.
const SECRET = 'k+/y=S p@é€9';
const CLIENT_ID = 'client-7';
const basic = (pair: string) => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;

function rendered(error: PartnerApisError): string {
  return [error.message, JSON.stringify(error), inspect(error, { depth: 10 }), error.stack].join(
    '\n',
  );
}

function unicodeEscaped(text: string): string {
  return [...text]
    .map((c) => c.charCodeAt(0).toString(16).padStart(4, '0'))
    .map((hex) => `\\u${hex.toUpperCase()}`)
    .join('');
}

describe('scrubSecrets finds a secret in the encodings a server echoes it in', () => {
  const encodings: Array<[string, string]> = [
    ['plain', SECRET],
    ['JSON string escaping', JSON.stringify(SECRET).slice(1, -1).replace(/\//g, '\\/')],
    ['\\uXXXX for every character', unicodeEscaped(SECRET)],
    ['\\uXXXX for one character only', SECRET.replace('+', '\\u002B')],
    ['percent-encoding', encodeURIComponent(SECRET)],
    [
      'lower-case percent-encoding',
      encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (byte) => byte.toLowerCase()),
    ],
    ['form encoding', new URLSearchParams({ s: SECRET }).toString().slice(2)],
    ['Base64', Buffer.from(SECRET, 'utf8').toString('base64')],
    ['Base64url', Buffer.from(SECRET, 'utf8').toString('base64url')],
    ['Base64 of clientId:secret', Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64')],
    ['Base64url of clientId:secret', Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64url')],
  ];

  it.each(encodings)('%s', (_, echoed) => {
    const text = `{"echo":"${echoed}","after":"kept"}`;
    const scrubbed = scrubSecrets(text, [SECRET]);
    expect(scrubbed).toContain(REDACTED);
    expect(scrubbed).not.toContain(echoed);
    expect(scrubbed).toContain('"after":"kept"');
  });

  it('learns the secret hidden in a Basic or Bearer value', () => {
    const header = basic(`${CLIENT_ID}:${SECRET}`);
    expect(scrubSecrets(`you sent ${SECRET}`, [header])).toBe(`you sent ${REDACTED}`);
    expect(scrubSecrets('token eyJ.abc was refused', ['Bearer eyJ.abc'])).toBe(
      `token ${REDACTED} was refused`,
    );
  });

  it('leaves the marks alone when a secret is part of the word redacted', () => {
    expect(scrubSecrets('sent ed, then act', ['act', 'ed'])).toBe(
      `sent ${REDACTED}, then ${REDACTED}`,
    );
    // Text that already holds the character the marks start from keeps it.
    expect(scrubSecrets('\uE000 key k1', ['k1'])).toBe(`\uE000 key ${REDACTED}`);
  });

  it('leaves text without a secret alone', () => {
    const text = '{"code":"authentication_error","message":"Invalid client credentials."}';
    expect(scrubSecrets(text, [SECRET, basic(`${CLIENT_ID}:${SECRET}`)])).toBe(text);
  });
});

describe('an echoed secret leaves no trace in the error', () => {
  it('a liability 401 echoing the plain secret sent inside Basic auth', () => {
    const error = apiErrorFromResponse({
      response: { status: 401, statusText: 'Unauthorized', headers: new Headers() },
      text: JSON.stringify({
        code: 'authentication_error',
        message: `Unknown secret ${SECRET} for ${CLIENT_ID}`,
        correlationId: 'c-1',
        causes: [{ message: `secret ${SECRET} expired`, field: '/authorization' }],
      }),
      request: { method: 'POST', url: 'https://api.test/v1/quotes' },
      secrets: [basic(`${CLIENT_ID}:${SECRET}`)],
    });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      `Unknown secret ${REDACTED} for ${CLIENT_ID} (HTTP 401 from POST https://api.test/v1/quotes)`,
    );
    expect(error.causes[0]?.message).toBe(`secret ${REDACTED} expired`);
    expect(rendered(error)).not.toContain(SECRET);
  });

  it('an approvals body echoing client_secret JSON-escaped', () => {
    const escaped = SECRET.replace('+', '\\u002B').replace('/', '\\/');
    const text = `{"code":"authentication_error","message":"client_secret ${escaped} refused","correlationId":"c-2","causes":[{"message":"${escaped}"}]}`;
    const error = apiErrorFromResponse({
      response: { status: 401, statusText: '', headers: new Headers() },
      text,
      secrets: [SECRET],
    });
    expect(error.message).toContain(`client_secret ${REDACTED} refused`);
    expect(error.causes[0]?.message).toBe(REDACTED);
    expect(rendered(error)).not.toContain(SECRET);
  });

  it('a doubly escaped echo that JSON decoding reveals', () => {
    const text = `{"code":"x","message":"echo ${SECRET.replace('+', '\\\\u002B')}","correlationId":"c"}`;
    const error = apiErrorFromResponse({
      response: { status: 400, statusText: '', headers: new Headers() },
      text,
      secrets: [SECRET],
    });
    expect(error.message).toBe(`echo ${REDACTED} (HTTP 400)`);
  });

  it('an HTML body echoing the secret percent-encoded keeps only the scrubbed start', () => {
    const error = apiErrorFromResponse({
      response: { status: 502, statusText: 'Bad Gateway', headers: new Headers() },
      text: `<p>client_secret=${encodeURIComponent(SECRET)}</p>`,
      secrets: [SECRET],
    });
    expect(error.rawBody).toBe(`<p>client_secret=${REDACTED}</p>`);
  });

  it('a TokenError scrubs error and error_uri too', () => {
    const error = new TokenError({
      status: 400,
      error: `bad_${SECRET}`,
      errorUri: `https://auth.test/errors?secret=${encodeURIComponent(SECRET)}`,
      errorDescription: 'refused',
      tokenUrl: 'https://auth.test/token',
      secrets: [SECRET],
    });
    expect(error.error).toBe(`bad_${REDACTED}`);
    expect(error.errorUri).toBe(`https://auth.test/errors?secret=${REDACTED}`);
    expect(rendered(error)).not.toContain(SECRET);
    expect(rendered(error)).not.toContain(encodeURIComponent(SECRET));
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://u:p@ss@host.test/path?q=1', 'https://host.test/path?q=1'],
    ['https://u:p@ss@host.test', 'https://host.test'],
    ['https://u@x:p@@host.test/a@b', 'https://host.test/a@b'],
    ['https://u:p/ss@host.test/x', 'https://host.test/x'],
    ['https://host.test/users/a@b', 'https://host.test/users/a@b'],
  ])('shows no part of the user info of %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
