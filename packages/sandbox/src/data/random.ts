/** Mixes the bits of a 32-bit integer (the murmur3 finaliser). */
function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of a string, to derive a seed from a name such as an employee number. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/**
 * A small seeded generator (mulberry32). Records are generated from `(seed, stream, index)`
 * alone, so record 99,999 costs the same as record 0 and nothing is generated ahead.
 *
 * @example
 * const random = new SeededRandom();
 * random.reset(42, 1, 7);
 * random.pick(['a', 'b', 'c']);
 */
export class SeededRandom {
  #state = 0;

  /** Starts the sequence of record `index` of `stream` under `seed`. */
  reset(seed: number, stream: number, index: number): this {
    this.#state = mix32(mix32(seed ^ Math.imul(stream, 0x9e3779b1)) ^ Math.imul(index, 0x85ebca77));
    return this;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A number in [min, max) rounded to `step`. */
  amount(min: number, max: number, step: number): number {
    return Math.round((min + this.next() * (max - min)) / step) * step;
  }
}
