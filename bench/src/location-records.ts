const CITIES = [
  ['Rotterdam', 'NL', '3089 JB', 'Waalhaven Zuidzijde 21'],
  ['Lyon', 'FR', '69007', 'Rue de Gerland 112'],
  ['Zürich', 'CH', '8005', 'Hardturmstrasse 161'],
  ['Hamburg', 'DE', '20457', 'Am Sandtorkai 38'],
  ['Milano', 'IT', '20141', 'Via Ripamonti 89'],
] as const;

/**
 * The exposure location at `index`, built from the index alone so a server can page through
 * any count of them without holding them (about 450 bytes of JSON each).
 */
export function locationRecord(index: number): Record<string, unknown> {
  const [city, country, postalCode, street] = CITIES[
    index % CITIES.length
  ] as (typeof CITIES)[number];
  return {
    locationId: `LOC-${String(index).padStart(7, '0')}`,
    name: `${city} site ${index}`,
    country,
    address: { street, postalCode, city, country },
    coordinates: { latitude: 45 + (index % 900) / 100, longitude: 4 + (index % 500) / 100 },
    occupancy: index % 3 === 0 ? 'Warehouse' : 'Light manufacturing',
    construction: 'Non-combustible',
    yearBuilt: 1960 + (index % 60),
    currency: 'EUR',
    values: {
      buildings: 1_000_000 + index * 13,
      contents: 250_000 + index * 7,
      businessInterruption: 400_000,
    },
    modifiedDate: `2026-0${1 + (index % 9)}-1${index % 10}`,
  };
}
