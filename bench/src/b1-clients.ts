import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, get } from 'node:http';
import type * as Approvals from '@partner-apis/approvals';
import type * as TransportUndici from '@partner-apis/transport-undici';
import axios from 'axios';
import createClient from 'openapi-fetch';
import { Agent, request } from 'undici';
import { benchCredentials } from './credentials.js';
import { loadOptional } from './optional-packages.js';

/**
 * The clients B1 compares, in the order of the table and of a round. The two sides of each B1
 * goal (our client and the raw client it is measured against) are back to back, so the
 * machine's speed, which drifts over seconds here, changes little between them; rotated each
 * round, as a cycle, each pair stays adjacent. P1's pair (our default client and
 * `undici.request`) is not adjacent.
 */
export const B1_CLIENTS = [
  'node:http keep-alive',
  'our client, default transport',
  'global fetch',
  'openapi-fetch',
  'axios',
  'undici.request',
  'our client + undici transport',
] as const;

export type B1Client = (typeof B1_CLIENTS)[number];

/** The clients B1 also measures over in-memory connections: those that take an `http.Agent`. */
export const B1_IN_MEMORY_CLIENTS = [
  'node:http keep-alive',
  'our client, default transport',
] as const satisfies readonly B1Client[];

/** One GET of the approvals page, body parsed, through one client; and its cleanup. */
export interface ClientCall {
  call(): Promise<unknown>;
  close(): Promise<void>;
  /** What the row measures, when its name does not say it all. */
  via?: string;
}

type ApprovalsModule = typeof Approvals;
type TransportModule = typeof TransportUndici;

const EMPLOYEE = '100234';
const noClose = () => Promise.resolve();

/** The approvals client: auth headers, tracing, retries; no rate limit. */
async function approvalsCall(
  baseUrl: string,
  fetch: typeof globalThis.fetch | undefined,
  agent?: HttpAgent,
): Promise<{ call: () => Promise<unknown>; via: string } | string> {
  const approvals = await loadOptional<ApprovalsModule>('@partner-apis/approvals');
  if (typeof approvals === 'string') return approvals;
  const { approvals: resource } = approvals.createApprovalsClient({
    baseUrl,
    credentials: benchCredentials.approvals,
    ...(fetch && { fetch }),
    ...(agent && { agent }),
  });
  return {
    call: () => resource.list(EMPLOYEE),
    via: `createApprovalsClient(${fetch ? '{ fetch: createUndiciFetch() }' : ''}).approvals.list`,
  };
}

async function ourClient(
  baseUrl: string,
  withUndici: boolean,
  agent?: HttpAgent,
): Promise<ClientCall | string> {
  let transport: ReturnType<TransportModule['createUndiciFetch']> | undefined;
  if (withUndici) {
    const loaded = await loadOptional<TransportModule>('@partner-apis/transport-undici');
    if (typeof loaded === 'string') return loaded;
    transport = loaded.createUndiciFetch();
  }
  const made = await approvalsCall(baseUrl, transport, agent);
  if (typeof made === 'string') return made;
  return { ...made, close: () => transport?.close() ?? Promise.resolve() };
}

/** A GET with Node's own http module and a keep-alive agent, the body parsed as JSON. */
export function httpGetJson(url: string, agent: HttpAgent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
        else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    }).on('error', reject);
  });
}

/**
 * Creates the call of one B1 client against `baseUrl` (ending in `/v1`), or says why that
 * client is not available in this checkout. With `agent`, the clients of
 * `B1_IN_MEMORY_CLIENTS` connect through it.
 */
export async function createClientCall(
  kind: B1Client,
  baseUrl: string,
  agent?: HttpAgent,
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
    case 'node:http keep-alive': {
      const via = agent ?? new HttpAgent({ keepAlive: true });
      return { call: () => httpGetJson(url, via), close: async () => via.destroy() };
    }
    case 'global fetch':
      return { call: async () => (await fetch(url)).json(), close: noClose };
    case 'openapi-fetch': {
      const client = createClient<Approvals.paths>({ baseUrl });
      const query = { employeeNumber: EMPLOYEE };
      return {
        // The spec asks for a request id on every call, as our client sends.
        call: async () => {
          const header = { 'X-Z-Request-Id': randomUUID() };
          return (await client.GET('/approvals', { params: { query, header } })).data;
        },
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
    case 'our client, default transport':
      return ourClient(baseUrl, false, agent);
    case 'our client + undici transport':
      return ourClient(baseUrl, true);
  }
}
