/**
 * The views on the canvas: alone, model A (else the first shown model with a record); compared
 * (overlay, side by side), every SHOWN model that has a record of the case — A first, then B,
 * then the rest in the order they are shown. Pure, so it is tested in Node.
 */
export function orderViews<T extends { model: string }>(views: readonly T[], shown: readonly string[], a: string | null, b: string | null, many: boolean): T[] {
  const rank = (m: string) => (m === a ? 0 : m === b ? 1 : 2 + shown.indexOf(m));
  const ordered = views.filter((v) => shown.includes(v.model)).sort((x, y) => rank(x.model) - rank(y.model));
  if (!many) {
    const alone = views.find((v) => v.model === a) ?? ordered[0];
    return alone ? [alone] : [];
  }
  return ordered;
}
