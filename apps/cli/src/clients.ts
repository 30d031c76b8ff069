import type { ApprovalsClient } from '@partner-apis/approvals';
import { TokenCache, isLoopbackHost, type CachedToken } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { ExposureClient } from '@partner-apis/exposure';
import type { LiabilityClient } from '@partner-apis/liability';
import type { RiskEngineeringClient } from '@partner-apis/riskengineering';
import { chooseLiabilityMajor, liabilityEndpoint } from './config/liability-major.js';
import {
  SERVICE_TITLE,
  SETTING_SUFFIX,
  VARIABLE_PREFIX,
  type ServiceName,
} from './config/services.js';
import { proxyFetch } from './proxy.js';
import { variablePrefix, type ServiceEntry, type ServiceModule } from './service-registry.js';
import { settingName, type Variables } from './config/settings.js';
import type { LiabilityMajors } from './liability-majors.js';
import type { ServiceSession } from './service-session.js';

/** Sent as `User-Agent`, so the service teams can tell the CLI's calls apart. */
const USER_AGENT = 'partner-apis-cli';

/**
 * What the clients send a mocking service (`--env mock`) for credentials: the documents say it
 * checks none, so none are asked for. Long and plain, so no message is blanked for holding it.
 */
const MOCK_CREDENTIAL = 'not-checked-by-the-mocking-service';

/**
 * A token cache that holds a token for every client and never asks for one: the exposure and
 * risk engineering mocking service never checks authentication, so no token is requested.
 */
class MockTokens extends TokenCache {
  readonly #token: CachedToken = {
    accessToken: MOCK_CREDENTIAL,
    expiresAt: Number.MAX_SAFE_INTEGER,
    refreshAt: Number.MAX_SAFE_INTEGER,
    lifetimeSeconds: Number.MAX_SAFE_INTEGER,
  };

  override get(): CachedToken {
    return this.#token;
  }

  override singleFlight(): Promise<CachedToken> {
    return Promise.resolve(this.#token);
  }
}

/**
 * The variables a client of `service` is created from: the settings, and against a mocking
 * service the credentials it does not check, where the settings give none.
 */
export async function variablesOf(
  session: ServiceSession,
  service: ServiceName | string,
): Promise<Variables> {
  const variables = await session.variables();
  if (session.settings.environment !== 'mock') return variables;
  const prefix = prefixOf(service);
  const baseUrl = variables[`${prefix}BASE_URL`];
  return {
    [`${prefix}CLIENT_ID`]: MOCK_CREDENTIAL,
    [`${prefix}CLIENT_SECRET`]: MOCK_CREDENTIAL,
    [`${prefix}SUBSCRIPTION_KEY`]: MOCK_CREDENTIAL,
    // Never asked: the token cache holds a token.
    ...(baseUrl === undefined ? {} : { [`${prefix}TOKEN_URL`]: baseUrl }),
    ...variables,
  };
}

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

/**
 * What a client of the command line does with a value that breaks what the spec only assumes
 * (`x-upstream-gap`): refuse it against a sandbox on this machine, the embedded one or one a
 * variable points at, since it would refuse the value itself; warn and send it elsewhere, since
 * the real service may accept what the spec only guessed.
 */
export function assumptionPolicy(
  embeddedSandbox: boolean,
  baseUrl: string | undefined,
): 'refuse' | 'warn' {
  const onThisMachine =
    baseUrl !== undefined && URL.canParse(baseUrl) && isLoopbackHost(new URL(baseUrl).hostname);
  return embeddedSandbox || onThisMachine ? 'refuse' : 'warn';
}

/**
 * The options every client of a command run shares: its User-Agent, its logger (warnings as the
 * CLI's own, the `--debug` log), the proxy of `HTTPS_PROXY` for a configured environment (never
 * for a sandbox on 127.0.0.1), and what to do with a value that breaks what the spec only
 * assumes (`x-upstream-gap`): against a sandbox on this machine, which refuses such values
 * itself, it is a usage error before anything is sent; against a real environment, which may
 * accept what we only guessed, it is sent with a warning.
 */
async function common(session: ServiceSession, service: ServiceName | string) {
  const fetch = session.sandboxUrls === undefined ? await proxyFetch(session.env) : undefined;
  const prefix = prefixOf(service);
  const baseUrl = (await session.variables())[`${prefix}BASE_URL`];
  const mock = session.settings.environment === 'mock';
  return {
    ...(mock && (service === 'exposure' || service === 'riskEngineering')
      ? { tokenCache: new MockTokens() }
      : {}),
    userAgent: USER_AGENT,
    logger: session.logger(
      `the ${SERVICE_TITLE[service as ServiceName] ?? service} client`,
      (code) =>
        code === 'PARTNER_APIS_SECRET_EXPIRY'
          ? `Then update ${settingName(session.settings, `${prefix}CLIENT_SECRET`)}` +
            ` and ${settingName(session.settings, `${prefix}SECRET_CREATED_AT`)};` +
            ' `partner-apis credentials check` shows the date of every secret.'
          : undefined,
    ),
    assumptions: assumptionPolicy(session.sandboxUrls !== undefined, baseUrl),
    ...(fetch === undefined ? {} : { fetch }),
  };
}

/** The prefix of a service's variables: one of the four by its config name, else by its command. */
function prefixOf(service: ServiceName | string): string {
  return VARIABLE_PREFIX[service as ServiceName] ?? variablePrefix(service);
}

// Each service package is loaded when a command first needs it, so `--help` and a command of
// one service start without loading the other three.

/** The setting of the config file a service's variable stands for (`clientId`), if any. */
function settingOf(service: ServiceName | string, variable: string): string | undefined {
  const prefix = prefixOf(service);
  if (!variable.startsWith(prefix)) return undefined;
  const suffix = variable.slice(prefix.length);
  return Object.entries(SETTING_SUFFIX).find(([, value]) => value === suffix)?.[0];
}

/**
 * The variables that are not set, all in one error: as the settings missing from the profile or
 * environment of a config file when one gives this service's settings (that is where the person
 * adds them), else as the variables.
 */
function missingSettings(
  session: ServiceSession,
  service: ServiceName | string,
  variables: readonly string[],
): ConfigurationError {
  const { origin } = session.settings;
  const settings = variables.map((variable) => settingOf(service, variable));
  const names = (list: readonly string[]) =>
    list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!}`;
  const verb = variables.length === 1 ? 'is' : 'are';
  if (origin === undefined || settings.some((setting) => setting === undefined)) {
    return new ConfigurationError(names(variables), `${verb} not set`);
  }
  const where = origin.object.startsWith('profiles.')
    ? `profile ${origin.object.slice('profiles.'.length)}`
    : `environment ${origin.object.slice('environments.'.length)}`;
  return new ConfigurationError(
    `${origin.file}: ${names(settings.map((setting) => `${origin.object}.${service}.${setting!}`))}`,
    `${verb} missing from ${where} (or set ${names(variables)})`,
  );
}

/**
 * Creates a client from `variables`; a bad option is reported under the variable (or config
 * setting) it came from: `names` gives those not read from `PARTNER_APIS_<SERVICE>_<SUFFIX>`.
 * Every variable that is not set is reported at once, not one per run.
 */
function create<T>(
  session: ServiceSession,
  service: ServiceName | string,
  variables: Variables,
  build: (variables: Variables) => T,
  names: Readonly<Record<string, string>> = {},
): T {
  const missing: string[] = [];
  let given = variables;
  // Bounded: each turn gives one more of the few variables a client reads a stand-in value.
  for (let turn = 0; turn <= Object.keys(SETTING_SUFFIX).length; turn += 1) {
    try {
      const client = build(given);
      if (missing.length === 0) return client;
      break;
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      const variable = /^PARTNER_APIS_[A-Z0-9_]+$/.exec(error.option)?.[0];
      if (
        variable !== undefined &&
        /^is not set/.test(error.problem) &&
        !missing.includes(variable)
      ) {
        missing.push(variable);
        // A stand-in so the next turn finds the next missing variable, if any.
        given = {
          ...given,
          [variable]: variable.endsWith('_URL') ? 'https://example.invalid' : 'x',
        };
        continue;
      }
      const suffix = OPTION_VARIABLES[error.option];
      const named =
        variable ??
        (suffix === undefined
          ? undefined
          : (names[error.option] ?? `${prefixOf(service)}${suffix}`));
      // A value that was given and is wrong comes first; one of the stand-ins tells nothing.
      if (named === undefined || missing.includes(named)) {
        if (missing.length > 0) break;
        throw error;
      }
      throw new ConfigurationError(settingName(session.settings, named), error.problem);
    }
  }
  throw missingSettings(session, service, missing);
}

/**
 * The exposure client of a command run.
 */
export async function exposureClient(session: ServiceSession): Promise<ExposureClient> {
  const { createExposureClient, fromEnv } = await import('@partner-apis/exposure');
  const variables = await variablesOf(session, 'exposure');
  const shared = await common(session, 'exposure');
  return create(session, 'exposure', variables, (given) =>
    createExposureClient({ ...fromEnv(given), ...shared }),
  );
}

/**
 * The risk engineering client of a command run.
 */
export async function riskEngineeringClient(
  session: ServiceSession,
): Promise<RiskEngineeringClient> {
  const { createRiskEngineeringClient, fromEnv } = await import('@partner-apis/riskengineering');
  const variables = await variablesOf(session, 'riskEngineering');
  const shared = await common(session, 'riskEngineering');
  return create(session, 'riskEngineering', variables, (given) =>
    createRiskEngineeringClient({ ...fromEnv(given), ...shared }),
  );
}

/**
 * The liability client of a command run, of the major chosen by `major` (`--major`), the
 * configuration or the default (the highest in `majors`), at the base URL of that major.
 */
export async function liabilityClient(
  session: ServiceSession,
  majors: LiabilityMajors,
  major?: string,
): Promise<LiabilityClient> {
  const choice = chooseLiabilityMajor(Object.keys(majors).map(Number), major, session.settings);
  const variables = await variablesOf(session, 'liability');
  const endpoint = liabilityEndpoint(choice, variables, session.settings, session.sandboxUrls);
  const { createLiabilityClient, fromEnv } = await majors[choice.major]!();
  const shared = await common(session, 'liability');
  return create(
    session,
    'liability',
    variables,
    (given) =>
      createLiabilityClient({
        ...fromEnv(given),
        ...(endpoint === undefined ? {} : { baseUrl: endpoint.baseUrl }),
        ...shared,
      }),
    endpoint === undefined ? {} : { baseUrl: endpoint.variable },
  );
}

/**
 * The approvals client of a command run; `tier` (from `--tier`) wins over the configured one.
 */
export async function approvalsClient(
  session: ServiceSession,
  tier?: 'bronze' | 'silver' | 'gold',
): Promise<ApprovalsClient> {
  const { createApprovalsClient, fromEnv } = await import('@partner-apis/approvals');
  const variables = await variablesOf(session, 'approvals');
  const shared = await common(session, 'approvals');
  return create(session, 'approvals', variables, (given) =>
    createApprovalsClient({
      ...fromEnv(given),
      ...(tier === undefined ? {} : { tier }),
      ...shared,
    }),
  );
}

/**
 * The client of a service that `services.json` lists with no convenience of its own: its
 * package's `clientFromEnv`, given the `PARTNER_APIS_<NAME>_*` variables (the sandbox's when
 * nothing is configured) and the options every client of the command line shares.
 */
export async function pluggedClient(
  session: ServiceSession,
  entry: ServiceEntry,
  module: ServiceModule,
): Promise<unknown> {
  const { clientFromEnv } = module;
  if (clientFromEnv === undefined) {
    throw new ConfigurationError(`${entry.package}/internal`, 'exports no clientFromEnv');
  }
  const variables = await variablesOf(session, entry.name);
  // The sandbox serves every service under its name; the settings win, as for the four.
  const sandbox = session.sandboxUrls?.origin;
  const base =
    sandbox === undefined
      ? {}
      : { [`${variablePrefix(entry.name)}BASE_URL`]: `${sandbox}/${entry.name}` };
  const shared = await common(session, entry.name);
  return create(session, entry.name, { ...base, ...variables }, (given) =>
    clientFromEnv(given, shared),
  );
}
