/**
 * LTB at scale: an LTB-shaped dataset of 20,000 images × 30 GT polygons in all 15 split files
 * (MMOCR 1.x JSON, ~15% curved polygons, a few bow-ties), one model with ~30 predictions per
 * image (JSON object form), scored with both protocol variants through the adapter.
 * Generation is not timed; reading the GT, reading the predictions and each scoring run are.
 */
import { MemorySource } from '../src/core/io/fileSource';
import { BenchSession } from '../src/core/session';
import { SPLITS } from '../src/core/benchmarks/ltb/splits';
import { measure } from './measure';
import { quad, r1, rng } from '../src/core/benchmarks/ltb/synthetic';

const IMAGES = Number(process.env.LTB_BENCH_IMAGES ?? 20_000);
const GT_PER_IMAGE = 30;

/** A word on an arc: 7 points along the top, 7 back along the bottom (non-convex). */
function curved(cx: number, cy: number, w: number, h: number, bend: number): number[] {
  const top: number[] = [];
  const bottom: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = i / 6 - 0.5;
    const x = cx + t * w;
    const y = cy + bend * (4 * t * t - 1);
    top.push(r1(x), r1(y - h / 2));
    bottom.unshift(r1(x), r1(y + h / 2));
    [bottom[0], bottom[1]] = [r1(x), r1(y + h / 2)];
  }
  return [...top, ...bottom];
}

function jitter(points: number[], rand: () => number, amount: number): number[] {
  const dx = (rand() - 0.5) * amount, dy = (rand() - 0.5) * amount;
  return points.map((v, i) => r1(v + (i % 2 === 0 ? dx : dy) + (rand() - 0.5) * amount * 0.3));
}

function bbox(p: number[]): number[] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
    y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
  }
  return [x0, y0, x1, y1];
}

/**
 * The 15 files are written the way LTB's were: one JSON text per split that differs from the
 * others only in the `"ignore"` literals. The `norm` text is built once; each other split is
 * spliced from it segment by segment (as fast as copying bytes).
 */
export function generate() {
  const rand = rng(2024);
  const head = '{"metainfo":{"dataset_type":"TextDetDataset","task_name":"textdet","category":[{"id":0,"name":"text"}]},"data_list":[';
  const normBit = 1 << 14;
  const parts: string[] = [head];
  let length = head.length;
  const literalAt: number[] = [];
  const masks: number[] = [];
  const preds: string[] = [];
  let nPred = 0;
  for (let im = 0; im < IMAGES; im++) {
    const name = `img_${im + 1}.jpg`;
    const predList: string[] = [];
    const open = `${im ? ',' : ''}{"img_path":"${name}","height":720,"width":1280,"instances":[`;
    parts.push(open);
    length += open.length;
    for (let g = 0; g < GT_PER_IMAGE; g++) {
      const col = g % 6, row = Math.floor(g / 6);
      const cx = 110 + col * 210 + (rand() - 0.5) * 30;
      const cy = 70 + row * 140 + (rand() - 0.5) * 30;
      const w = 80 + rand() * 90, h = 20 + rand() * 25;
      const kind = rand();
      let poly = kind < 0.15 ? curved(cx, cy, w, h, 10 + rand() * 20) : quad(cx, cy, w, h, (rand() - 0.5) * 0.6);
      if (kind > 0.995) poly = [poly[0], poly[1], poly[4], poly[5], poly[2], poly[3], poly[6], poly[7]]; // bow-tie
      let mask = 0;
      if (rand() < 0.7) {
        mask |= normBit;
        const nTags = rand() < 0.4 ? 0 : rand() < 0.7 ? 1 : 2;
        for (let t = 0; t < nTags; t++) mask |= 1 << Math.floor(rand() * 13);
        if (mask & 0x1fff) mask |= 1 << 13; // hard
      }
      masks.push(mask);
      const inst = `${g ? ',' : ''}{"polygon":[${poly.join(',')}],"bbox":[${bbox(poly).join(',')}],"bbox_label":0,"ignore":`;
      const literal = mask & normBit ? 'false' : 'true';
      parts.push(inst, literal, '}');
      literalAt.push(length + inst.length);
      length += inst.length + literal.length + 1;
      if (rand() < 0.9) predList.push(`[${jitter(poly, rand, 8).join(',')},${rand().toFixed(6)}]`);
      if (rand() < 0.1) predList.push(`[${jitter(poly, rand, 30).join(',')},${(rand() * 0.6).toFixed(6)}]`);
    }
    parts.push(']}');
    length += 2;
    while (predList.length < 30) {
      const fp = quad(rand() * 1200 + 40, rand() * 680 + 20, 40 + rand() * 80, 15 + rand() * 20, 0);
      predList.push(`[${fp.join(',')},${(rand() * 0.9).toFixed(6)}]`);
    }
    nPred += predList.length;
    preds.push(`"${name}":[${predList.join(',')}]`);
  }
  parts.push(']}');
  const enc = new TextEncoder();
  const norm = enc.encode(parts.join(''));
  const TRUE = enc.encode('true');
  const FALSE = enc.encode('false');
  const files: Record<string, Uint8Array> = {};
  let bytes = 0;
  SPLITS.forEach((sp, s) => {
    const bit = 1 << s;
    let out: Uint8Array;
    if (bit === normBit) out = norm;
    else {
      let size = norm.length;
      masks.forEach((m) => (size += (m & normBit ? 0 : 1) - (m & bit ? 0 : 1)));
      out = new Uint8Array(size);
      let from = 0;
      let to = 0;
      for (let i = 0; i < literalAt.length; i++) {
        const at = literalAt[i];
        out.set(norm.subarray(from, at), to);
        to += at - from;
        const lit = masks[i] & bit ? FALSE : TRUE;
        out.set(lit, to);
        to += lit.length;
        from = at + (masks[i] & normBit ? 5 : 4);
      }
      out.set(norm.subarray(from), to);
    }
    files[`anno/mmocr1.x_format/challenging_${sp.stems[0]}.json`] = out;
    bytes += out.length;
  });
  const predBytes = enc.encode('{' + preds.join(',') + '}');
  return { files, bytes, predBytes, nPred };
}

/** CPU seconds of this process (user + system): the figure that stays meaningful on a busy machine. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

let lastCpu = 0;
async function step<T>(label: string, fn: () => Promise<T>, per: { n: number; unit: string }): Promise<T> {
  const c0 = cpuSeconds();
  const out = await measure(label, fn, per);
  lastCpu = cpuSeconds() - c0;
  console.log(`  (${label}: ${lastCpu.toFixed(2)} s CPU)`);
  return out;
}

export async function run(): Promise<void> {
  const t0 = performance.now();
  const { files, bytes, predBytes, nPred } = generate();
  console.log(
    `generated ${IMAGES} images × ${GT_PER_IMAGE} GT in 15 files (${(bytes / 2 ** 20).toFixed(0)} MiB), ` +
      `${nPred} predictions (${(predBytes.length / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s (not timed)`,
  );
  const start = performance.now();
  const c0 = cpuSeconds();
  const session = await step('ltb: read 15 GT files', () => BenchSession.open(new MemorySource('ltb-bench', files)), {
    n: IMAGES * GT_PER_IMAGE * 15,
    unit: 'instances',
  });
  const predSrc = new MemorySource('preds', { 'model.json': predBytes });
  await step('ltb: read predictions', () => session.addPredictions({ source: predSrc, path: 'model.json', name: 'model' }), {
    n: nPred,
    unit: 'polygons',
  });
  for (const variant of ['mmocr-1.0.1', 'mmocr-0.6.3']) {
    // The error taxonomy (errors.md) off, then on: the official numbers are the same, the cost is the difference.
    const seconds: number[] = [];
    const cpu: number[] = [];
    for (const diagnostics of [false, true]) {
      const label = `ltb: score ${variant} (15 splits × 7 thresholds + ${IMAGES} cases)${diagnostics ? ' with the error taxonomy' : ' without the error taxonomy'}`;
      const t = performance.now();
      const [r] = await step(label, () => session.score(session.resolveProtocol(variant, {}), { diagnostics }), { n: IMAGES, unit: 'images' });
      seconds.push((performance.now() - t) / 1000);
      cpu.push(lastCpu);
      console.log(`  ${variant}: hard/hmean ${r.metrics['hard/hmean']}, norm/hmean ${r.metrics['norm/hmean']}, repaired ${r.counts.repaired_polygons}`);
      if (diagnostics) {
        const u = r.diagnostics!.errors.hard;
        console.log(`  ${variant} hard @${u.threshold}: fn ${JSON.stringify(u.fn)} fp ${JSON.stringify(u.fp)}`);
      }
    }
    console.log(
      `  ${variant}: with / without the taxonomy = ${(seconds[1] / seconds[0]).toFixed(2)}× wall, ${(cpu[1] / cpu[0]).toFixed(2)}× CPU (budget 1.5×)`,
    );
  }
  console.log(`ltb: all of it ${((performance.now() - start) / 1000).toFixed(2)} s wall, ${(cpuSeconds() - c0).toFixed(2)} s CPU`);
}
