import type { OpenApiDocument } from '@partner-apis/spec-model';

const LOCATIONS = [
  {
    locationId: 'LOC-0001842',
    name: 'Rotterdam distribution centre',
    address: {
      street: 'Waalhaven Zuidzijde 21',
      city: 'Rotterdam',
      postalCode: '3089 JH',
      country: 'NL',
    },
    country: 'NL',
    coordinates: { latitude: 51.8872, longitude: 4.4378 },
    occupancy: 'Warehouse',
    construction: 'Non-combustible',
    yearBuilt: 1998,
    numberOfStoreys: 2,
    floorArea: 18500,
    sprinklered: true,
    currency: 'EUR',
    values: { buildings: 42000000, contents: 15500000, businessInterruption: 9000000 },
    modifiedDate: '2026-02-03',
  },
  {
    locationId: 'LOC-0002210',
    name: 'Lyon assembly plant',
    address: { street: "12 Rue de l'Industrie", city: 'Lyon', postalCode: '69007', country: 'FR' },
    country: 'FR',
    coordinates: { latitude: 45.7485, longitude: 4.8467 },
    occupancy: 'Light assembly',
    construction: 'Masonry',
    yearBuilt: 1974,
    numberOfStoreys: 1,
    floorArea: 9200,
    sprinklered: false,
    currency: 'EUR',
    values: { buildings: 18000000, contents: 6200000, businessInterruption: 3100000 },
    modifiedDate: '2026-02-10',
  },
  {
    locationId: 'LOC-0003107',
    name: 'Manchester cold store',
    address: {
      street: '4 Trafford Wharf Road',
      city: 'Manchester',
      postalCode: 'M17 1AB',
      country: 'GB',
    },
    country: 'GB',
    coordinates: { latitude: 53.4668, longitude: -2.2952 },
    occupancy: 'Cold storage',
    construction: 'Steel frame',
    yearBuilt: 2011,
    numberOfStoreys: 3,
    floorArea: 26400,
    sprinklered: true,
    currency: 'GBP',
    values: { buildings: 61000000, contents: 24800000, businessInterruption: 12500000 },
    modifiedDate: '2025-11-27',
  },
  {
    locationId: 'LOC-0004455',
    name: 'Chicago packaging line',
    address: {
      street: '1800 West Fulton Street',
      city: 'Chicago',
      postalCode: '60612',
      country: 'US',
    },
    country: 'US',
    coordinates: { latitude: 41.8869, longitude: -87.6716 },
    occupancy: 'Packaging',
    construction: 'Reinforced concrete',
    yearBuilt: 1987,
    numberOfStoreys: 4,
    floorArea: 31000,
    sprinklered: true,
    currency: 'USD',
    values: { buildings: 73500000, contents: 28000000, businessInterruption: 17000000 },
    modifiedDate: '2025-12-15',
  },
];

const GRADINGS = [
  ['A', 'Fire protection', 94, 'Sanne de Vries', 0],
  ['B', 'Housekeeping', 81, 'Lena Fischer', 2],
  ['C', 'Electrical installations', 66, 'Tomás Herrera', 4],
  ['D', 'Natural hazards', 48, 'Amara Okafor', 6],
  ['E', 'Business continuity', 31, 'Jonas Lindqvist', 9],
] as const;

/**
 * Example records of the specs' open record schemas, whose fields the upstreams do not show
 * (`x-upstream-gap`): the sandbox generates those records from these, as it generates every
 * other record from its spec's examples. A schema that gets examples of its own in the spec
 * keeps them, and these are no longer used.
 */
const OPEN_RECORD_EXAMPLES: Readonly<Record<string, Readonly<Record<string, readonly object[]>>>> =
  {
    exposure: { Location: LOCATIONS },
    riskEngineering: {
      // The risk engineers' view of the same sites.
      RiskLocation: LOCATIONS.map((site, i) => ({
        locationId: site.locationId,
        name: site.name,
        city: site.address.city,
        country: site.country,
        occupancy: site.occupancy,
        construction: site.construction,
        sprinklered: site.sprinklered,
        riskScore: 82 - i * 9,
        lastSurveyDate: `2025-1${i % 3}-1${i + 2}`,
        modifiedDate: site.modifiedDate,
      })),
      Grading: GRADINGS.map(([grade, category, score, surveyor, openRecommendations], i) => ({
        gradingId: `GRD-000073${i + 1}`,
        locationId: LOCATIONS[i % LOCATIONS.length]!.locationId,
        grade,
        category,
        score,
        surveyDate: `2025-1${i % 3}-1${i + 2}`,
        surveyor,
        openRecommendations,
        modifiedDate: `2026-01-2${i + 1}`,
      })),
    },
  };

type Schemas = Record<string, Record<string, unknown>>;

/**
 * The document with the sandbox's example records on those of its open record schemas that
 * have no examples of their own.
 */
export function withOpenRecordExamples(
  service: string,
  document: OpenApiDocument,
): OpenApiDocument {
  const additions = OPEN_RECORD_EXAMPLES[service] ?? {};
  const components = document.components as { schemas?: Schemas } | undefined;
  const schemas = { ...components?.schemas };
  let changed = false;
  for (const [name, examples] of Object.entries(additions)) {
    const schema = schemas[name];
    if (schema === undefined || schema.examples !== undefined || schema.properties !== undefined) {
      continue;
    }
    schemas[name] = { ...schema, examples };
    changed = true;
  }
  return changed ? { ...document, components: { ...components, schemas } } : document;
}
