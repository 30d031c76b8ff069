/** The four services of the partner platform, as the CLI and its config file name them. */
export const SERVICES = ['exposure', 'riskEngineering', 'liability', 'approvals'] as const;

export type ServiceName = (typeof SERVICES)[number];

/** The `PARTNER_APIS_<SERVICE>_` prefix of each service's environment variables. */
export const VARIABLE_PREFIX: Readonly<Record<ServiceName, string>> = {
  exposure: 'PARTNER_APIS_EXPOSURE_',
  riskEngineering: 'PARTNER_APIS_RISKENGINEERING_',
  liability: 'PARTNER_APIS_LIABILITY_',
  approvals: 'PARTNER_APIS_APPROVALS_',
};

/** How each service is called in messages. */
export const SERVICE_TITLE: Readonly<Record<ServiceName, string>> = {
  exposure: 'exposure',
  riskEngineering: 'risk engineering',
  liability: 'liability',
  approvals: 'approvals',
};

/** The token endpoint shared by exposure and risk engineering when neither names its own. */
export const SHARED_TOKEN_URL_VARIABLE = 'PARTNER_APIS_TOKEN_URL';

/**
 * Chooses the major version of the liability API a command calls (`liability.major` in a config
 * file). It says nothing about where requests go, so on its own it configures nothing.
 */
export const LIABILITY_MAJOR_VARIABLE = 'PARTNER_APIS_LIABILITY_MAJOR';

/**
 * The variable of the base URL of one major of the liability API (`liability.baseUrls.<major>`
 * in a config file), for an environment where it is not the base URL with its `/v<k>` segment
 * swapped for `/v<major>`.
 */
export function liabilityMajorBaseUrlVariable(major: number | string): string {
  return `PARTNER_APIS_LIABILITY_V${major}_BASE_URL`;
}

/** The config file's setting names and the variable suffix each stands for. */
export const SETTING_SUFFIX = {
  baseUrl: 'BASE_URL',
  tokenUrl: 'TOKEN_URL',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
  subscriptionKey: 'SUBSCRIPTION_KEY',
  subscriptionKeySecondary: 'SUBSCRIPTION_KEY_SECONDARY',
  secretCreatedAt: 'SECRET_CREATED_AT',
  secretExpiresAt: 'SECRET_EXPIRES_AT',
  tier: 'TIER',
} as const;

export type SettingName = keyof typeof SETTING_SUFFIX;

/** Suffixes whose values are credentials: never printed, and blanked out of any message. */
export const SECRET_SUFFIXES: readonly string[] = [
  'CLIENT_SECRET',
  'SUBSCRIPTION_KEY',
  'SUBSCRIPTION_KEY_SECONDARY',
  'API_KEY',
  'PASSWORD',
  'TOKEN',
];

/**
 * The environments a config file can describe: the upstreams' production and UAT, their
 * mocking services (`mock`: fixed dummy data, no credentials checked), and a sandbox.
 */
export const ENVIRONMENTS = ['production', 'uat', 'mock', 'sandbox'] as const;

export type EnvironmentName = (typeof ENVIRONMENTS)[number];
