import axios from 'axios';
import createClient from 'openapi-fetch';
import { Agent, request } from 'undici';
import { loadOptional } from './optional-packages.js';
import { benchCredentials } from './credentials.js';

/** The clients B1 compares, in the order of the table. */
export const B1_CLIENTS = [
  'undici.request',
  'global fetch',
  'openapi-fetch',
  'axios',
  'our client',
  'our client + undici transport',
] as const;

export type B1Client = (typeof B1_CLIENTS)[number];

/** One GET of the approvals page, body parsed, through one client; and its cleanup. */
export interface ClientCall {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

// Just enough of the approvals spec for openapi-fetch to type the call, as a user would write it.
interface BenchPaths {
  '/approvals': {
    get: {
      parameters: { query: { employeeNumber: string } };
      responses: { 200: { content: { 'application/json': { employeeNumber?: string } } } };
    };
  };
}

interface ApprovalsClientShape {
  approvals?: { list(employeeNumber: string): Promise<unknown> };
  getApprovals?(employeeNumber: string): Promise<unknown>;
}
interface ApprovalsModule {
  createApprovalsClient(options: Record<string, unknown>): ApprovalsClientShape;
}
interface TransportModule {
  createUndiciFetch(options?: Record<string, unknown>): typeof fetch & { close(): Promise<void> };
}

const EMPLOYEE = '100234';
const noClose = () => Promise.resolve();

async function ourClient(baseUrl: string, withUndici: boolean): Promise<ClientCall | string> {
  const approvals = await loadOptional<ApprovalsModule>('@partner-apis/approvals');
  if (typeof approvals === 'string') return approvals;
  let transport: ReturnType<TransportModule['createUndiciFetch']> | undefined;
  if (withUndici) {
    const loaded = await loadOptional<TransportModule>('@partner-apis/transport-undici');
    if (typeof loaded === 'string') return loaded;
    transport = loaded.createUndiciFetch();
  }
  const client = approvals.createApprovalsClient({
    baseUrl,
    credentials: benchCredentials.approvals,
    ...(transport && { fetch: transport }),
  });
  const list = client.approvals?.list.bind(client.approvals) ?? client.getApprovals?.bind(client);
  if (list === undefined)
    return '@partner-apis/approvals has neither approvals.list nor getApprovals';
  return { call: () => list(EMPLOYEE), close: () => transport?.close() ?? Promise.resolve() };
}

/**
 * Creates the call of one B1 client against `baseUrl` (ending in `/v1`), or says why that
 * client is not available in this checkout.
 */
export async function createClientCall(
  kind: B1Client,
  baseUrl: string,
): Promise<ClientCall | string> {
  const url = `${baseUrl}/approvals?employeeNumber=${EMPLOYEE}`;
  switch (kind) {
    case 'undici.request': {
      // An explicit Agent of the undici package: Node's own fetch may have installed its bundled
      // undici as the global dispatcher, which would make this row measure that copy instead.
      const dispatcher = new Agent();
      return {
        call: async () => (await request(url, { dispatcher })).body.json(),
        close: () => dispatcher.close(),
      };
    }
    case 'global fetch':
      return { call: async () => (await fetch(url)).json(), close: noClose };
    case 'openapi-fetch': {
      const client = createClient<BenchPaths>({ baseUrl });
      const query = { employeeNumber: EMPLOYEE };
      return {
        call: async () => (await client.GET('/approvals', { params: { query } })).data,
        close: noClose,
      };
    }
    case 'axios': {
      const client = axios.create({ baseURL: baseUrl });
      const params = { employeeNumber: EMPLOYEE };
      return {
        call: async () => (await client.get('/approvals', { params })).data,
        close: noClose,
      };
    }
    case 'our client':
      return ourClient(baseUrl, false);
    case 'our client + undici transport':
      return ourClient(baseUrl, true);
  }
}
