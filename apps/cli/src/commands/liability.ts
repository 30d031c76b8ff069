import {
  COUNTRIES_OF_SALES,
  TERRITORIES_OF_SALES,
  THIRD_PARTY_LIABILITY_PRODUCT,
  thirdPartyLiabilityPolicyLine,
  type CountryOfSales,
  type QuoteRequest,
  type Seller,
  type TerritoryOfSales,
} from '@partner-apis/liability';
import { Option, type Command } from 'commander';
import { liabilityClient } from '../clients.js';
import { withOutputOptions, type CommandContext, type OutputOptions } from '../command-context.js';
import { examples } from '../help-format.js';
import type { LiabilityMajors } from '../liability-majors.js';
import { writeRecord } from '../output/record-writer.js';
import { collect } from './option-parsers.js';

/** The option every liability command has. */
interface MajorOptions {
  /** `--major`: the major version of the liability API to call. */
  major?: string;
}

interface SellerOptions extends OutputOptions, MajorOptions {
  name: string;
  country: string;
  street?: string;
  city?: string;
  postalCode?: string;
  registrationNumber?: string;
  email?: string;
  marketplace: string[];
}

interface QuoteOptions extends OutputOptions, MajorOptions {
  seller: string[];
  countryOfSales: CountryOfSales;
  territory: TerritoryOfSales;
  forceManualReferral?: boolean;
  productId: string;
  agent?: string;
  agencyId?: string;
  agencyName?: string;
}

function sellerFrom(options: SellerOptions): Seller {
  const address: Seller['address'] = { country: options.country };
  if (options.street !== undefined) address.street = options.street;
  if (options.city !== undefined) address.city = options.city;
  if (options.postalCode !== undefined) address.postalCode = options.postalCode;
  const seller: Seller = { name: options.name, address };
  if (options.registrationNumber !== undefined)
    seller.registrationNumber = options.registrationNumber;
  if (options.email !== undefined) seller.email = options.email;
  if (options.marketplace.length > 0)
    seller.marketplaces = options.marketplace.map((name) => ({ name }));
  return seller;
}

function quoteFrom(options: QuoteOptions): QuoteRequest {
  const quote: QuoteRequest = {
    productId: options.productId,
    policyLines: [
      thirdPartyLiabilityPolicyLine({
        countryOfSales: options.countryOfSales,
        territoryOfSales: options.territory,
      }),
    ],
    insureds: options.seller.map((sellerId) => ({ sellerId })),
  };
  if (options.agent !== undefined) quote.underwritingInformation = { agentUsername: options.agent };
  if (options.agencyId !== undefined || options.agencyName !== undefined) {
    quote.agencyInformation = {
      ...(options.agencyId === undefined ? {} : { agencyId: options.agencyId }),
      ...(options.agencyName === undefined ? {} : { agencyName: options.agencyName }),
    };
  }
  return quote;
}

/**
 * `--major`: which major version of the API a command calls while the upstream runs two.
 *
 * @example
 * command.addOption(majorOption(context.liabilityMajors));
 */
export function majorOption(majors: LiabilityMajors): Option {
  const available = Object.keys(majors);
  const highest = Math.max(...available.map(Number));
  return new Option(
    '--major <n>',
    `major version of the liability API to call (default: PARTNER_APIS_LIABILITY_MAJOR, else liability.major of the config, else the highest, ${highest})`,
  ).choices(available);
}

/**
 * `partner-apis liability seller create` and `liability quote create`: a seller and a quote
 * from a few options; every operation of the spec is a command of its own as well
 * (`operations.ts`), e.g. `liability quotes get` and `liability quotes search`.
 *
 * @example
 * registerLiabilityCommands(program, context);
 */
export function registerLiabilityCommands(program: Command, context: CommandContext): void {
  const liability = program
    .command('liability')
    .description('third party liability: sellers and quotes')
    .addHelpText(
      'after',
      examples([
        'partner-apis liability seller create --name "Nordlicht Home GmbH" --country DE',
        'partner-apis liability quote create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
        'partner-apis liability quotes search --seller-id SEL-000001',
      ]),
    );

  const seller = liability
    .command('seller')
    .description('sellers, for which quotes are requested')
    .addHelpText(
      'after',
      examples(['partner-apis liability seller create --name "Nordlicht Home GmbH" --country DE']),
    );
  withOutputOptions(
    seller
      .command('create')
      .description('register a seller; prints it with its sellerId')
      .requiredOption('--name <name>', 'legal name of the seller')
      .requiredOption('--country <code>', 'ISO 3166-1 alpha-2 country of the seller, e.g. DE')
      .option('--street <street>', 'street and number')
      .option('--city <city>', 'city')
      .option('--postal-code <code>', 'postal code')
      .option('--registration-number <number>', 'company registration number')
      .option('--email <address>', 'contact e-mail address')
      .option(
        '--marketplace <name>',
        'a marketplace the seller sells on; repeat for several',
        collect,
        [],
      )
      .addOption(majorOption(context.liabilityMajors))
      .addHelpText(
        'after',
        examples([
          'partner-apis liability seller create --name "Nordlicht Home GmbH" --country DE --city Hamburg --marketplace Amazon',
          'partner-apis liability seller create --name "Kettle & Co" --country NL -o json',
        ]),
      ),
  ).action(async (options: SellerOptions, command: Command) => {
    await context.run(command, async (session) => {
      const client = await liabilityClient(session, context.liabilityMajors, options.major);
      const created = await client.sellers.create(sellerFrom(options));
      const sink = await context.output(options);
      await writeRecord(created, options.format, sink, context.writeOptions(options));
      await sink.close();
    });
  });

  const quote = liability
    .command('quote')
    .description('third party liability quotes from a few options (quotes has every operation)')
    .addHelpText(
      'after',
      examples([
        'partner-apis liability quote create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
        'partner-apis liability quotes get QTE-2026-0000001',
      ]),
    );

  withOutputOptions(
    quote
      .command('create')
      .description(
        'request a quote: prints its price, or the referrals that send it to manual underwriting',
      )
      .requiredOption('--seller <sellerId>', 'the insured seller; repeat for several', collect)
      .addOption(
        new Option('--country-of-sales <value>', 'declarative question countryOfSales')
          .choices(COUNTRIES_OF_SALES)
          .makeOptionMandatory(),
      )
      .addOption(
        new Option('--territory <value>', 'declarative question territoryOfSales')
          .choices(TERRITORIES_OF_SALES)
          .makeOptionMandatory(),
      )
      .option('--force-manual-referral', 'pass the quote to manual underwriting whatever its risk')
      .option(
        '--product-id <id>',
        'the commercial package',
        THIRD_PARTY_LIABILITY_PRODUCT.productId,
      )
      .option('--agent <username>', 'agent username in the underwriting system')
      .option('--agency-id <id>', 'the agency for which the quote is created')
      .option('--agency-name <name>', 'name of that agency')
      .addOption(majorOption(context.liabilityMajors))
      .addHelpText(
        'after',
        examples([
          'partner-apis liability quote create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
          'partner-apis liability quote create --seller SEL-000001 --country-of-sales OTHERS --territory US --force-manual-referral -o json',
        ]),
      ),
  ).action(async (options: QuoteOptions, command: Command) => {
    await context.run(command, async (session) => {
      const client = await liabilityClient(session, context.liabilityMajors, options.major);
      const created = await client.quotes.create(quoteFrom(options), {
        ...(options.forceManualReferral === true ? { forceManualReferral: true } : {}),
      });
      const sink = await context.output(options);
      await writeRecord(created, options.format, sink, context.writeOptions(options));
      await sink.close();
    });
  });
}
