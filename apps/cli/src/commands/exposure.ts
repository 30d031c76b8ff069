import type { Command } from 'commander';
import { exposureClient } from '../clients.js';
import { withOutputOptions, type CommandContext, type OutputOptions } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeRecord } from '../output/record-writer.js';
import { checkStatementOfValues, type SovOptions } from '../sov/check-sov.js';

function withSovOptions(command: Command): Command {
  return command
    .argument('<file>', 'a CSV file (one location per row) or a JSON file')
    .option('--currency <code>', 'ISO 4217 currency of the values (else the currency column)')
    .option('--portfolio-name <name>', 'name of the portfolio')
    .option('--policy-reference <reference>', 'the insurance contract of the portfolio')
    .option('--valuation-date <date>', 'the day the values refer to (YYYY-MM-DD)');
}

/**
 * `partner-apis exposure sov …`: the Statement of Values from a CSV or JSON file; the
 * operations of the spec are commands of their own (`operations.ts`).
 *
 * @example
 * registerExposureCommands(program, context);
 */
export function registerExposureCommands(program: Command, context: CommandContext): void {
  const exposure = program
    .command('exposure')
    .description('property exposure: locations and Statement of Values submissions')
    .addHelpText(
      'after',
      examples([
        'partner-apis exposure locations --modified-since 2025-06-01',
        'partner-apis exposure sov validate portfolio.csv --currency EUR',
      ]),
    );

  const sov = exposure
    .command('sov')
    .description('Statement of Values: check a portfolio file locally, or submit it')
    .addHelpText(
      'after',
      examples(
        [
          'partner-apis exposure sov validate portfolio.csv --currency EUR',
          'partner-apis exposure sov submit portfolio.json',
        ],
        [
          'CSV columns (header row first, one location per row): locationId, name, street, city, postalCode, region, country, latitude, longitude, occupancy, construction, yearBuilt, numberOfStoreys, floorArea, sprinklered, buildings, contents, businessInterruption; and optionally portfolioName, policyReference, valuationDate, currency (same in every row).',
        ],
      ),
    );

  withSovOptions(
    sov
      .command('validate')
      .description(
        'check a Statement of Values against the schema; prints every problem with its row and column (exit code 1 when there are problems); sends nothing',
      )
      .addHelpText(
        'after',
        examples([
          'partner-apis exposure sov validate portfolio.csv --currency EUR',
          'partner-apis exposure sov validate portfolio.json',
        ]),
      ),
  ).action(async (file: string, options: SovOptions, command: Command) => {
    await context.run(command, async () => {
      const checked = await checkStatementOfValues(file, options, context, 'stdout');
      context.io.stdout.write(
        `${file}: ${checked.locationCount} location${checked.locationCount === 1 ? '' : 's'}, no problems\n`,
      );
    });
  });

  withOutputOptions(
    withSovOptions(
      sov
        .command('submit')
        .description(
          'check a Statement of Values, then submit it (provisional operation: the upstream has not published it)',
        )
        .addHelpText(
          'after',
          examples([
            'partner-apis exposure sov submit portfolio.csv --currency EUR --portfolio-name "Warehouses 2026"',
          ]),
        ),
    ),
  ).action(async (file: string, options: SovOptions & OutputOptions, command: Command) => {
    await context.run(command, async (session) => {
      const { portfolio } = await checkStatementOfValues(file, options, context, 'stderr');
      const client = await exposureClient(session);
      const receipt = await client.statementOfValues.submit(portfolio);
      const sink = await context.output(options);
      await writeRecord(receipt, options.format, sink, context.writeOptions(options));
      await sink.close();
    });
  });
}
