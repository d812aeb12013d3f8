/**
 * Token overlap of the PulseBench-Select card: NFKC, lower-case, runs of letters, digits and
 * underscores, compared as sets.
 *
 * Why not `\w`: JavaScript's `\w` is ASCII-only even with the `u` flag, so "Größe" would split
 * into "gr" and "e". Why `toLowerCase` and not case folding: the card lower-cases, so "ß" stays
 * "ß" and does not become "ss".
 */

const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokenSet(text: string): Set<string> {
  return new Set(text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []);
}

/**
 * |T(gt) ∩ T(pred)| / max(|T(gt)|, |T(pred)|). Two empty sets overlap `emptyOverlap` (0 by
 * default: an empty label matches nothing; 1 with the option `empty_overlap=1`).
 */
export function tokenOverlap(gt: ReadonlySet<string>, pred: ReadonlySet<string>, emptyOverlap = 0): number {
  const denom = Math.max(gt.size, pred.size);
  if (denom === 0) return emptyOverlap;
  let common = 0;
  const [small, large] = gt.size <= pred.size ? [gt, pred] : [pred, gt];
  for (const t of small) if (large.has(t)) common += 1;
  return common / denom;
}
