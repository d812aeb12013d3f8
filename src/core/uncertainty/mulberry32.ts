/**
 * The generator of shared/specs/uncertainty.md: mulberry32 giving raw 32-bit outputs, and the
 * spec's index draw. Kept apart from core/random.ts (floats for demos) because the spec fixes
 * the integer outputs and the index formula, which a checker in another language reproduces.
 */

/**
 * A mulberry32 generator on a 32-bit state; `next()` returns the next output in [0, 2^32). A
 * class (one shape, one method) so that the engine's hot loops get it inlined: millions of
 * draws per report.
 */
export class Mulberry32 {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    const a = (this.a = (this.a + 0x6d2b79f5) >>> 0);
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }
}

/** The same generator as a function (for tests and checkers). */
export function mulberry32u32(seed: number): () => number {
  const g = new Mulberry32(seed);
  return () => g.next();
}

const TWO_32 = 4294967296;

/** An index in [0, n): floor(u · n / 2^32), exact in doubles for n < 2^21. */
export function drawIndex(u: number, n: number): number {
  return Math.floor((u * n) / TWO_32);
}

/** The randomization test swaps a unit when the output is ≥ 2^31. */
export const SWAP_AT = 2147483648;
