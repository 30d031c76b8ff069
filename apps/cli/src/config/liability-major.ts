import { ConfigurationError } from '@partner-apis/errors';
import type { SandboxUrls } from '@partner-apis/sandbox';
import { UsageError } from '../usage-error.js';
import {
  LIABILITY_MAJOR_VARIABLE,
  VARIABLE_PREFIX,
  liabilityMajorBaseUrlVariable,
} from './services.js';
import { settingName, type Settings, type Variables } from './settings.js';

const BASE_URL_VARIABLE = `${VARIABLE_PREFIX.liability}BASE_URL`;

/** The major version of the liability API a command calls. */
export interface LiabilityMajorChoice {
  readonly major: number;
  /** True when `--major`, the variable or the config file chose it; false for the default. */
  readonly chosen: boolean;
}

/** Where the chosen major is served, and the setting that says so (for messages). */
export interface LiabilityEndpoint {
  readonly baseUrl: string;
  readonly variable: string;
}

/** The URLs of the sandbox a command uses instead of a configured environment. */
export type SandboxLiabilityUrls = Pick<SandboxUrls, 'origin' | 'liabilityMajors'>;

function majorList(majors: readonly number[]): string {
  return majors.map((major) => `v${major}`).join(', ');
}

/**
 * The major a command calls: `--major`, else `PARTNER_APIS_LIABILITY_MAJOR` (or the config
 * file's `liability.major`), else the highest of `available`. One the CLI has no client for is a
 * usage error naming those it has.
 */
export function chooseLiabilityMajor(
  available: readonly number[],
  option: string | undefined,
  settings: Pick<Settings, 'variables' | 'sources'>,
): LiabilityMajorChoice {
  const configured = settings.variables[LIABILITY_MAJOR_VARIABLE];
  const text = option ?? configured;
  if (text === undefined) return { major: Math.max(...available), chosen: false };
  const major = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!available.includes(major)) {
    const source =
      option === undefined ? settingName(settings, LIABILITY_MAJOR_VARIABLE) : '--major';
    throw new UsageError(
      `${source}: the CLI has no client for major ${text} of the liability API; it calls ${majorList(available)}`,
    );
  }
  return { major, chosen: true };
}

/**
 * `baseUrl` with its one `/v<k>` path segment made `/v<major>`; undefined without exactly one.
 * A value that is no URL is left for the client to report.
 */
function withMajorSegment(baseUrl: string, major: number): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  const segments = url.pathname.split('/');
  const versions = segments.flatMap((segment, i) => (/^v\d+$/.test(segment) ? [i] : []));
  if (versions.length !== 1) return undefined;
  const [at] = versions as [number];
  if (segments[at] === `v${major}`) return baseUrl;
  segments[at] = `v${major}`;
  url.pathname = segments.join('/');
  return url.href;
}

/**
 * Where the chosen major of the liability API is. On a sandbox: the URL it serves that major at
 * (a usage error when it serves no such major). Otherwise `PARTNER_APIS_LIABILITY_V<n>_BASE_URL`
 * when set, else the configured base URL with its `/v<k>` segment made `/v<n>`, as the upstream
 * builds its URLs; a base URL without exactly one such segment is used as it is for the default
 * major, and is a `ConfigurationError` naming its setting for a chosen one. `undefined` when no
 * base URL is configured (the client then names the missing variable).
 */
export function liabilityEndpoint(
  choice: LiabilityMajorChoice,
  variables: Variables,
  settings: Pick<Settings, 'sources'>,
  sandbox: SandboxLiabilityUrls | undefined,
): LiabilityEndpoint | undefined {
  const { major } = choice;
  if (sandbox !== undefined) {
    const served = sandbox.liabilityMajors[major];
    if (served === undefined) {
      const majors = Object.keys(sandbox.liabilityMajors).map(Number);
      throw new UsageError(
        `the sandbox at ${sandbox.origin} serves liability ${majorList(majors)}, not v${major}: ` +
          `choose one of those with --major, or start a sandbox that serves v${major} with ` +
          `\`partner-apis sandbox start --liability-spec <its spec file>\``,
      );
    }
    return { baseUrl: served, variable: BASE_URL_VARIABLE };
  }
  const ownVariable = liabilityMajorBaseUrlVariable(major);
  const own = variables[ownVariable];
  if (own !== undefined) return { baseUrl: own, variable: ownVariable };
  const baseUrl = variables[BASE_URL_VARIABLE];
  if (baseUrl === undefined) return undefined;
  const swapped = withMajorSegment(baseUrl, major);
  if (swapped !== undefined || !choice.chosen) {
    return { baseUrl: swapped ?? baseUrl, variable: BASE_URL_VARIABLE };
  }
  throw new ConfigurationError(
    settingName(settings, BASE_URL_VARIABLE),
    `needs exactly one /v<major> path segment to call liability v${major} at (as /v1 in ` +
      `https://liability.example.com/v1/uat); or set ${ownVariable} (liability.baseUrls.${major} ` +
      'in a config file)',
  );
}
