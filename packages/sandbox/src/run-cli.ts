import { parseArgs } from 'node:util';
import { SandboxConfigError } from './config-error.js';
import type { ApprovalsTier } from './credentials.js';
import type { SandboxOptions } from './options.js';
import { startSandboxWithLiabilitySpecs } from './liability-spec-files.js';
import type { Sandbox } from './sandbox.js';

const USAGE = `Usage: partner-apis-sandbox [options]

Serves the token endpoint and the exposure, risk engineering, liability and approvals APIs
locally, validated against the specs, and prints their URLs and sandbox credentials.

Options:
  --port <n>                 port to listen on (default 4010; 0 picks a free one)
  --host <address>           interface to listen on (default 127.0.0.1)
  --seed <n>                 seed of the generated data (default 1)
  --exposure-locations <n>   number of exposure locations (default 5000)
  --risk-locations <n>       number of risk engineering locations (default 5000)
  --gradings <n>             number of gradings (default 3000)
  --token-lifetime <s>       lifetime of access tokens in seconds (default 3600)
  --approvals-tier <tier>    bronze, silver or gold (default gold)
  --latency <ms>             wait this long before every response
  --validate-responses       check every response against the spec before sending it
  --liability-spec <file>    also serve this major of the liability API, from a bundled OpenAPI
                             document (YAML or JSON; the major is its info.version); repeatable
  --help                     show this text
`;

/** Where the CLI writes and which signals stop it; the real process by default. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  onSignal(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
}

function count(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new SandboxConfigError(`--${option} must be a whole number`);
  return Number(value);
}

interface CliOptions {
  options: SandboxOptions;
  specFiles: readonly string[];
}

function toOptions(argv: readonly string[]): CliOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'exposure-locations': { type: 'string' },
      'risk-locations': { type: 'string' },
      gradings: { type: 'string' },
      'token-lifetime': { type: 'string' },
      'approvals-tier': { type: 'string' },
      latency: { type: 'string' },
      'validate-responses': { type: 'boolean' },
      'liability-spec': { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const latencyMs = count(values.latency, 'latency');
  const specFiles = values['liability-spec'] ?? [];
  const options: SandboxOptions = {
    port: count(values.port, 'port') ?? 4010,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.seed === undefined ? {} : { seed: count(values.seed, 'seed')! }),
    sizes: {
      exposureLocations: count(values['exposure-locations'], 'exposure-locations'),
      riskLocations: count(values['risk-locations'], 'risk-locations'),
      gradings: count(values.gradings, 'gradings'),
    },
    tokenLifetimeSeconds: count(values['token-lifetime'], 'token-lifetime'),
    credentials: {
      approvals: { tier: (values['approvals-tier'] ?? 'gold') as ApprovalsTier },
    },
    faults: latencyMs === undefined ? {} : { '*': { latencyMs } },
    validateResponses: values['validate-responses'] ?? false,
  };
  return { options, specFiles };
}

function describe(sandbox: Sandbox): string[] {
  const { urls } = sandbox;
  return [
    `partner-apis sandbox listening on ${urls.origin}`,
    '',
    `  token URL         ${urls.tokenUrl}`,
    `  exposure          ${urls.exposure}`,
    `  risk engineering  ${urls.riskEngineering}`,
    ...Object.entries(urls.liabilityMajors).map(
      ([major, url]) => `  ${`liability v${major}`.padEnd(18)}${url}`,
    ),
    `  approvals         ${urls.approvals}`,
    `  admin             ${urls.admin}/stats`,
    '',
    'Credentials (generated for this run, valid only here):',
    JSON.stringify(sandbox.credentials, null, 2),
    '',
    'Press Ctrl+C to stop.',
  ];
}

/**
 * Runs the CLI: starts the sandbox, prints URLs and credentials, and closes it on SIGINT or
 * SIGTERM. Resolves with the exit code once the sandbox has stopped (or failed to start).
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    onSignal: (signal, listener) => process.once(signal, listener),
  },
): Promise<number> {
  let sandbox: Sandbox;
  try {
    const parsed = toOptions(argv);
    if (parsed === 'help') {
      io.out(USAGE);
      return 0;
    }
    sandbox = await startSandboxWithLiabilitySpecs(parsed.options, parsed.specFiles);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err('Run partner-apis-sandbox --help for the options.');
    return 2;
  }
  for (const line of describe(sandbox)) io.out(line);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void sandbox.close().then(resolve);
    };
    io.onSignal('SIGINT', stop);
    io.onSignal('SIGTERM', stop);
  });
  io.out('Sandbox stopped.');
  return 0;
}
