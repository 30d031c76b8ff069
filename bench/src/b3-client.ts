import type * as Exposure from '@partner-apis/exposure';
import type { Sandbox } from '@partner-apis/sandbox';
import { loadOptional } from './optional-packages.js';

export interface B3ClientInput {
  sandbox: Pick<Sandbox, 'urls' | 'credentials'>;
  calls: number;
}

export type B3ClientResult =
  | { driver: string; calls: number; failures: number; firstFailure: string | undefined }
  | { unavailable: string };

/** One call on a cold exposure client. */
async function coldCall(
  input: B3ClientInput,
): Promise<{ driver: string; call: () => Promise<unknown> } | string> {
  const { urls, credentials } = input.sandbox;
  const exposure = await loadOptional<typeof Exposure>('@partner-apis/exposure');
  if (typeof exposure === 'string') return exposure;
  const client = exposure.createExposureClient({
    baseUrl: urls.exposure,
    tokenUrl: urls.tokenUrl,
    credentials: credentials.exposure,
  });
  return { driver: 'exposure client', call: () => client.locations.page({ limit: 1 }) };
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
