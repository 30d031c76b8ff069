import { ConfigurationError } from '@partner-apis/errors';

/** Where an API key goes, as an `apiKey` security scheme of a spec says. */
export interface KeyPlacement {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const PLACES = ['header', 'query', 'cookie'];

/** A placement checked: a valid header name, a non-empty query or cookie name. */
export function keyPlacement(option: string, value: unknown): KeyPlacement {
  const placement = value as Partial<KeyPlacement> | undefined;
  const name = placement?.name;
  const place = placement?.in;
  if (typeof name !== 'string' || !HEADER_NAME.test(name) || !PLACES.includes(String(place))) {
    throw new ConfigurationError(
      option,
      'must be { in: header, query or cookie, name } with a name of letters, digits and -',
    );
  }
  return { in: place as KeyPlacement['in'], name: place === 'header' ? name.toLowerCase() : name };
}

/**
 * Puts a key where its placement says: a header, a cookie beside the request's own (once, however
 * often an attempt is authorized), or the query pairs the URL is sent with and never shown with.
 */
export function placeKey(
  placement: KeyPlacement,
  value: string,
  headers: Headers,
  query: [string, string][],
): void {
  if (placement.in === 'header') headers.set(placement.name, value);
  else if (placement.in === 'query') query.push([placement.name, value]);
  else {
    const others = (headers.get('cookie') ?? '')
      .split(';')
      .map((pair) => pair.trim())
      .filter((pair) => pair !== '' && !pair.startsWith(`${placement.name}=`));
    headers.set('cookie', [...others, `${placement.name}=${encodeURIComponent(value)}`].join('; '));
  }
}
