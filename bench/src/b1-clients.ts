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
  /** What the row measures, when its name does not say it all. */
  via?: string;
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
}
interface ApprovalsModule {
  createApprovalsClient(options: Record<string, unknown>): ApprovalsClientShape;
}
interface TransportModule {
  createUndiciFetch(options?: Record<string, unknown>): typeof fetch & { close(): Promise<void> };
}
interface ServiceCoreModule {
  createServiceClient<Paths extends object>(
    options: Record<string, unknown>,
  ): {
    raw: ReturnType<typeof createClient<Paths>>;
  };
  expectData<T>(result: { data?: T; response: Response }, operation: string): T;
}
interface ClientIdAuthModule {
  clientIdHeaders(credentials: { clientId: string; clientSecret: string }): unknown;
}

const EMPLOYEE = '100234';
const noClose = () => Promise.resolve();

/**
 * The approvals client on the core pipeline (auth headers, tracing, retries; no rate limit). Until
 * the approvals package is built on core, the same stack is assembled here from core and auth.
 */
async function approvalsCall(
  baseUrl: string,
  fetch: typeof globalThis.fetch | undefined,
): Promise<{ call: () => Promise<unknown>; via: string } | string> {
  const approvals = await loadOptional<ApprovalsModule>('@partner-apis/approvals');
  if (typeof approvals === 'string') return approvals;
  const client = approvals.createApprovalsClient({
    baseUrl,
    credentials: benchCredentials.approvals,
    ...(fetch && { fetch }),
  });
  if (client.approvals !== undefined) {
    const { approvals: resource } = client;
    return { call: () => resource.list(EMPLOYEE), via: 'createApprovalsClient().approvals.list' };
  }
  const core = await loadOptional<ServiceCoreModule>('@partner-apis/core');
  const auth = await loadOptional<ClientIdAuthModule>('@partner-apis/auth');
  if (typeof core === 'string') return core;
  if (typeof auth === 'string') return auth;
  const { raw } = core.createServiceClient<BenchPaths>({
    baseUrl,
    auth: auth.clientIdHeaders(benchCredentials.approvals),
    ...(fetch && { fetch }),
  });
  const query = { employeeNumber: EMPLOYEE };
  return {
    call: async () =>
      core.expectData(await raw.GET('/approvals', { params: { query } }), 'GET /approvals'),
    via: 'createServiceClient of @partner-apis/core with clientIdHeaders (the approvals package is not on core yet)',
  };
}

async function ourClient(baseUrl: string, withUndici: boolean): Promise<ClientCall | string> {
  let transport: ReturnType<TransportModule['createUndiciFetch']> | undefined;
  if (withUndici) {
    const loaded = await loadOptional<TransportModule>('@partner-apis/transport-undici');
    if (typeof loaded === 'string') return loaded;
    transport = loaded.createUndiciFetch();
  }
  const made = await approvalsCall(baseUrl, transport);
  if (typeof made === 'string') return made;
  return { ...made, close: () => transport?.close() ?? Promise.resolve() };
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
