/**
 * An LTB-shaped dataset generated inside the page, straight into the origin-private file system:
 * the 15 MMOCR 1.x split files (no image files: they are reported missing, which the scorer does
 * not need) plus one prediction file of jittered GT polygons and false positives. Used by the
 * cancel test and bench/browser-score.bench.ts; deterministic (fixed seed).
 */
import type { Page } from '@playwright/test';

export interface LtbShapedOptions {
  images: number;
  /** GT words per image (a quarter of them don't care). */
  words: number;
  /** The OPFS folder names: dataset and predictions. */
  dataset: string;
  predictions: string;
}

/** Runs in the page: everything it uses is defined inside it. */
async function generate(o: LtbShapedOptions): Promise<{ gtBytes: number; predBytes: number }> {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const cats = ['blurry', 'artistic', 'glass', 'single_char', 'distorted', 'inverse', 'delimited', 'dense', 'overlapped', 'occluded', 'low_contrast', 'complex_bg', 'others'];
  const splits = [...cats, 'hard', 'norm'];
  type Word = { poly: number[]; care: boolean; cats: string[] };
  const images: { name: string; words: Word[] }[] = [];
  for (let i = 0; i < o.images; i++) {
    const words: Word[] = [];
    for (let w = 0; w < o.words; w++) {
      const x = Math.round(rnd() * 1100);
      const y = Math.round(rnd() * 650);
      const wd = 30 + Math.round(rnd() * 120);
      const ht = 15 + Math.round(rnd() * 40);
      const c = rnd() < 0.35 ? [cats[Math.floor(rnd() * cats.length)]] : [];
      words.push({ poly: [x, y, x + wd, y, x + wd, y + ht, x, y + ht], care: rnd() > 0.25, cats: c });
    }
    images.push({ name: `img_${i + 1}.jpg`, words });
  }
  const root = await navigator.storage.getDirectory();
  for (const name of [o.dataset, o.predictions]) await root.removeEntry(name, { recursive: true }).catch(() => undefined);
  const ds = await root.getDirectoryHandle(o.dataset, { create: true });
  const anno = await (await ds.getDirectoryHandle('anno', { create: true })).getDirectoryHandle('mmocr1.x_format', { create: true });
  await (await ds.getDirectoryHandle('anno')).getDirectoryHandle('hard', { create: true });
  const write = async (dir: FileSystemDirectoryHandle, name: string, text: string) => {
    const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
    await w.write(text);
    await w.close();
    return text.length;
  };
  let gtBytes = 0;
  for (const s of splits) {
    const careIn = (wd: Word) => wd.care && (s === 'norm' || (s === 'hard' ? wd.cats.length > 0 : wd.cats.includes(s)));
    const data_list = images.map((im) => ({
      img_path: im.name,
      height: 720,
      width: 1280,
      instances: im.words.map((wd) => ({
        polygon: wd.poly,
        bbox: [wd.poly[0], wd.poly[1], wd.poly[4], wd.poly[5]],
        bbox_label: 0,
        ignore: !careIn(wd),
        text: wd.care ? 'word' : '###',
      })),
    }));
    gtBytes += await write(anno, `challenging_${s}.json`, JSON.stringify({ metainfo: { dataset_type: 'TextDetDataset', task_name: 'textdet', category: [{ id: 0, name: 'text' }] }, data_list }));
  }
  const preds: Record<string, number[][]> = {};
  for (const im of images) {
    const out: number[][] = [];
    for (const wd of im.words) {
      if (rnd() < 0.15) continue; // a miss
      const j = () => Math.round((rnd() - 0.5) * 12);
      out.push([...wd.poly.map((v) => v + j()), Math.round((0.05 + rnd() * 0.94) * 100) / 100]);
    }
    for (let f = 0; f < 2; f++) {
      const x = Math.round(rnd() * 1100);
      const y = Math.round(rnd() * 650);
      out.push([x, y, x + 60, y, x + 60, y + 20, x, y + 20, Math.round(rnd() * 100) / 100]);
    }
    preds[im.name] = out;
  }
  const pd = await root.getDirectoryHandle(o.predictions, { create: true });
  const predBytes = await write(pd, 'generated-model.json', JSON.stringify(preds));
  return { gtBytes, predBytes };
}

/**
 * Functions are sent to the page as source text. Under tsx (the bench) esbuild's keepNames wraps
 * them in `__name(…)` calls the page does not know, so a no-op `__name` is defined around them.
 */
function inPage(fn: (arg: never) => unknown, arg: unknown): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg)}); })()`;
}

export async function writeLtbShapedToOpfs(page: Page, o: LtbShapedOptions): Promise<{ gtBytes: number; predBytes: number }> {
  return page.evaluate(inPage(generate, o)) as Promise<{ gtBytes: number; predBytes: number }>;
}

/** Page init script: the pickers return the generated folders instead of asking the user. */
export function stubPickersToOpfs(o: Pick<LtbShapedOptions, 'dataset' | 'predictions'>): [{ content: string }] {
  const fn = ({ dataset, predictions }: { dataset: string; predictions: string }) => {
    Object.assign(window, {
      showDirectoryPicker: async () => (await navigator.storage.getDirectory()).getDirectoryHandle(dataset),
      showOpenFilePicker: async () => [await (await (await navigator.storage.getDirectory()).getDirectoryHandle(predictions)).getFileHandle('generated-model.json')],
    });
  };
  return [{ content: inPage(fn, { dataset: o.dataset, predictions: o.predictions }) }];
}
