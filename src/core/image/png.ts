/**
 * A small PNG encoder for the project's own generated demo images (the demo may not copy
 * third-party pictures). Deflate comes from the platform's CompressionStream, which Node ≥ 20,
 * browsers and workers all have.
 */
import { crc32, throughStream } from '../io/bytes';

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  return throughStream(new CompressionStream('deflate'), data);
}

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** Encodes 8-bit RGB pixels (`rgb.length === width * height * 3`) as a PNG file. */
export async function encodePngRgb(width: number, height: number, rgb: Uint8Array): Promise<Uint8Array> {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  }
  return pngFile([pngChunk('IHDR', ihdrRgb8(width, height)), pngChunk('IDAT', await deflate(raw)), pngChunk('IEND', new Uint8Array(0))]);
}

/** The IHDR data of an 8-bit truecolour image: deflate, no filter, no interlace. */
export function ihdrRgb8(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return ihdr;
}

/** The PNG signature followed by `chunks` (made with pngChunk), as one file. */
export function pngFile(chunks: readonly Uint8Array[]): Uint8Array {
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A tiny raster to draw demo pages on: fill rectangles and polygons in RGB. */
export class Raster {
  readonly rgb: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: [number, number, number] = [236, 232, 222],
  ) {
    this.rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.rgb.set(background, i * 3);
  }
  fillRect(x0: number, y0: number, x1: number, y1: number, color: [number, number, number]): void {
    const xa = Math.max(0, Math.floor(Math.min(x0, x1)));
    const xb = Math.min(this.width, Math.ceil(Math.max(x0, x1)));
    const ya = Math.max(0, Math.floor(Math.min(y0, y1)));
    const yb = Math.min(this.height, Math.ceil(Math.max(y0, y1)));
    for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) this.rgb.set(color, (y * this.width + x) * 3);
  }
  /** Even-odd scanline fill of a polygon given as a flat [x1, y1, x2, y2, …] list. */
  fillPolygon(points: readonly number[], color: [number, number, number]): void {
    const n = points.length / 2;
    let ymin = Infinity;
    let ymax = -Infinity;
    for (let i = 0; i < n; i++) {
      ymin = Math.min(ymin, points[2 * i + 1]);
      ymax = Math.max(ymax, points[2 * i + 1]);
    }
    for (let y = Math.max(0, Math.floor(ymin)); y < Math.min(this.height, Math.ceil(ymax)); y++) {
      const yc = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < n; i++) {
        const x1 = points[2 * i];
        const y1 = points[2 * i + 1];
        const x2 = points[(2 * i + 2) % (2 * n)];
        const y2 = points[(2 * i + 3) % (2 * n)];
        if (y1 <= yc !== y2 <= yc) xs.push(x1 + ((yc - y1) * (x2 - x1)) / (y2 - y1));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) this.fillRect(xs[k], y, xs[k + 1], y + 1, color);
    }
  }
  /** Deterministic speckle so pages look scanned and thumbnails are not flat. */
  noise(seed: number, amount = 10): void {
    let s = seed >>> 0 || 1;
    for (let i = 0; i < this.rgb.length; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const d = ((s >>> 0) % (2 * amount + 1)) - amount;
      this.rgb[i] = Math.max(0, Math.min(255, this.rgb[i] + d));
    }
  }
  encode(): Promise<Uint8Array> {
    return encodePngRgb(this.width, this.height, this.rgb);
  }
}
