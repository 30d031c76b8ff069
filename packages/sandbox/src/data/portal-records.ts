import { formatDay, type RecordWriter } from './collection.js';
import { SeededRandom } from './random.js';
import {
  CONSTRUCTION_CLASSES,
  FIRST_NAMES,
  GRADES,
  GRADING_CATEGORIES,
  LAST_NAMES,
  PLACES,
  SITE_KINDS,
  type Place,
} from './words.js';

// Streams keep the records of one kind independent of those of another under the same seed.
const SITE_STREAM = 1;
const GRADING_STREAM = 2;

const LETTERS = [...'ABCDEFGHJKLMNPRSTUVWXYZ'];

function postalCode(random: SeededRandom, pattern: string): string {
  let code = '';
  for (const char of pattern) {
    if (char === '9') code += String(random.int(0, 9));
    else if (char === 'A') code += random.pick(LETTERS);
    else code += char;
  }
  return code;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** `LOC-0000001` for index 0: the identifier that ties gradings and both location reads. */
export function locationId(index: number): string {
  return `LOC-${String(index + 1).padStart(7, '0')}`;
}

/** The facts of one insured site, shared by the exposure and the risk engineering records. */
interface Site {
  place: Place;
  name: string;
  occupancy: string;
  construction: string;
  sprinklered: boolean;
}

function site(random: SeededRandom, seed: number, index: number): Site {
  random.reset(seed, SITE_STREAM, index);
  const place = random.pick(PLACES);
  const kind = random.pick(SITE_KINDS);
  return {
    place,
    name: `${place.city} ${kind.site}`,
    occupancy: kind.occupancy,
    construction: random.pick(CONSTRUCTION_CLASSES),
    sprinklered: random.chance(0.7),
  };
}

/**
 * Writes exposure location `index` as JSON text: the fields of a Statement of Values location
 * plus `country`, `currency` and `modifiedDate`.
 *
 * @example
 * exposureLocationWriter(42)(0, 19_500); // '{"locationId":"LOC-0000001",…}'
 */
export function exposureLocationWriter(seed: number): RecordWriter {
  const random = new SeededRandom();
  return (index, modifiedDay) => {
    const s = site(random, seed, index);
    const { place } = s;
    const number = random.int(1, 240);
    const street = place.numberAfterStreet
      ? `${random.pick(place.streets)} ${number}`
      : `${number} ${random.pick(place.streets)}`;
    const latitude = round(place.latitude + (random.next() - 0.5) * 0.3, 4);
    const longitude = round(place.longitude + (random.next() - 0.5) * 0.3, 4);
    const buildings = random.amount(500_000, 80_000_000, 10_000);
    const contents = random.amount(100_000, buildings, 10_000);
    const businessInterruption = random.amount(0, buildings / 2, 10_000);
    return (
      `{"locationId":"${locationId(index)}","name":"${s.name}",` +
      `"address":{"street":"${street}","city":"${place.city}",` +
      `"postalCode":"${postalCode(random, place.postalCode)}","country":"${place.country}"},` +
      `"country":"${place.country}",` +
      `"coordinates":{"latitude":${latitude},"longitude":${longitude}},` +
      `"occupancy":"${s.occupancy}","construction":"${s.construction}",` +
      `"yearBuilt":${random.int(1950, 2022)},"numberOfStoreys":${random.int(1, 8)},` +
      `"floorArea":${random.amount(800, 90_000, 50)},"sprinklered":${s.sprinklered},` +
      `"currency":"${place.currency}","values":{"buildings":${buildings},` +
      `"contents":${contents},"businessInterruption":${businessInterruption}},` +
      `"modifiedDate":"${formatDay(modifiedDay)}"}`
    );
  };
}

/**
 * Writes risk engineering location `index` as JSON text: the same site as exposure location
 * `index`, seen by the risk engineers.
 *
 * @example
 * riskLocationWriter(42)(0, 19_500); // '{"locationId":"LOC-0000001",…,"riskScore":…}'
 */
export function riskLocationWriter(seed: number): RecordWriter {
  const random = new SeededRandom();
  return (index, modifiedDay) => {
    const s = site(random, seed, index);
    return (
      `{"locationId":"${locationId(index)}","name":"${s.name}","city":"${s.place.city}",` +
      `"country":"${s.place.country}","occupancy":"${s.occupancy}",` +
      `"construction":"${s.construction}","sprinklered":${s.sprinklered},` +
      `"riskScore":${random.int(35, 98)},` +
      `"lastSurveyDate":"${formatDay(modifiedDay - random.int(0, 90))}",` +
      `"modifiedDate":"${formatDay(modifiedDay)}"}`
    );
  };
}

/**
 * Writes grading `index` as JSON text; it grades one of the first `locationCount` locations.
 *
 * @example
 * gradingWriter(42, 5000)(0, 19_500); // '{"gradingId":"GRD-0000001","locationId":"LOC-…",…}'
 */
export function gradingWriter(seed: number, locationCount: number): RecordWriter {
  const random = new SeededRandom();
  return (index, modifiedDay) => {
    random.reset(seed, GRADING_STREAM, index);
    const location = random.int(0, Math.max(0, locationCount - 1));
    const grade = random.pick(GRADES);
    return (
      `{"gradingId":"GRD-${String(index + 1).padStart(7, '0')}",` +
      `"locationId":"${locationId(location)}","grade":"${grade}",` +
      `"category":"${random.pick(GRADING_CATEGORIES)}",` +
      `"score":${100 - GRADES.indexOf(grade) * 18 - random.int(0, 12)},` +
      `"surveyDate":"${formatDay(modifiedDay - random.int(0, 60))}",` +
      `"surveyor":"${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}",` +
      `"openRecommendations":${random.int(0, 9)},` +
      `"modifiedDate":"${formatDay(modifiedDay)}"}`
    );
  };
}
