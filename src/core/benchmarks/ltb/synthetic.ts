/**
 * Deterministic synthetic geometry shared by the LTB demo and the LTB bench: a seeded random
 * source and rotated word quads rounded to 0.1 px, as text detectors' outputs look.
 */

/** xorshift32: deterministic and fast; returns floats in [0, 1). */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export const r1 = (x: number) => Math.round(x * 10) / 10;

export function quad(cx: number, cy: number, w: number, h: number, angle: number): number[] {
  const c = Math.cos(angle), s = Math.sin(angle);
  const out: number[] = [];
  for (const [dx, dy] of [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) out.push(r1(cx + dx * c - dy * s), r1(cy + dx * s + dy * c));
  return out;
}
