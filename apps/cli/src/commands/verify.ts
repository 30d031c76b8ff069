import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Finding, Pace, SpecFile, VerifyOptions } from '@partner-apis/verify';
import { Option, type Command } from 'commander';
import { terminalWidth, type CommandContext } from '../command-context.js';
import { SERVICES, type ServiceName } from '../config/services.js';
import { examples } from '../help-format.js';
import { variablesOf } from '../clients.js';
import { proxyFetch } from '../proxy.js';
import type { ServiceSession } from '../service-session.js';
import { UsageError } from '../usage-error.js';

/** The options of `partner-apis verify`. */
export interface VerifyCommandOptions {
  output: (typeof FORMATS)[number];
  format?: (typeof FORMATS)[number];
  writeSpecs?: string | true;
  employee?: string;
  allowWrites?: boolean;
  pace: 'bronze' | 'silver' | 'gold';
}

const FORMATS = ['text', 'json', 'junit', 'sarif'] as const;
const PACES = ['bronze', 'silver', 'gold'] as const;

/** The options of `verifyUpstream` for every service the session has, from its variables. */
async function targets(
  session: ServiceSession,
  options: VerifyCommandOptions,
): Promise<VerifyOptions> {
  // The embedded sandbox has no tier to keep to; a configured environment is paced as told.
  const pace: Pace = session.sandboxUrls === undefined ? options.pace : 'gold';
  const services: readonly ServiceName[] = session.settings.embeddedSandbox
    ? SERVICES
    : session.settings.configuredServices;
  // The way every other command reaches the network: the proxy of HTTPS_PROXY for a configured
  // environment, never for the embedded sandbox.
  const fetch = session.sandboxUrls === undefined ? await proxyFetch(session.env) : undefined;
  const result: VerifyOptions = {
    userAgent: 'partner-apis-cli',
    // A mocking service answers alike whatever it is sent, and is asked for no token.
    mock: session.settings.environment === 'mock',
    ...(fetch && { fetch }),
  };
  for (const service of services) {
    // Against a mocking service (`--env mock`), the credentials it does not check.
    const variables = await variablesOf(session, service);
    if (service === 'exposure' || service === 'riskEngineering') {
      const { fromEnv } =
        service === 'exposure'
          ? await import('@partner-apis/exposure')
          : await import('@partner-apis/riskengineering');
      const { baseUrl, tokenUrl, credentials } = fromEnv(variables);
      result[service] = { baseUrl, tokenUrl, credentials, rateLimit: pace };
    } else if (service === 'liability') {
      const { fromEnv } = await import('@partner-apis/liability');
      const { baseUrl, credentials } = fromEnv(variables);
      result.liability = {
        baseUrl,
        credentials,
        allowWrites: options.allowWrites === true,
        rateLimit: pace,
      };
    } else {
      const { fromEnv } = await import('@partner-apis/approvals');
      const { baseUrl, credentials, tier } = fromEnv(variables);
      const employeeNumber =
        options.employee ??
        (session.sandboxUrls === undefined
          ? undefined
          : session.sandbox?.fixtures.employeeWithApprovals);
      result.approvals = {
        baseUrl,
        credentials,
        tier: tier ?? pace,
        employeeNumber,
      };
    }
  }
  return result;
}

/** The folder `--write-specs` edits: the one given, else `specs/` of the working directory. */
function specsFolder(cwd: string, given: string | true): string {
  const folder = resolve(cwd, given === true ? 'specs' : given);
  if (!existsSync(resolve(folder, 'common', 'openapi.yaml'))) {
    throw new UsageError(
      `--write-specs: ${folder} holds no common/openapi.yaml; run it in the repository's root or name its specs folder`,
    );
  }
  return folder;
}

/**
 * The texts of the specs the findings point into, read from `folder` when it holds them, each
 * with its path from the working directory: where a SARIF result is located.
 */
async function specFiles(
  cwd: string,
  folder: string,
  findings: readonly Finding[],
): Promise<Partial<Record<Finding['spec'], SpecFile>>> {
  const files: Partial<Record<Finding['spec'], SpecFile>> = {};
  for (const spec of new Set(findings.map((finding) => finding.spec))) {
    const file = join(folder, spec, 'openapi.yaml');
    if (!existsSync(file)) continue;
    const uri = relative(cwd, file).split(sep).join('/');
    files[spec] = { uri, text: await readFile(file, 'utf8') };
  }
  return files;
}

/**
 * `partner-apis verify`: checks the specs' guesses against the configured environment, prints
 * what holds and what does not, and with `--write-specs` edits the specs to match.
 */
export function registerVerifyCommand(program: Command, context: CommandContext): void {
  program
    .command('verify')
    .description(
      "check the specs' guesses (x-upstream-gap) against the configured environment, and write the spec edits that make them true",
    )
    .addOption(
      new Option(
        '-o, --output <format>',
        'report format: text, json, junit (JUnit XML) or sarif (SARIF 2.1.0, located in ./specs)',
      )
        .choices(FORMATS)
        .default('text'),
    )
    .addOption(new Option('-f, --format <format>').choices(FORMATS).hideHelp())
    .option(
      '--write-specs [folder]',
      'apply the edits of contradicted guesses to the specs (default: ./specs)',
    )
    .option('--employee <number>', 'an employee whose approvals may be read, to check their fields')
    .option(
      '--allow-writes',
      'create a seller and a quote in liability (never on an address that names no test environment)',
    )
    .addOption(
      new Option(
        '--pace <tier>',
        'calls per second of exposure, risk engineering and liability (approvals keeps its tier)',
      )
        .choices(PACES)
        .default('bronze'),
    )
    .addHelpText(
      'after',
      examples(
        [
          'partner-apis verify',
          'partner-apis --env uat verify --employee 100234 --output json',
          'partner-apis --env uat verify --write-specs',
          'partner-apis --env uat verify -o sarif > verify.sarif',
        ],
        [
          'Only safe calls: a token, small reads, a search and a few deliberately bad requests; writes only with --allow-writes on a test address. They go through HTTPS_PROXY as every command does.',
          'Progress goes to stderr, one line per check (none with --quiet). A service that answers the same whatever it is sent (a mocking service) is named in a note, and nothing it cannot tell apart is confirmed.',
          'A guess is confirmed or contradicted only where either answer was possible: against a service that answers the same whatever it is sent (a mocking service; --env mock asks it for no token) those that need requests told apart are unobserved, and nothing it answered is written to a spec.',
          'Exit status: 0 when nothing is contradicted and every check was observed or skipped for a stated reason (writes not allowed, nothing to read); 1 when a guess is contradicted (0 or 3 once --write-specs has written every edit); 3 when none is but a check could not observe its guess (unreachable, refused credentials, a proxy that does not answer, a service that answers alike), each saying why; 2 for a usage error.',
          'After --write-specs: pnpm lint:specs, pnpm generate, pnpm spec:diff and a changeset (docs/updating-a-spec.md).',
        ],
      ),
    )
    .action(async (options: VerifyCommandOptions, command: Command) => {
      await context.run(command, async (session) => {
        const {
          exitCodeOf,
          formatFindings,
          formatJunit,
          formatSarif,
          verifyUpstream,
          writeSpecEdits,
        } = await import('@partner-apis/verify');
        const format = options.format ?? options.output;
        const folder =
          options.writeSpecs === undefined
            ? undefined
            : specsFolder(context.io.cwd, options.writeSpecs);
        const { findings, notes } = await verifyUpstream({
          ...(await targets(session, options)),
          onProgress: (check) => context.note(`verify: ${check}`),
        });
        const specs = folder ?? resolve(context.io.cwd, 'specs');
        context.io.stdout.write(
          format === 'json'
            ? `${JSON.stringify({ findings, notes }, null, 2)}\n`
            : format === 'junit'
              ? formatJunit(findings, { notes })
              : format === 'sarif'
                ? formatSarif(findings, await specFiles(context.io.cwd, specs, findings))
                : formatFindings(findings, { notes, width: terminalWidth(context.io) }),
        );
        const count = (status: string) => findings.filter((f) => f.status === status).length;
        context.exitCode = exitCodeOf(findings);
        if (folder === undefined || count('contradicted') === 0) return;
        const written = await writeSpecEdits(folder, findings);
        const unwritten = findings.filter((f) => f.status === 'contradicted' && !f.edit).length;
        context.note(
          `Edited ${written.map((file) => relative(context.io.cwd, file)).join(', ')}. Next: pnpm lint:specs, pnpm generate, pnpm spec:diff and a changeset (docs/updating-a-spec.md).`,
        );
        if (unwritten > 0) {
          context.note(`${unwritten} contradicted findings have no edit; the report says why.`);
        } else {
          // Every contradiction is now an edit of the specs: what is left is what was not seen.
          context.exitCode = exitCodeOf(findings.filter((f) => f.status !== 'contradicted'));
        }
      });
    });
}
