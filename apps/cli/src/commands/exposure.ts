import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';
import { checkStatementOfValues, type SovOptions } from '../sov/check-sov.js';
import { UsageError } from '../usage-error.js';
import type { OperationExtension, OperationOptions } from './operation-extension.js';
import type { Convenience } from './operations.js';

/** The CSV columns, for the help of the Statement of Values commands. */
const SOV_COLUMNS =
  'CSV columns (header row first, one location per row): locationId, name, street, city, postalCode, region, country, latitude, longitude, occupancy, construction, yearBuilt, numberOfStoreys, floorArea, sprinklered, buildings, contents, businessInterruption; and optionally portfolioName, policyReference, valuationDate, currency (same in every row).';

function withSovOptions(command: Command, file: string): Command {
  return command
    .argument(file, 'a CSV file (one location per row) or a JSON file')
    .option('--currency <code>', 'ISO 4217 currency of the values (else the currency column)')
    .option('--portfolio-name <name>', 'name of the portfolio')
    .option('--policy-reference <reference>', 'the insurance contract of the portfolio')
    .option('--valuation-date <date>', 'the day the values refer to (YYYY-MM-DD)');
}

/**
 * The convenience of `exposure statement-of-values submit FILE`: the portfolio read from a CSV
 * or JSON file and checked locally first (instead of `--data`).
 */
export function exposureExtensions(context: CommandContext): Record<string, OperationExtension> {
  return {
    'statementOfValues.submit': {
      examples: [
        'partner-apis exposure statement-of-values submit portfolio.csv --currency EUR --portfolio-name "Warehouses 2026"',
      ],
      notes: [SOV_COLUMNS],
      configure(command) {
        withSovOptions(command, '[file]');
      },
      async body(options: OperationOptions, command: Command) {
        const file = command.processedArgs[0] as string | undefined;
        if (file === undefined) {
          if (options.data === undefined) {
            throw new UsageError(
              'give the Statement of Values: a FILE (CSV or JSON), or --data JSON',
            );
          }
          return undefined;
        }
        if (options.data !== undefined) {
          throw new UsageError(
            `--data and ${file} both give the Statement of Values: give one of them`,
          );
        }
        return (await checkStatementOfValues(file, options as SovOptions, context, 'stderr'))
          .portfolio;
      },
    },
  };
}

/**
 * What the command line adds to the exposure service: `statement-of-values validate FILE`, which
 * checks a file locally, and `submit` from the same file; the other commands are those of its
 * operations (`operations.ts`).
 */
export function exposureConvenience(context: CommandContext): Convenience {
  return {
    examples: [
      'partner-apis exposure locations --modified-since 2025-06-01',
      'partner-apis exposure statement-of-values validate portfolio.csv --currency EUR',
    ],
    extensions: exposureExtensions(context),
    client: async (session) => (await import('../clients.js')).exposureClient(session),
    register: (exposure) => registerValidate(exposure, context),
  };
}

function registerValidate(exposure: Command, context: CommandContext): void {
  const sov = exposure
    .command('statement-of-values')
    .description('Statement of Values: check a portfolio file locally (validate), or submit it');

  withSovOptions(
    sov
      .command('validate')
      .description(
        'check a Statement of Values against the schema; prints every problem with its row and column (exit code 1 when there are problems); sends nothing',
      )
      .addHelpText(
        'after',
        examples(
          [
            'partner-apis exposure statement-of-values validate portfolio.csv --currency EUR',
            'partner-apis exposure statement-of-values validate portfolio.json',
          ],
          [SOV_COLUMNS],
        ),
      ),
    '<file>',
  ).action(async (file: string, options: SovOptions, command: Command) => {
    await context.run(command, async () => {
      const checked = await checkStatementOfValues(file, options, context, 'stdout');
      context.io.stdout.write(
        `${file}: ${checked.locationCount} location${checked.locationCount === 1 ? '' : 's'}, no problems\n`,
      );
    });
  });
}
