import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The `/internal` entry of a service package as `pnpm new-service` makes one, written by hand:
 * the generated operation table (the Museum API's shape: a header parameter, a PNG answer, a
 * write) and `clientFromEnv`, whose client calls `PARTNER_APIS_MUSEUM_BASE_URL` with HTTP basic
 * auth from `_USERNAME` and `_PASSWORD`.
 */
const INTERNAL = `
const security = [['museumAuth']];
export const operations = {
  getMuseumHours: {
    operationId: 'getMuseumHours', resource: 'hours', verb: 'get', method: 'GET',
    path: '/museum-hours', summary: 'Opening hours of the museum',
    arguments: [{ in: 'params', required: false }],
    parameters: [
      { name: 'startDate', in: 'query', required: false, type: 'string', format: 'date' },
      { name: 'X-Museum-Branch', in: 'header', required: false, type: 'string' },
      { name: 'X-Request-Id', in: 'header', required: false, type: 'string', role: 'request-id' },
    ],
    response: { kind: 'json', mediaType: 'application/json', type: 'array' },
    security,
  },
  getTicketCode: {
    operationId: 'getTicketCode', resource: 'tickets', verb: 'getCode', method: 'GET',
    path: '/tickets/{ticketId}/qr', summary: 'The QR code of a ticket',
    arguments: [{ in: 'path', name: 'ticketId' }],
    parameters: [{ name: 'ticketId', in: 'path', required: true, type: 'string' }],
    response: { kind: 'binary', mediaType: 'image/png' },
    security,
  },
  createSpecialEvent: {
    operationId: 'createSpecialEvent', resource: 'specialEvents', verb: 'create', method: 'POST',
    path: '/special-events', summary: 'Create a special event', write: true,
    arguments: [{ in: 'body', required: true }],
    parameters: [],
    body: { required: true, mediaType: 'application/json', kind: 'json', type: 'object' },
    response: { kind: 'json', mediaType: 'application/json', type: 'object' },
    security,
  },
};
export const service = {
  operations,
  securitySchemes: { museumAuth: { type: 'http', scheme: 'basic' } },
  tracingHeaders: { requestId: 'X-Request-Id' },
};
export function clientFromEnv(env, overrides = {}) {
  const base = env.PARTNER_APIS_MUSEUM_BASE_URL;
  const authorization =
    'Basic ' + Buffer.from(env.PARTNER_APIS_MUSEUM_USERNAME + ':' + env.PARTNER_APIS_MUSEUM_PASSWORD).toString('base64');
  const send = async (path, headers = {}) => {
    const response = await fetch(base + path, {
      headers: { authorization, 'user-agent': overrides.userAgent, ...headers },
    });
    return response.headers.get('content-type') === 'image/png' ? response.blob() : response.json();
  };
  return {
    hours: {
      get: (params = {}) => {
        const { 'X-Museum-Branch': branch, ...query } = params;
        return send('/museum-hours?' + new URLSearchParams(query), branch ? { 'x-museum-branch': branch } : {});
      },
    },
    tickets: { getCode: (ticketId) => send('/tickets/' + ticketId + '/qr') },
    specialEvents: { create: () => Promise.reject(new Error('not in this stand-in')) },
  };
}
`;

/**
 * A folder with a `services.json` that lists `museum`, whose package is installed in the
 * folder's own `node_modules`, as `pnpm new-service` leaves a new service.
 *
 * @example
 * const servicesFile = await servicesWithMuseum();
 */
export async function servicesWithMuseum(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-apis-services-'));
  const pkg = join(dir, 'node_modules', '@partner-apis', 'museum');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: '@partner-apis/museum',
      type: 'module',
      exports: { './internal': './internal.js' },
    }),
  );
  await writeFile(join(pkg, 'internal.js'), INTERNAL);
  const file = join(dir, 'services.json');
  const museum = { name: 'museum', package: '@partner-apis/museum', description: 'the museum' };
  await writeFile(file, JSON.stringify([museum]));
  return file;
}
