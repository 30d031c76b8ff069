/** The client ID and secret of an `Authorization: Basic …` header, if it holds a valid pair. */
export function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  if (header === undefined || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The token of an `Authorization: Bearer …` header, if any. */
export function parseBearer(header: string | undefined): string | undefined {
  if (header === undefined || !/^bearer /i.test(header)) return undefined;
  const token = header.slice(7).trim();
  return token === '' ? undefined : token;
}
