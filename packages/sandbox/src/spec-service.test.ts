import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from './index.js';
import type { Sandbox } from './sandbox.js';

/** A spec nobody wrote a handler for: a multipart upload answered by a PNG, and a header. */
const scans = {
  openapi: '3.1.0',
  info: { title: 'Scans', version: '1.0.0' },
  security: [{ basic: [] }],
  paths: {
    '/scans': {
      post: {
        operationId: 'uploadScan',
        parameters: [
          {
            name: 'X-Site',
            in: 'header',
            required: true,
            schema: { type: 'string', pattern: '^S-' },
          },
          { name: 'session', in: 'cookie', schema: { type: 'string', minLength: 3 } },
        ],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['scan', 'title'],
                properties: {
                  scan: { type: 'string', format: 'binary' },
                  title: { type: 'string', maxLength: 10 },
                },
              },
            },
          },
        },
        responses: { 200: { description: 'the scan', content: { 'image/png': {} } } },
      },
    },
  },
  components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } },
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ services: { scans } });
});
afterAll(() => sandbox.close());

function upload(fields: { title?: string }, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('scan', new Blob(['bytes']), 'scan.tif');
  if (fields.title !== undefined) form.append('title', fields.title);
  const { clientId, clientSecret } = sandbox.credentials.services.scans!;
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  return fetch(`${sandbox.urls.services.scans}/scans`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'x-site': 'S-1', ...headers },
    body: form,
  });
}

describe('a service served from its spec alone', () => {
  it('takes a multipart upload and answers the PNG its spec promises', async () => {
    const response = await upload({ title: 'Hall B' }, { accept: 'image/png' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
  });

  it('checks the parts, the header and the cookie against the spec', async () => {
    const bad = await upload(
      { title: 'far too long a title' },
      { 'x-site': 'Q-1', cookie: 'session=ab' },
    );
    expect(bad.status).toBe(400);
    const { causes } = (await bad.json()) as { causes: { field: string }[] };
    expect(causes.map((c) => c.field).sort()).toEqual(['/X-Site', '/session', '/title']);
    expect((await upload({})).status).toBe(400);
  });

  it('refuses a request without the credentials its security asks for', async () => {
    const response = await fetch(`${sandbox.urls.services.scans}/scans`, { method: 'POST' });
    expect(response.status).toBe(401);
  });

  it('gives the variables a client of it reads, and refuses a name it cannot serve', async () => {
    expect(sandbox.variables).toMatchObject({
      PARTNER_APIS_SCANS_BASE_URL: sandbox.urls.services.scans,
      PARTNER_APIS_SCANS_CLIENT_ID: 'sandbox-scans',
    });
    await expect(startSandbox({ services: { Scans: scans } })).rejects.toThrow(
      'services.Scans must be named with lower-case letters and digits',
    );
    await expect(startSandbox({ services: { portal: scans } })).rejects.toThrow(
      'services.portal is served already',
    );
  });
});
