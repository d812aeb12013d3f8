import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { makeDemo } from '../benchmarks/pulsebench-select/demo';
import { MemorySource, type FileSource } from '../io/fileSource';
import type { BenchmarkId } from '../model';
import { BenchSession } from '../session';
import { checkImageFiles, ImageProblems } from './imageProblems';

describe('image problems in the dataset warnings', () => {
  it('names the first 20 paths of each kind, then counts the rest, missing before undecodable', () => {
    const p = new ImageProblems();
    for (let i = 1; i <= 23; i++) p.notFound(`img_${i}.jpg`);
    p.undecodable('bad.png', 'empty file');
    const w = p.warnings();
    expect(w).toHaveLength(22);
    expect(w[0]).toBe('image not found: img_1.jpg (its case is scored without a picture)');
    expect(w[19]).toBe('image not found: img_20.jpg (its case is scored without a picture)');
    expect(w[20]).toBe('… and 3 more images not found');
    expect(w[21]).toBe('image not decodable: bad.png: empty file (its case is scored without a picture)');
  });

  it('checks files by their first bytes only, in the order given', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const reads: [string, number, number][] = [];
    const mem = new MemorySource('m', { 'a.png': png, 'b.jpg': '<html>404</html>', 'c.png': new Uint8Array(0), 'd.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0]) });
    const src: FileSource = { ...mem, label: 'm', list: () => mem.list(), read: (p) => mem.read(p), readRange: (p, a, b) => (reads.push([p, a, b]), mem.readRange(p, a, b)) };
    const p = new ImageProblems();
    await checkImageFiles(src, ['d.jpg', 'c.png', 'b.jpg', 'a.png'], p);
    expect(p.warnings()).toEqual([
      'image not decodable: c.png: empty file (its case is scored without a picture)',
      'image not decodable: b.jpg: not a PNG, JPEG, GIF, BMP, WebP or TIFF image (its case is scored without a picture)',
    ]);
    expect(reads.every(([, a, b]) => a === 0 && b === 16)).toBe(true);
  });
});

/** A source with some files taken away and some replaced (a missing and a broken image). */
function altered(base: FileSource, remove: string[], replace: Record<string, Uint8Array | string>): FileSource {
  const enc = new TextEncoder();
  const rep = new Map(Object.entries(replace).map(([k, v]) => [k, typeof v === 'string' ? enc.encode(v) : v]));
  const listing = [
    ...base.list().filter((e) => !remove.includes(e.path) && !rep.has(e.path)),
    ...[...rep].map(([path, b]) => ({ path, size: b.length })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const read = async (p: string) => rep.get(p) ?? base.read(p);
  return {
    label: base.label,
    list: () => listing,
    read,
    readRange: async (p, a, b) => (rep.has(p) ? rep.get(p)!.subarray(a, b) : base.readRange!(p, a, b)),
    stream: base.stream && ((p) => (rep.has(p) ? (async function* () { yield rep.get(p)!; })() : base.stream!(p))),
  };
}

const HTML = '<!doctype html><title>404</title>';

/** The second embedded PNG of the PulseBench-Select parquet with its signature overwritten. */
function parquetWithBrokenImage(): Uint8Array {
  const b = new Uint8Array(readFileSync(shared('data/pulsebench-select-mini/data/train-00000-of-00001.parquet')));
  const sig = [0x89, 0x50, 0x4e, 0x47];
  let seen = 0;
  for (let i = 0; i < b.length - 4; i++) {
    if (sig.every((x, k) => b[i + k] === x) && ++seen === 2) {
      b.set([0x58, 0x58, 0x58, 0x58], i);
      break;
    }
  }
  return b;
}

const CASES: { benchmark: BenchmarkId; open: () => Promise<FileSource>; want: RegExp[] }[] = [
  {
    benchmark: 'ltb',
    open: async () => altered(nodeFolderSource(shared('data/ltb-mini')), ['anno/hard/images/img_2.jpg'], { 'anno/hard/images/img_3.jpg': HTML }),
    want: [/^image not found: (.*\/)?img_2\.jpg \(its case is scored without a picture\)$/, /^image not decodable: anno\/hard\/images\/img_3\.jpg: not a PNG, JPEG/],
  },
  {
    benchmark: 'chronicles',
    open: async () => altered(nodeFolderSource(shared('data/chronicles-mini')), ['data/images/金文/br_002.png'], { 'data/images/甲骨文/ob_001.png': new Uint8Array(0) }),
    want: [/^image not found: data\/images\/金文\/br_002\.png \(its case is scored without a picture\)$/, /^image not decodable: data\/images\/甲骨文\/ob_001\.png: empty file/],
  },
  {
    benchmark: 'tabench',
    open: async () => altered(nodeFolderSource(shared('data/tabench-mini')), ['Receipt/Receipt_sv0001.jpg'], { 'Receipt/Receipt_wr0001.jpeg': HTML }),
    want: [/^image not found: Receipt\/Receipt_sv0001\.jpg \(its queries are scored without a picture\)$/, /^image not decodable: Receipt\/Receipt_wr0001\.jpeg: /],
  },
  {
    benchmark: 'gansulishuzhi',
    open: async () => altered(nodeFolderSource(shared('data/gansulishuzhi-mini')), ['pages/page_003.png'], { 'pages/page_007.png': HTML }),
    want: [/^image not found: pages\/page_003\.png \(its page is scored without a picture\)$/, /^image not decodable: pages\/page_007\.png: /],
  },
  {
    benchmark: 'pulsebench-select',
    open: async () => {
      const src = (await makeDemo()).source;
      const imgs = src.list().filter((e) => e.path.startsWith('images/')).map((e) => e.path);
      return altered(src, [imgs[0]], { [imgs[1]]: HTML });
    },
    want: [/^image not found: images\/.*\.png \(data\/train\.jsonl line 1, .*\) \(its form is scored without a picture\)$/, /^image not decodable: images\/.*\.png: /],
  },
  {
    benchmark: 'pulsebench-select',
    open: async () => altered(nodeFolderSource(shared('data/pulsebench-select-mini')), [], { 'data/train-00000-of-00001.parquet': parquetWithBrokenImage() }),
    want: [/^image not decodable: .*\(data\/train-00000-of-00001\.parquet row 1, .*\): no PNG, JPEG, GIF, BMP or WebP header/],
  },
];

describe.skipIf(!HAS_SHARED)('every benchmark names its missing and undecodable images', () => {
  it.each(CASES)('$benchmark', async ({ benchmark, open, want }) => {
    const session = await BenchSession.open(await open(), benchmark);
    for (const w of want) expect(session.info.warnings.some((x) => w.test(x)), `${w} in\n${session.info.warnings.join('\n')}`).toBe(true);
  });
});
