/** Where the secret scan found a secret. */
export interface SecretHits {
  count: number;
  /** Up to five places, with the secret itself masked. */
  examples: string[];
}

/** The forms a client id and secret take on the wire: `Basic base64(id:secret)`, plain and URL-encoded. */
function basicForms(pair: { clientId: string; clientSecret: string }): string[] {
  const plain = `${pair.clientId}:${pair.clientSecret}`;
  const encoded = `${encodeURIComponent(pair.clientId)}:${encodeURIComponent(pair.clientSecret)}`;
  return [...new Set([plain, encoded])].map((form) => Buffer.from(form).toString('base64'));
}

/**
 * Counts every occurrence of a secret, or of a Basic credential built from one, in the texts a
 * run produced (log lines, events, error messages and their inspections).
 *
 * @example
 * findSecrets(['401 for key abc'], ['abc'], []); // { count: 1, examples: ['401 for key ***'] }
 */
export function findSecrets(
  texts: readonly string[],
  secrets: readonly string[],
  basicPairs: readonly { clientId: string; clientSecret: string }[],
): SecretHits {
  const needles = [...new Set([...secrets, ...basicPairs.flatMap(basicForms)])].filter(
    (needle) => needle.length >= 8,
  );
  let count = 0;
  const examples: string[] = [];
  for (const text of texts) {
    for (const needle of needles) {
      let at = text.indexOf(needle);
      while (at !== -1) {
        count++;
        if (examples.length < 5) {
          const context = text.slice(Math.max(0, at - 60), at + needle.length + 60);
          examples.push(context.replaceAll(needle, '***'));
        }
        at = text.indexOf(needle, at + needle.length);
      }
    }
  }
  return { count, examples };
}
