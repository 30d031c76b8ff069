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
import { Option } from 'commander';
import type { LiabilityMajors } from '../liability-majors.js';
import { UsageError } from '../usage-error.js';
import type { CommandContext } from '../command-context.js';
import type { OperationExtension, OperationOptions } from './operation-extension.js';
import type { Convenience } from './operations.js';
import { collect } from './option-parsers.js';

interface SellerOptions extends OperationOptions {
  name?: string;
  country?: string;
  street?: string;
  city?: string;
  postalCode?: string;
  registrationNumber?: string;
  email?: string;
  marketplace: string[];
}

interface QuoteOptions extends OperationOptions {
  seller?: string[];
  countryOfSales?: CountryOfSales;
  territory?: TerritoryOfSales;
  forceManualReferral?: boolean;
  productId?: string;
  agent?: string;
  agencyId?: string;
  agencyName?: string;
}

function sellerFrom(options: SellerOptions & { name: string; country: string }): Seller {
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

function quoteFrom(
  options: QuoteOptions & Required<Pick<QuoteOptions, 'seller' | 'countryOfSales' | 'territory'>>,
): QuoteRequest {
  const quote: QuoteRequest = {
    productId: options.productId ?? THIRD_PARTY_LIABILITY_PRODUCT.productId,
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
 * The body a convenience's options give: undefined when none of `flags` was given (then
 * `--data` gives it), a usage error when `--data` is given too or a `required` one is missing.
 */
function bodyOf<T extends OperationOptions>(
  options: T,
  what: string,
  flags: Readonly<Record<string, string>>,
  required: readonly string[],
  build: (options: T) => unknown,
): unknown {
  const given = Object.keys(flags).filter((key) => {
    const value = options[key];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });
  const names = required.map((key) => flags[key]).join(' and ');
  if (given.length === 0) {
    if (options.data === undefined) {
      throw new UsageError(`give the ${what}: ${names}, or --data JSON`);
    }
    return undefined;
  }
  if (options.data !== undefined) {
    throw new UsageError(`--data and ${flags[given[0]!]} both give the ${what}: give one of them`);
  }
  const missing = required.filter((key) => options[key] === undefined).map((key) => flags[key]);
  if (missing.length > 0) {
    throw new UsageError(`the ${what} also needs ${missing.join(' and ')} (or give --data JSON)`);
  }
  return build(options);
}

/** The option of each seller field, as `bodyOf` names them. */
const SELLER_FLAGS = {
  name: '--name',
  country: '--country',
  street: '--street',
  city: '--city',
  postalCode: '--postal-code',
  registrationNumber: '--registration-number',
  email: '--email',
  marketplace: '--marketplace',
};

/** The option of each quote field, as `bodyOf` names them. */
const QUOTE_FLAGS = {
  seller: '--seller',
  countryOfSales: '--country-of-sales',
  territory: '--territory',
  productId: '--product-id',
  agent: '--agent',
  agencyId: '--agency-id',
  agencyName: '--agency-name',
};

/**
 * The conveniences of `liability sellers create` (a seller from `--name`, `--country`, …) and
 * `liability quotes create` (a third party liability quote from `--seller`,
 * `--country-of-sales`, `--territory`, …), beside the spec's `--data`.
 */
export const LIABILITY_EXTENSIONS: Readonly<Record<string, OperationExtension>> = {
  'sellers.create': {
    configure(command) {
      command
        .option('--name <name>', 'legal name of the seller (with --country, instead of --data)')
        .option('--country <code>', 'ISO 3166-1 alpha-2 country of the seller, e.g. DE')
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
        );
    },
    examples: [
      'partner-apis liability sellers create --name "Nordlicht Home GmbH" --country DE --city Hamburg --marketplace Amazon',
    ],
    body: (options) =>
      bodyOf(options as SellerOptions, 'seller', SELLER_FLAGS, ['name', 'country'], (given) =>
        sellerFrom(given as SellerOptions & { name: string; country: string }),
      ),
  },
  'quotes.create': {
    configure(command) {
      command
        .option(
          '--seller <sellerId>',
          'the insured seller; repeat for several (with --country-of-sales and --territory, instead of --data)',
          collect,
        )
        .addOption(
          new Option('--country-of-sales <value>', 'declarative question countryOfSales').choices(
            COUNTRIES_OF_SALES,
          ),
        )
        .addOption(
          new Option('--territory <value>', 'declarative question territoryOfSales').choices(
            TERRITORIES_OF_SALES,
          ),
        )
        .option(
          '--force-manual-referral',
          'pass the quote to manual underwriting whatever its risk',
        )
        .option(
          '--product-id <id>',
          `the commercial package (default: ${THIRD_PARTY_LIABILITY_PRODUCT.productId})`,
        )
        .option('--agent <username>', 'agent username in the underwriting system')
        .option('--agency-id <id>', 'the agency for which the quote is created')
        .option('--agency-name <name>', 'name of that agency');
    },
    examples: [
      'partner-apis liability quotes create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
      'partner-apis liability quotes create --seller SEL-000001 --country-of-sales OTHERS --territory US --force-manual-referral -o json',
    ],
    body: (options) =>
      bodyOf(
        options as QuoteOptions,
        'quote',
        QUOTE_FLAGS,
        ['seller', 'countryOfSales', 'territory'],
        (given) => quoteFrom(given as Parameters<typeof quoteFrom>[0]),
      ),
    callOptions: (options) =>
      options.forceManualReferral === true ? { forceManualReferral: true } : {},
  },
};

/**
 * What the command line adds to the liability service: `--major`, the bodies of `sellers
 * create` and `quotes create` from a few options, and the client of the major chosen.
 */
export function liabilityConvenience(context: CommandContext): Convenience {
  return {
    examples: [
      'partner-apis liability sellers create --name "Nordlicht Home GmbH" --country DE',
      'partner-apis liability quotes create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
      'partner-apis liability quotes search --seller-id SEL-000001',
    ],
    extensions: LIABILITY_EXTENSIONS,
    commandOptions: () => [majorOption(context.liabilityMajors)],
    client: async (session, options) =>
      (await import('../clients.js')).liabilityClient(
        session,
        context.liabilityMajors,
        options.major,
      ),
  };
}
