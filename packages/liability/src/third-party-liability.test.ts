import { InvalidArgumentError } from '@partner-apis/errors';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  COUNTRIES_OF_SALES,
  TERRITORIES_OF_SALES,
  THIRD_PARTY_LIABILITY_PRODUCT,
  thirdPartyLiabilityPolicyLine,
  type CountryOfSales,
  type PolicyLine,
  type QuoteRequest,
  type TerritoryOfSales,
} from './index.js';

/** The spec's own example of a third party liability quote request. */
const spec = parse(
  readFileSync(new URL('../../../specs/liability/openapi.yaml', import.meta.url), 'utf8'),
) as { components: { examples: { ThirdPartyLiabilityQuoteRequest: { value: QuoteRequest } } } };
const example = spec.components.examples.ThirdPartyLiabilityQuoteRequest.value;

describe('the third party liability product', () => {
  it("has the ids of the spec's example request", () => {
    expect(THIRD_PARTY_LIABILITY_PRODUCT).toEqual({
      productId: example.productId,
      policyLineId: example.policyLines[0]?.id,
    });
    expect(Object.isFrozen(THIRD_PARTY_LIABILITY_PRODUCT)).toBe(true);
  });

  it("builds the example's policy line from its two answers", () => {
    const line = example.policyLines[0] as PolicyLine;
    const answers = line.declarativeQuestionAnswers as {
      countryOfSales: CountryOfSales;
      territoryOfSales: TerritoryOfSales;
    };
    expect(thirdPartyLiabilityPolicyLine(answers)).toEqual(line);
  });

  it('lists the published answers, typed as the enums', () => {
    expect(COUNTRIES_OF_SALES).toEqual(['EU-ASIA', 'US-CA-UK-IL-CL-AU', 'OTHERS']);
    expect(TERRITORIES_OF_SALES).toEqual(['US', 'NON-US']);
    expectTypeOf(COUNTRIES_OF_SALES).toEqualTypeOf<readonly CountryOfSales[]>();
    expectTypeOf(TERRITORIES_OF_SALES).toEqualTypeOf<readonly TerritoryOfSales[]>();
  });

  it('builds a line for every combination of answers', () => {
    for (const countryOfSales of COUNTRIES_OF_SALES) {
      for (const territoryOfSales of TERRITORIES_OF_SALES) {
        expect(
          thirdPartyLiabilityPolicyLine({ countryOfSales, territoryOfSales })
            .declarativeQuestionAnswers,
        ).toEqual({ countryOfSales, territoryOfSales });
      }
    }
  });

  it.each([
    [
      { countryOfSales: 'EU', territoryOfSales: 'US' },
      'countryOfSales',
      'EU-ASIA, US-CA-UK-IL-CL-AU, OTHERS',
    ],
    [{ countryOfSales: 'OTHERS', territoryOfSales: 'us' }, 'territoryOfSales', 'US, NON-US'],
    [{ countryOfSales: 'OTHERS' }, 'territoryOfSales', 'US, NON-US'],
    [null, 'answers', 'must be an object'],
  ])('refuses %j, naming %s', (answers, argument, expected) => {
    const call = () => thirdPartyLiabilityPolicyLine(answers as never);
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`thirdPartyLiabilityPolicyLine: ${argument}`);
    expect(call).toThrow(expected);
  });
});
