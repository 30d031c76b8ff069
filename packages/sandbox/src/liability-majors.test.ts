import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from './generated/liability.document.js';
import { liabilityHeaders } from './sandbox.fixture.js';
import { SandboxConfigError, startSandbox, type Sandbox } from './index.js';

/** A v2 of the liability spec, as an upstream's new major might be: a seller needs its register number. */
function liabilityV2(): object {
  const v2 = structuredClone(openapiDocument) as {
    info: { version: string };
    components: { schemas: { Seller: { required: string[] } } };
  };
  v2.info.version = '2.0.0';
  v2.components.schemas.Seller.required = ['name', 'address', 'registrationNumber'];
  return v2;
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ liabilityMajors: [liabilityV2()] });
});
afterAll(() => sb.close());

const seller = { name: 'Nordlicht Home GmbH', address: { country: 'DE' } };

function createSeller(baseUrl: string, body: unknown) {
  return fetch(`${baseUrl}/parties/sellers`, {
    method: 'POST',
    headers: liabilityHeaders(sb),
    body: JSON.stringify(body),
  });
}

describe('two majors of the liability API side by side', () => {
  it('serves each major under its own path, the built-in one as urls.liability', () => {
    const origin = sb.urls.origin;
    expect(sb.urls.liabilityMajors).toEqual({
      1: `${origin}/liability/v1/sandbox`,
      2: `${origin}/liability/v2/sandbox`,
    });
    expect(sb.urls.liability).toBe(sb.urls.liabilityMajors[1]);
    expect(sb.routes().map((r) => r.id)).toEqual(
      expect.arrayContaining(['liability.createSeller', 'liability.v2.createSeller']),
    );
  });

  it('validates each major against its own spec, over one store of sellers and quotes', async () => {
    const v1 = await createSeller(sb.urls.liabilityMajors[1]!, seller);
    expect(v1.status).toBe(201);
    const refused = await createSeller(sb.urls.liabilityMajors[2]!, seller);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('registrationNumber');
    const v2 = await createSeller(sb.urls.liabilityMajors[2]!, {
      ...seller,
      registrationNumber: 'HRB 214477',
    });
    expect(v2.status).toBe(201);
    const { sellerId } = (await v2.json()) as { sellerId: string };
    const quote = await fetch(`${sb.urls.liabilityMajors[1]}/quotes?sellerId=${sellerId}`, {
      headers: liabilityHeaders(sb),
    });
    expect(quote.status).toBe(200);
    expect(sb.stats().routes['liability.v2.createSeller']?.requests).toBe(2);
  });

  it('refuses a document that is no major of its own', async () => {
    await expect(startSandbox({ liabilityMajors: [openapiDocument] })).rejects.toThrow(
      new SandboxConfigError('liabilityMajors[0]: the liability API v1 is served already', {
        option: 'liabilityMajors[0]',
        problem: 'the liability API v1 is served already',
      }),
    );
    await expect(startSandbox({ liabilityMajors: [{ info: {} }] })).rejects.toThrow(
      'liabilityMajors[0] must be an OpenAPI document with paths and info.version',
    );
    await expect(
      startSandbox({ liabilityMajors: {} as unknown as object[] }),
    ).rejects.toBeInstanceOf(SandboxConfigError);
  });

  it('names the option of a spec the operation model cannot read, apart from the problem', async () => {
    const v3 = {
      ...liabilityV2(),
      info: { title: 'v3', version: '3.0.0' },
      paths: { '/sellers': { get: { responses: { 200: { description: 'ok' } } } } },
    };
    const refused = await startSandbox({ liabilityMajors: [liabilityV2(), v3] }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SandboxConfigError);
    expect(refused).toMatchObject({
      option: 'liabilityMajors[1]',
      problem: 'GET /sellers has no operationId',
      message: 'the liability.v3 spec: GET /sellers has no operationId',
    });
  });
});
