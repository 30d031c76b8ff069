import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  startHostileUpstream,
  type HostileRequest,
  type HostileRoutes,
} from './hostile-upstream.js';

/** Credentials of a portal service of the strict upstream. */
export interface StrictPortalCredentials {
  clientId: string;
  clientSecret: string;
  subscriptionKeys: { primary: string; secondary: string };
}

/** A running strict upstream. */
export interface StrictUpstream {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Where each service is served, as the clients' `baseUrl` and `tokenUrl` take them. */
  readonly urls: { tokenUrl: string; exposure: string; riskEngineering: string; approvals: string };
  readonly credentials: {
    exposure: StrictPortalCredentials;
    riskEngineering: StrictPortalCredentials;
    approvals: { clientId: string; clientSecret: string };
  };
  /** An employee with approvals, and how many records each collection holds. */
  readonly fixtures: { employeeNumber: string; records: number };
  /** Every request received so far, in order of arrival. */
  readonly requests: readonly HostileRequest[];
  close(): Promise<void>;
}

/** How the strict upstream differs from the specs' guesses; each is a fact it keeps to. */
export const STRICT_UPSTREAM_FACTS = {
  /**
   * The token request's scopes must be joined by a comma; a space is `invalid_scope`, in a body
   * that carries the common error fields (`code`, `message`, `correlationId`) beside RFC 6749's.
   */
  scopeSeparator: ',',
  /** A read's answer is `{ items: [...], totalCount }`. */
  recordsProperty: 'items',
  /** `offset` is a one-based page index: `offset=1` is the first page of `limit` records. */
  offsetBase: 1,
  /** Approval items carry `approvalDueDate`, which the approvals spec does not name. */
  extraApprovalField: 'approvalDueDate',
  /** A page holds at most this many records, whatever `limit` asks for (up to 1024). */
  pageCap: 25,
  /** A bad request's body: `{ status, title, detail, traceId }`, not the common error body. */
  errorBodyFields: ['status', 'title', 'detail', 'traceId'],
} as const;

const PORTAL = '/portal/open/portal-api';
const READS: Readonly<
  Record<
    string,
    { service: 'exposure' | 'riskEngineering'; scope: string; record: (i: number) => object }
  >
> = {
  [`${PORTAL}/exposure/locations`]: {
    service: 'exposure',
    scope: 'Portal.Api.Exposure',
    record: (i) => ({
      locationId: `LOC-${String(i + 1).padStart(7, '0')}`,
      name: `Site ${i + 1}`,
      country: 'NL',
      modifiedDate: '2026-02-03',
      riskClass: 'B',
    }),
  },
  [`${PORTAL}/riskengineering/Gradings`]: {
    service: 'riskEngineering',
    scope: 'Portal.Api.RiskEngineering',
    record: (i) => ({
      gradingId: `GRD-${String(i + 1).padStart(7, '0')}`,
      locationId: 'LOC-0000001',
      grade: 'B',
      surveyDate: '2025-11-18',
    }),
  },
  [`${PORTAL}/riskengineering/Locations`]: {
    service: 'riskEngineering',
    scope: 'Portal.Api.RiskEngineering',
    record: (i) => ({
      locationId: `LOC-${String(i + 1).padStart(7, '0')}`,
      name: `Site ${i + 1}`,
      country: 'FR',
    }),
  },
};
const RECORDS = 40;
const EMPLOYEE = '100234';

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function problem(response: ServerResponse, detail: string): void {
  send(response, 400, { status: 400, title: 'Bad Request', detail, traceId: randomUUID() });
}

function refused(response: ServerResponse, message: string): void {
  send(
    response,
    401,
    { code: 'authentication_error', message, correlationId: randomUUID() },
    { 'www-authenticate': 'Bearer' },
  );
}

/** An OAuth 2.0 error answer whose body carries the common error fields beside RFC 6749's. */
function oauthError(
  response: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  const code = status === 401 ? 'authentication_error' : 'data_validation';
  send(
    response,
    status,
    {
      code,
      message: description,
      correlationId: randomUUID(),
      error,
      error_description: description,
    },
    { 'cache-control': 'no-store' },
  );
}

function portalCredentials(name: string): StrictPortalCredentials {
  return {
    clientId: `strict-${name}-${randomBytes(4).toString('hex')}`,
    clientSecret: randomBytes(24).toString('base64url'),
    subscriptionKeys: {
      primary: randomBytes(16).toString('hex'),
      secondary: randomBytes(16).toString('hex'),
    },
  };
}

function integer(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

function approvalsResult(): object {
  const item = (id: number, details: string) => ({
    approvableId: id,
    approvableType: 'Requisition',
    approvalStatus: 'pending_approval',
    approvalId: id * 10,
    approvalCreatedDate: '2026-02-01T09:30:00+01:00',
    approvalType: 'user',
    [STRICT_UPSTREAM_FACTS.extraApprovalField]: '2026-02-08T17:00:00+01:00',
    [details]: {},
  });
  return {
    employeeNumber: EMPLOYEE,
    userId: 5120,
    userFullname: 'Jonas Lindqvist',
    requisitionApprovals: [item(1, 'requisitionDetails')],
    invoiceApprovals: [item(2, 'invoiceDetails')],
    expenseReportApprovals: [],
    contractApprovals: [],
  };
}

/**
 * Starts a stand-in of the token, exposure, risk engineering and approvals APIs on 127.0.0.1
 * whose unpublished details differ from the specs' guesses (`STRICT_UPSTREAM_FACTS`): scopes
 * joined by a comma, answers in an envelope, a one-based page index, pages capped below `limit`,
 * approval items with a field the spec does not name, and another error body. Authentication is real: a Basic client
 * and a subscription key for a token, the token and the key on every read.
 */
export async function startStrictUpstream(): Promise<StrictUpstream> {
  const credentials = {
    exposure: portalCredentials('exposure'),
    riskEngineering: portalCredentials('riskengineering'),
    approvals: {
      clientId: `strict-approvals-${randomBytes(4).toString('hex')}`,
      clientSecret: randomBytes(24).toString('base64url'),
    },
  };
  const tokens = new Map<
    string,
    { service: 'exposure' | 'riskEngineering'; scopes: Set<string> }
  >();
  const portals = { exposure: credentials.exposure, riskEngineering: credentials.riskEngineering };
  const keyOf = (request: HostileRequest) => request.headers['ocp-apim-subscription-key'];
  const validKey = (service: 'exposure' | 'riskEngineering', key: unknown) =>
    key === portals[service].subscriptionKeys.primary ||
    key === portals[service].subscriptionKeys.secondary;

  const routes: Record<string, (request: HostileRequest, response: ServerResponse) => void> = {
    '/auth/login/connect/token': (request, response) => {
      const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const pair = basic === undefined ? '' : Buffer.from(basic, 'base64').toString('utf8');
      const [id = '', secret = ''] = pair
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      const service = (Object.keys(portals) as ('exposure' | 'riskEngineering')[]).find(
        (name) => portals[name].clientId === id && portals[name].clientSecret === secret,
      );
      if (service === undefined || !validKey(service, keyOf(request))) {
        oauthError(response, 401, 'invalid_client', 'Client authentication failed.');
        return;
      }
      const form = new URLSearchParams(request.body);
      if (form.get('grant_type') !== 'client_credentials') {
        oauthError(
          response,
          400,
          'unsupported_grant_type',
          'Only client_credentials is supported.',
        );
        return;
      }
      const scopes = (form.get('scope') ?? '').split(STRICT_UPSTREAM_FACTS.scopeSeparator);
      const grantable = new Set([
        'Portal.Api',
        service === 'exposure' ? 'Portal.Api.Exposure' : 'Portal.Api.RiskEngineering',
      ]);
      if (scopes.some((scope) => !grantable.has(scope))) {
        oauthError(
          response,
          400,
          'invalid_scope',
          'The requested scope is invalid, unknown, or malformed.',
        );
        return;
      }
      const token = randomBytes(32).toString('base64url');
      tokens.set(token, { service, scopes: new Set(scopes) });
      send(
        response,
        200,
        {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 1800,
          scope: scopes.join(STRICT_UPSTREAM_FACTS.scopeSeparator),
        },
        { 'cache-control': 'no-store', pragma: 'no-cache' },
      );
    },
    '/approvals/v1/approvals': (request, response) => {
      if (
        request.headers.client_id !== credentials.approvals.clientId ||
        request.headers.client_secret !== credentials.approvals.clientSecret
      ) {
        refused(response, 'Invalid credentials.');
        return;
      }
      const employee = request.query.get('employeeNumber');
      if (employee === null || employee === '') {
        send(response, 400, {
          code: 'data_validation',
          message: 'The request does not adhere to the specification.',
          correlationId: randomUUID(),
          causes: [
            { code: 'required', message: 'employeeNumber is required.', field: '/employeeNumber' },
          ],
        });
        return;
      }
      send(response, 200, approvalsResult());
    },
  };
  for (const [path, read] of Object.entries(READS)) {
    routes[path] = (request, response) => {
      if (!validKey(read.service, keyOf(request))) {
        refused(response, 'The subscription key is missing or not valid for this API.');
        return;
      }
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const issued = token === undefined ? undefined : tokens.get(token);
      if (
        issued === undefined ||
        issued.service !== read.service ||
        !issued.scopes.has(read.scope)
      ) {
        refused(response, 'The access token is invalid or lacks the scope.');
        return;
      }
      const modifiedSince = request.query.get('modifiedSince');
      if (modifiedSince !== null && !/^\d{4}-\d{2}-\d{2}$/.test(modifiedSince)) {
        problem(response, 'modifiedSince must be a date.');
        return;
      }
      const limit = integer(request.query.get('limit'), 128);
      const page = integer(request.query.get('offset'), 1);
      if (limit === undefined || limit < 1 || limit > 1024)
        return problem(response, 'limit must be 1 to 1024.');
      if (page === undefined || page < 1)
        return problem(response, 'offset is a page number from 1.');
      const size = Math.min(limit, STRICT_UPSTREAM_FACTS.pageCap);
      const first = (page - 1) * size;
      const items = Array.from({ length: Math.max(0, Math.min(size, RECORDS - first)) }, (_, i) =>
        read.record(first + i),
      );
      send(response, 200, { [STRICT_UPSTREAM_FACTS.recordsProperty]: items, totalCount: RECORDS });
    };
  }
  const upstream = await startHostileUpstream(routes as HostileRoutes);
  return {
    url: upstream.url,
    urls: {
      tokenUrl: `${upstream.url}/auth/login/connect/token`,
      exposure: `${upstream.url}/portal`,
      riskEngineering: `${upstream.url}/portal`,
      approvals: `${upstream.url}/approvals/v1`,
    },
    credentials,
    fixtures: { employeeNumber: EMPLOYEE, records: RECORDS },
    requests: upstream.requests,
    close: () => upstream.close(),
  };
}
