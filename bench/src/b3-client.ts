import type { AuthModule, CoreModule, ExposureModule } from './client-shapes.js';
import { loadOptional } from './optional-packages.js';
import type { SandboxInfo } from './sandbox-shapes.js';

export interface B3ClientInput {
  sandbox: Pick<SandboxInfo, 'urls' | 'credentials'>;
  calls: number;
}

export type B3ClientResult =
  | { driver: string; calls: number; failures: number; firstFailure: string | undefined }
  | { unavailable: string };

const LOCATIONS = '/open/portal-api/exposure/locations';

/** One call on a cold client: the exposure client if there is one, else the bare pipeline. */
async function coldCall(
  input: B3ClientInput,
): Promise<{ driver: string; call: () => Promise<unknown> } | string> {
  const { urls, credentials } = input.sandbox;
  const exposure = await loadOptional<ExposureModule>('@partner-apis/exposure');
  if (typeof exposure !== 'string' && typeof exposure.createExposureClient === 'function') {
    const client = exposure.createExposureClient({
      baseUrl: urls.exposure,
      tokenUrl: urls.tokenUrl,
      credentials: credentials.exposure,
    });
    return { driver: 'exposure client', call: () => client.locations.page({ limit: 1 }) };
  }
  const core = await loadOptional<CoreModule>('@partner-apis/core');
  const auth = await loadOptional<AuthModule>('@partner-apis/auth');
  if (typeof core === 'string') return core;
  if (typeof auth === 'string') return auth;
  const pipeline = core.createClientPipeline({
    baseUrl: urls.exposure,
    auth: auth.oauth2ClientCredentials({
      tokenUrl: urls.tokenUrl,
      clientId: credentials.exposure.clientId,
      clientSecret: credentials.exposure.clientSecret,
      scopes: ['Portal.Api', 'Portal.Api.Exposure'],
      subscriptionKeys: credentials.exposure.subscriptionKeys,
    }),
  });
  const url = `${pipeline.baseUrl}${LOCATIONS}?limit=1`;
  return {
    driver: 'core pipeline + oauth2ClientCredentials',
    call: async () => (await pipeline.fetch(new Request(url))).json(),
  };
}

/** Fires `calls` concurrent calls on a client that has no token yet, in this fresh process. */
export async function run(raw: unknown): Promise<B3ClientResult> {
  const input = raw as B3ClientInput;
  const client = await coldCall(input);
  if (typeof client === 'string') return { unavailable: client };
  const settled = await Promise.allSettled(
    Array.from({ length: input.calls }, () => client.call()),
  );
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  const first = failed[0]?.reason as unknown;
  return {
    driver: client.driver,
    calls: input.calls,
    failures: failed.length,
    firstFailure:
      first === undefined
        ? undefined
        : first instanceof Error
          ? `${first.name}: ${first.message}`
          : String(first),
  };
}
