/** Mixes the bits of a 32-bit integer (the murmur3 finaliser). */
function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 32-bit hash of a string, to derive a seed from a name such as an employee number.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/**
 * A 32-bit hash of a few integers: the seed of one record of one collection under one seed, so
 * a record is the same whichever page asks for it.
 */
export function hash(...parts: readonly number[]): number {
  let h = 0x9e3779b1;
  for (const part of parts) h = mix32(h ^ Math.imul(part | 0, 0x85ebca77));
  return h;
}
