import type { OpenApiDocument } from '@partner-apis/spec-model';
import { parseBasic } from '../auth/authorization-header.js';
import type { SandboxContext } from '../context.js';
import { openapiDocument } from '../generated/liability.document.js';
import { errorReply, json, type ErrorCause, type Reply } from '../http/reply.js';
import { withFreshRequestId } from './request-ids.js';
import type { ServiceDefinition } from './service.js';

interface PolicyLine {
  id: string;
  declarativeQuestionAnswers: { countryOfSales?: string; territoryOfSales?: string };
}

interface QuoteRequest {
  productId: string;
  policyLines: PolicyLine[];
  insureds: { sellerId: string }[];
  underwritingInformation?: { forceManualReferral?: boolean };
}

/** The policy line of the third party liability product; the spec says which answers it needs. */
const LIABILITY_LINE = 'liability';

const BASE_PREMIUM: Record<string, number> = {
  'EU-ASIA': 1240,
  'US-CA-UK-IL-CL-AU': 1890,
  OTHERS: 1560,
};
const US_TERRITORY_FACTOR = 1.6;
// Lines of other products are not published; they get a flat premium so a quote still prices.
const OTHER_LINE_PREMIUM = 250;

const REFERRALS = {
  forced: { code: 'MANUAL_REFERRAL_REQUESTED', reason: 'Manual referral was requested.' },
  usTerritory: {
    code: 'US_TERRITORY_OF_SALES',
    reason: 'Sales into the US territory need a risk assessment by an underwriter.',
  },
  otherCountries: {
    code: 'OTHER_COUNTRIES_OF_SALES',
    reason: 'Sales from other countries need a risk assessment by an underwriter.',
  },
} as const;

function invalid(message: string, causes: ErrorCause[]): Reply {
  return errorReply(400, 'data_validation', message, { causes });
}

/** The causes that make a quote request unusable beyond its schema: unknown sellers. */
function quoteProblems(quote: QuoteRequest, hasSeller: (id: string) => boolean): ErrorCause[] {
  const causes: ErrorCause[] = [];
  quote.insureds.forEach((insured, i) => {
    if (!hasSeller(insured.sellerId)) {
      causes.push({
        code: 'unknown_seller',
        message: `No seller with id ${insured.sellerId}; create it with POST /parties/sellers first.`,
        field: `/insureds/${i}/sellerId`,
      });
    }
  });
  return causes;
}

function assess(quote: QuoteRequest) {
  const referrals: { code: string; reason: string }[] = [];
  if (quote.underwritingInformation?.forceManualReferral === true) referrals.push(REFERRALS.forced);
  let premium = 0;
  for (const line of quote.policyLines) {
    if (line.id !== LIABILITY_LINE) {
      premium += OTHER_LINE_PREMIUM;
      continue;
    }
    const { countryOfSales = '', territoryOfSales } = line.declarativeQuestionAnswers;
    premium +=
      (BASE_PREMIUM[countryOfSales] ?? 0) * (territoryOfSales === 'US' ? US_TERRITORY_FACTOR : 1);
    if (territoryOfSales === 'US' && !referrals.includes(REFERRALS.usTerritory)) {
      referrals.push(REFERRALS.usTerritory);
    }
    if (countryOfSales === 'OTHERS' && !referrals.includes(REFERRALS.otherCountries)) {
      referrals.push(REFERRALS.otherCountries);
    }
  }
  // The document: a quote request "returns a valid price … and indicates any referrals", so a
  // referred quote is priced as well.
  return {
    status: referrals.length > 0 ? 'referred' : 'quoted',
    price: { amount: premium.toFixed(2), currency: 'EUR' },
    referrals,
  };
}

/**
 * The major version of a liability document, from its `info.version`; `undefined` when that
 * is no version.
 */
export function liabilityMajorOf(document: OpenApiDocument): number | undefined {
  const info = document.info as { version?: unknown } | undefined;
  const match = /^(\d+)\.\d+\.\d+/.exec(String(info?.version));
  return match ? Number(match[1]) : undefined;
}

/** Where a major version of the liability API is served: its major and an environment segment, as on UAT. */
export function liabilityBasePath(major: number): string {
  return `/liability/v${major}/sandbox`;
}

const ledger = (context: SandboxContext) => context.requestIds.liability;

/** The liability service (`specs/liability`): Basic auth, stored sellers and quotes. */
export const liabilityService: ServiceDefinition = {
  name: 'liability',
  basePath: liabilityBasePath(liabilityMajorOf(openapiDocument) ?? 1),
  document: openapiDocument,
  errorStyle: 'common',
  guard(headers, context) {
    const basic = parseBasic(headers.authorization);
    const { clientId, clientSecret } = context.credentials.liability;
    if (basic?.id === clientId && basic.secret === clientSecret) return undefined;
    return errorReply(401, 'authentication_error', 'Invalid client credentials.', {
      headers: { 'www-authenticate': 'Basic realm="liability"' },
    });
  },
  handlers: {
    createSeller: withFreshRequestId(ledger, ({ body }, context) =>
      json(201, context.liability.addSeller(body as Record<string, unknown>)),
    ),
    createQuote: withFreshRequestId(ledger, ({ body }, context) => {
      const request = body as QuoteRequest;
      const causes = quoteProblems(request, (id) => context.liability.hasSeller(id));
      if (causes.length > 0) return invalid('The quote request cannot be quoted.', causes);
      const quote = context.liability.addQuote({ ...request, ...assess(request) }, new Date());
      return json(201, quote);
    }),
    searchQuotes: withFreshRequestId(ledger, ({ query }, context) =>
      json(
        200,
        context.liability.searchQuotes({
          sellerId: query.sellerId as string | undefined,
          productId: query.productId as string | undefined,
          createdFrom: query.createdFrom as string | undefined,
          createdTo: query.createdTo as string | undefined,
        }),
      ),
    ),
    getQuote: withFreshRequestId(ledger, ({ path }, context) => {
      const quote = context.liability.getQuote(path.quoteId!);
      return quote
        ? json(200, quote)
        : errorReply(404, 'not_found', `No quote with id ${path.quoteId}.`);
    }),
  },
};

/**
 * The liability service of another major version, from its bundled spec: served under
 * `/liability/v<major>/sandbox` with the same credentials, sellers and quotes, its requests
 * validated against its own spec, its routes named `liability.v<major>.<operationId>`.
 */
export function liabilityServiceOf(
  document: OpenApiDocument,
  major: number,
  specOption?: string,
): ServiceDefinition {
  return {
    ...liabilityService,
    routeName: `liability.v${major}`,
    ...(specOption === undefined ? {} : { specOption }),
    basePath: liabilityBasePath(major),
    document,
  };
}
