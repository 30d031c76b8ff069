// Requests the tests send, written out with plain fetch so the tests depend on no client.
import { randomUUID } from 'node:crypto';
import type { Sandbox } from './sandbox.js';

export const EXPOSURE_SCOPES = 'Portal.Api Portal.Api.Exposure';
export const RISK_ENGINEERING_SCOPES = 'Portal.Api Portal.Api.RiskEngineering';

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** POSTs a token request for a portal service, with its primary key unless told otherwise. */
export function requestToken(
  sb: Sandbox,
  service: 'exposure' | 'riskEngineering',
  form: string,
  overrides: Record<string, string> = {},
): Promise<Response> {
  const credentials = sb.credentials[service];
  return fetch(sb.urls.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: basic(credentials.clientId, credentials.clientSecret),
      'ocp-apim-subscription-key': credentials.subscriptionKeys.primary,
      'content-type': 'application/x-www-form-urlencoded',
      ...overrides,
    },
    body: form,
  });
}

/** A fresh access token of a portal service with that service's scopes. */
export async function tokenOf(
  sb: Sandbox,
  service: 'exposure' | 'riskEngineering',
): Promise<string> {
  const scopes = service === 'exposure' ? EXPOSURE_SCOPES : RISK_ENGINEERING_SCOPES;
  const response = await requestToken(
    sb,
    service,
    `grant_type=client_credentials&scope=${encodeURIComponent(scopes)}`,
  );
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/** GETs a path of a portal service with a valid token and key, unless headers say otherwise. */
export async function portalGet(
  sb: Sandbox,
  service: 'exposure' | 'riskEngineering',
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${sb.urls[service]}${path}`, {
    headers: {
      authorization: `Bearer ${await tokenOf(sb, service)}`,
      'ocp-apim-subscription-key': sb.credentials[service].subscriptionKeys.primary,
      ...headers,
    },
  });
}

export const LOCATIONS_PATH = '/open/portal-api/exposure/locations';
export const GRADINGS_PATH = '/open/portal-api/riskengineering/Gradings';
export const RISK_LOCATIONS_PATH = '/open/portal-api/riskengineering/Locations';

/** Headers of a valid liability request with a fresh request id. */
export function liabilityHeaders(
  sb: Sandbox,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    authorization: basic(sb.credentials.liability.clientId, sb.credentials.liability.clientSecret),
    'x-z-request-id': randomUUID(),
    'x-z-conversation-id': 'conversation-1',
    'content-type': 'application/json',
    ...extra,
  };
}

/** GETs the approvals of an employee with valid client headers. */
export function getApprovals(
  sb: Sandbox,
  employeeNumber: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(
    `${sb.urls.approvals}/approvals?employeeNumber=${encodeURIComponent(employeeNumber)}`,
    {
      headers: {
        client_id: sb.credentials.approvals.clientId,
        client_secret: sb.credentials.approvals.clientSecret,
        'x-z-request-id': randomUUID(),
        ...headers,
      },
    },
  );
}
