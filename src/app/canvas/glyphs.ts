/**
 * CJK and rare-script text: drawn with a font stack that has the glyphs; where no installed font
 * has a glyph, the code point (U+2A6D6) is shown instead of an empty "tofu" box, so a reviewer
 * can still tell which character the GT or the model gave.
 */

export const FONT_STACK = "'Noto Sans CJK SC', 'Noto Serif CJK SC', 'Source Han Sans SC', 'Source Han Sans', 'Noto Sans', system-ui, sans-serif";

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

export interface GlyphRun {
  text: string;
  /** true: no installed font draws these characters; `text` is then their U+XXXX labels. */
  missing: boolean;
}

/** Splits text into runs of drawable characters and code-point labels for missing ones. */
export function glyphRuns(text: string, has: (cp: number) => boolean): GlyphRun[] {
  const runs: GlyphRun[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const ok = has(cp);
    const piece = ok ? ch : codePointLabel(cp);
    const last = runs[runs.length - 1];
    if (last && last.missing === !ok) last.text += ok ? piece : ` ${piece}`;
    else runs.push({ text: piece, missing: !ok });
  }
  return runs;
}

/** The text as a canvas label: missing glyphs become ‹U+XXXX›. */
export function displayText(text: string, has: (cp: number) => boolean): string {
  return glyphRuns(text, has)
    .map((r) => (r.missing ? `‹${r.text}›` : r.text))
    .join('');
}

/** Characters every fallback font has; never probed. */
function assumedPresent(cp: number): boolean {
  return cp < 0x0250 || (cp >= 0x2000 && cp < 0x2070) || cp === 0x2610 || cp === 0x2611;
}

type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

const SIZE = 24;
let probeCtx: Ctx | null = null;
let tofu: { width: number; hash: string } | null = null;
const cache = new Map<number, boolean>();

function context(): Ctx | null {
  if (probeCtx) return probeCtx;
  if (typeof OffscreenCanvas !== 'undefined') probeCtx = new OffscreenCanvas(SIZE * 2, SIZE * 2).getContext('2d', { willReadFrequently: true });
  else if (typeof document !== 'undefined') probeCtx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  return probeCtx;
}

function render(ctx: Ctx, ch: string): { width: number; hash: string; ink: boolean } {
  ctx.clearRect(0, 0, SIZE * 2, SIZE * 2);
  ctx.font = `${SIZE}px ${FONT_STACK}`;
  ctx.textBaseline = 'top';
  ctx.fillStyle = '#000';
  ctx.fillText(ch, 4, 4);
  const data = ctx.getImageData(0, 0, SIZE * 2, SIZE * 2).data;
  // A cheap rolling hash of the alpha channel identifies the drawn glyph.
  let h = 0;
  let ink = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i]) ink = true;
    h = (Math.imul(h, 31) + data[i]) | 0;
  }
  return { width: ctx.measureText(ch).width, hash: String(h), ink };
}

/**
 * Whether an installed font draws this code point: its pixels are compared with those of a
 * code point no font has (plane-16 private use), which is the "tofu" the browser would draw.
 * Cached per code point; true when no canvas is available (nothing to compare with).
 */
export function hasGlyph(cp: number): boolean {
  if (assumedPresent(cp)) return true;
  const known = cache.get(cp);
  if (known !== undefined) return known;
  const ctx = context();
  if (!ctx) return true;
  if (!tofu) {
    const t = render(ctx, String.fromCodePoint(0x10fffd));
    tofu = { width: t.width, hash: t.hash };
  }
  const ch = String.fromCodePoint(cp);
  const r = render(ctx, ch);
  const whitespace = /\s/u.test(ch);
  const ok = whitespace || (r.ink && !(r.hash === tofu.hash && r.width === tofu.width));
  cache.set(cp, ok);
  return ok;
}

/** Forgets probe results (fonts loaded later may add glyphs). */
export function resetGlyphCache(): void {
  cache.clear();
  tofu = null;
}
