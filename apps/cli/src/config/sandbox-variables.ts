import type { Sandbox } from '@partner-apis/sandbox';

/**
 * The `PARTNER_APIS_*` variables that point every service at a sandbox: what the CLI uses for
 * its embedded sandbox, and what a script sets to run the CLI against a sandbox of its own.
 */
export function sandboxVariables(
  sandbox: Pick<Sandbox, 'urls' | 'credentials'>,
): Record<string, string> {
  const { urls, credentials } = sandbox;
  const portal = (prefix: string, baseUrl: string, c: typeof credentials.exposure) => ({
    [`${prefix}BASE_URL`]: baseUrl,
    [`${prefix}TOKEN_URL`]: urls.tokenUrl,
    [`${prefix}CLIENT_ID`]: c.clientId,
    [`${prefix}CLIENT_SECRET`]: c.clientSecret,
    [`${prefix}SUBSCRIPTION_KEY`]: c.subscriptionKeys.primary,
    [`${prefix}SUBSCRIPTION_KEY_SECONDARY`]: c.subscriptionKeys.secondary,
  });
  return {
    ...portal('PARTNER_APIS_EXPOSURE_', urls.exposure, credentials.exposure),
    ...portal('PARTNER_APIS_RISKENGINEERING_', urls.riskEngineering, credentials.riskEngineering),
    PARTNER_APIS_LIABILITY_BASE_URL: urls.liability,
    PARTNER_APIS_LIABILITY_CLIENT_ID: credentials.liability.clientId,
    PARTNER_APIS_LIABILITY_CLIENT_SECRET: credentials.liability.clientSecret,
    PARTNER_APIS_APPROVALS_BASE_URL: urls.approvals,
    PARTNER_APIS_APPROVALS_CLIENT_ID: credentials.approvals.clientId,
    PARTNER_APIS_APPROVALS_CLIENT_SECRET: credentials.approvals.clientSecret,
    PARTNER_APIS_APPROVALS_TIER: credentials.approvals.tier,
  };
}
