import type { Command } from 'commander';
import { riskEngineeringClient } from '../clients.js';
import { type CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';
import { listOptions, withListOptions, type ListCommandOptions } from './exposure.js';
import { writePaged } from './paged-output.js';

/**
 * `partner-apis riskengineering gradings|locations`: the paged reads of risk engineering.
 *
 * @example
 * registerRiskEngineeringCommands(program, context);
 */
export function registerRiskEngineeringCommands(program: Command, context: CommandContext): void {
  const riskEngineering = program
    .command('riskengineering')
    .description('risk engineering: gradings and locations')
    .addHelpText(
      'after',
      examples([
        'partner-apis riskengineering gradings --modified-since 2025-01-01',
        'partner-apis riskengineering locations --format csv --out risk-locations.csv',
      ]),
    );

  withListOptions(
    riskEngineering
      .command('gradings')
      .description('every risk engineering grading, paged')
      .addHelpText(
        'after',
        examples([
          'partner-apis riskengineering gradings --columns gradingId,locationId,grade,category',
          'partner-apis riskengineering gradings --format json --out gradings.json',
        ]),
      ),
  ).action(async (options: ListCommandOptions, command: Command) => {
    await context.run(command, async (session) => {
      const client = await riskEngineeringClient(session);
      await writePaged(
        context,
        'risk engineering gradings',
        client.gradings.list(listOptions(options)),
        options,
      );
    });
  });

  withListOptions(
    riskEngineering
      .command('locations')
      .description('every risk engineering location, paged')
      .addHelpText(
        'after',
        examples([
          'partner-apis riskengineering locations --columns locationId,name,riskScore,lastSurveyDate',
          'partner-apis riskengineering locations --modified-since 2025-06-01 --format ndjson',
        ]),
      ),
  ).action(async (options: ListCommandOptions, command: Command) => {
    await context.run(command, async (session) => {
      const client = await riskEngineeringClient(session);
      await writePaged(
        context,
        'risk engineering locations',
        client.locations.list(listOptions(options)),
        options,
      );
    });
  });
}
