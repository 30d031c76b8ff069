import { InvalidArgumentError } from '@partner-apis/errors';
import { schemaValues } from './generated/operations.js';
import type { CountryOfSales, PolicyLine, TerritoryOfSales } from './generated/resources.js';

/**
 * The identifiers of the third party liability product. The upstream document shows them run
 * together as one string; the spec splits it in the defaults of `ProductId` and `PolicyLineId`,
 * and this is generated from there, so the assumption lives in the spec alone.
 *
 * @example
 * const quote: QuoteRequest = {
 *   productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
 *   policyLines: [thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' })],
 *   insureds: [{ sellerId }],
 * };
 */
export const THIRD_PARTY_LIABILITY_PRODUCT: Readonly<{ productId: string; policyLineId: string }> =
  Object.freeze({
    productId: schemaValues.ProductId.default,
    policyLineId: schemaValues.PolicyLineId.default,
  });

/** Every published value of the declarative question `countryOfSales`, from the spec. */
export const COUNTRIES_OF_SALES: readonly CountryOfSales[] = schemaValues.CountryOfSales.enum;

/** Every published value of the declarative question `territoryOfSales`, from the spec. */
export const TERRITORIES_OF_SALES: readonly TerritoryOfSales[] = schemaValues.TerritoryOfSales.enum;

/** The answers the liability policy line of the third party liability product requires. */
export interface ThirdPartyLiabilityAnswers {
  countryOfSales: CountryOfSales;
  territoryOfSales: TerritoryOfSales;
}

const OPERATION = 'thirdPartyLiabilityPolicyLine';

function answer<T extends string>(
  answers: Record<string, unknown>,
  question: string,
  allowed: readonly T[],
): T {
  const value = answers[question];
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  const got = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new InvalidArgumentError(
    question,
    `must be one of ${allowed.join(', ')} (got ${got})`,
    OPERATION,
  );
}

/**
 * The policy line of the third party liability product with its two required declarative
 * answers; an `InvalidArgumentError` for a value the spec does not list.
 *
 * @example
 * thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' });
 * // { id: THIRD_PARTY_LIABILITY_PRODUCT.policyLineId,
 * //   declarativeQuestionAnswers: { countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' } }
 */
export function thirdPartyLiabilityPolicyLine(answers: ThirdPartyLiabilityAnswers): PolicyLine {
  if (typeof answers !== 'object' || answers === null) {
    throw new InvalidArgumentError('answers', 'must be an object', OPERATION);
  }
  const given = answers as unknown as Record<string, unknown>;
  return {
    id: THIRD_PARTY_LIABILITY_PRODUCT.policyLineId,
    declarativeQuestionAnswers: {
      countryOfSales: answer(given, 'countryOfSales', COUNTRIES_OF_SALES),
      territoryOfSales: answer(given, 'territoryOfSales', TERRITORIES_OF_SALES),
    },
  };
}
