/**
 * A seeded pseudo-random source: the same seed gives the same sequence on every machine and
 * Node version (integer arithmetic only; no Math.random). sfc32, seeded by a hash of a text.
 */

/** 32-bit hash of a text (cyrb53's mixing, cut to 32 bits): seeds and per-day prices. */
export function hash32(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

export interface Random {
  /** A uniform integer in [0, 2^32). */
  next(): number;
  /** A uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function createRandom(seedText: string): Random {
  let a = hash32(`a:${seedText}`);
  let b = hash32(`b:${seedText}`);
  let c = hash32(`c:${seedText}`);
  let d = 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Warm up: the first outputs of sfc32 correlate with the seed.
  for (let i = 0; i < 12; i++) next();
  const random: Random = {
    next,
    int: (min, max) => min + (next() % (max - min + 1)),
    chance: (p) => next() < p * 2 ** 32,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[next() % items.length] as (typeof items)[number];
    },
  };
  return random;
}
