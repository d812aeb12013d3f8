/**
 * Benchlens' icon, drawn by the project's own code: a tilted word box (what the benchmarks
 * score) under a lens (what the viewer does). One list of polygons in a 64 × 64 design space
 * gives both the SVG favicon and the PNG app icons (through src/core/image/png.ts), so they
 * cannot drift apart. `npx tsx scripts/make-icons.ts` writes them into public/;
 * test/icons.test.ts checks the committed files are what this draws.
 */
import { Raster } from '../src/core/image/png';

type Rgb = [number, number, number];
interface Shape {
  points: number[];
  color: Rgb;
}

const BACKGROUND: Rgb = [31, 58, 95];

function circle(cx: number, cy: number, r: number, n = 48, reverse = false): number[] {
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const a = ((reverse ? -i : i) / n) * 2 * Math.PI;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

/** The shapes, in drawing order, in a 64 × 64 box. */
function shapes(): Shape[] {
  return [
    // The word box: a quadrilateral like an LTB ground-truth polygon.
    { points: [8, 22, 44, 14, 48, 30, 12, 38], color: [236, 232, 222] },
    // The lens: a ring (outer circle, then the inner one backwards; even-odd leaves the hole).
    { points: [...circle(36, 34, 15), ...circle(36, 34, 10.5, 48, true)], color: [242, 153, 74] },
    // The handle.
    { points: [45, 46, 49, 42, 60, 53, 56, 57], color: [242, 153, 74] },
  ];
}

const r2 = (v: number) => Math.round(v * 100) / 100;

export function iconSvg(): string {
  const paths = shapes().map(({ points, color }) => {
    let d = '';
    for (let i = 0; i < points.length; i += 2) d += `${i ? 'L' : 'M'}${r2(points[i])} ${r2(points[i + 1])}`;
    return `<path fill="rgb(${color.join(',')})" fill-rule="evenodd" d="${d}Z"/>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="12" fill="rgb(${BACKGROUND.join(',')})"/>${paths.join('')}</svg>\n`
  );
}

/** A square PNG icon; `safe` shrinks the drawing into the middle (maskable icons get cropped). */
export function iconPng(size: number, safe = 1): Promise<Uint8Array> {
  const raster = new Raster(size, size, BACKGROUND);
  const scale = (size / 64) * safe;
  const offset = (size - 64 * scale) / 2;
  for (const { points, color } of shapes()) raster.fillPolygon(points.map((v) => offset + v * scale), color);
  return raster.encode();
}

export async function iconFiles(): Promise<Record<string, Uint8Array | string>> {
  return {
    'favicon.svg': iconSvg(),
    'icon-192.png': await iconPng(192),
    'icon-512.png': await iconPng(512),
    'icon-maskable-512.png': await iconPng(512, 0.7),
  };
}
