import type { ApprovalsClient } from '@partner-apis/approvals';
import { ConfigurationError } from '@partner-apis/errors';
import type { ExposureClient } from '@partner-apis/exposure';
import type { LiabilityClient } from '@partner-apis/liability';
import type { RiskEngineeringClient } from '@partner-apis/riskengineering';
import { chooseLiabilityMajor, liabilityEndpoint } from './config/liability-major.js';
import { VARIABLE_PREFIX, type ServiceName } from './config/services.js';
import { settingName } from './config/settings.js';
import type { LiabilityMajors } from './liability-majors.js';
import type { ServiceSession } from './service-session.js';

/** Sent as `User-Agent`, so the service teams can tell the CLI's calls apart. */
const USER_AGENT = 'partner-apis-cli';

/** Client options and the variable each is read from, for messages about a bad value. */
const OPTION_VARIABLES: Readonly<Record<string, string>> = {
  baseUrl: 'BASE_URL',
  tokenUrl: 'TOKEN_URL',
  'credentials.clientId': 'CLIENT_ID',
  'credentials.clientSecret': 'CLIENT_SECRET',
  'credentials.subscriptionKeys.primary': 'SUBSCRIPTION_KEY',
  'credentials.subscriptionKeys.secondary': 'SUBSCRIPTION_KEY_SECONDARY',
  'credentials.secretCreatedAt': 'SECRET_CREATED_AT',
  'credentials.secretExpiresAt': 'SECRET_EXPIRES_AT',
  tier: 'TIER',
};

/** The options every client of a command run shares: its User-Agent and the `--debug` log. */
function common(session: ServiceSession) {
  return {
    userAgent: USER_AGENT,
    ...(session.logger === undefined ? {} : { logger: session.logger }),
  };
}

// Each service package is loaded when a command first needs it, so `--help` and a command of
// one service start without loading the other three.

/**
 * Creates a client; a bad option is reported under the variable (or config setting) it came
 * from: `variables` names those not read from `PARTNER_APIS_<SERVICE>_<SUFFIX>`.
 */
function create<T>(
  session: ServiceSession,
  service: ServiceName,
  build: () => T,
  variables: Readonly<Record<string, string>> = {},
): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const suffix = OPTION_VARIABLES[error.option];
    if (suffix === undefined) throw error;
    const problem = error.message.slice(error.option.length + 2);
    const variable = variables[error.option] ?? `${VARIABLE_PREFIX[service]}${suffix}`;
    throw new ConfigurationError(settingName(session.settings, variable), problem);
  }
}

/**
 * The exposure client of a command run.
 *
 * @example
 * const exposure = await exposureClient(session);
 */
export async function exposureClient(session: ServiceSession): Promise<ExposureClient> {
  const { createExposureClient, fromEnv } = await import('@partner-apis/exposure');
  const variables = await session.variables();
  return create(session, 'exposure', () =>
    createExposureClient({ ...fromEnv(variables), ...common(session) }),
  );
}

/**
 * The risk engineering client of a command run.
 *
 * @example
 * const riskEngineering = await riskEngineeringClient(session);
 */
export async function riskEngineeringClient(
  session: ServiceSession,
): Promise<RiskEngineeringClient> {
  const { createRiskEngineeringClient, fromEnv } = await import('@partner-apis/riskengineering');
  const variables = await session.variables();
  return create(session, 'riskEngineering', () =>
    createRiskEngineeringClient({ ...fromEnv(variables), ...common(session) }),
  );
}

/**
 * The liability client of a command run, of the major chosen by `major` (`--major`), the
 * configuration or the default (the highest in `majors`), at the base URL of that major.
 *
 * @example
 * const liability = await liabilityClient(session, LIABILITY_MAJORS, options.major);
 */
export async function liabilityClient(
  session: ServiceSession,
  majors: LiabilityMajors,
  major?: string,
): Promise<LiabilityClient> {
  const choice = chooseLiabilityMajor(Object.keys(majors).map(Number), major, session.settings);
  const variables = await session.variables();
  const endpoint = liabilityEndpoint(choice, variables, session.settings, session.sandboxUrls);
  const { createLiabilityClient, fromEnv } = await majors[choice.major]!();
  return create(
    session,
    'liability',
    () =>
      createLiabilityClient({
        ...fromEnv(variables),
        ...(endpoint === undefined ? {} : { baseUrl: endpoint.baseUrl }),
        ...common(session),
      }),
    endpoint === undefined ? {} : { baseUrl: endpoint.variable },
  );
}

/**
 * The approvals client of a command run; `tier` (from `--tier`) wins over the configured one.
 *
 * @example
 * const approvals = await approvalsClient(session, 'silver');
 */
export async function approvalsClient(
  session: ServiceSession,
  tier?: 'bronze' | 'silver' | 'gold',
): Promise<ApprovalsClient> {
  const { createApprovalsClient, fromEnv } = await import('@partner-apis/approvals');
  const variables = await session.variables();
  return create(session, 'approvals', () =>
    createApprovalsClient({
      ...fromEnv(variables),
      ...(tier === undefined ? {} : { tier }),
      ...common(session),
    }),
  );
}
