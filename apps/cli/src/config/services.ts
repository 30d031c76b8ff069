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
];
