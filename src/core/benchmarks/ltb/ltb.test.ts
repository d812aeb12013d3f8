/**
 * LTB protocol details written from shared/specs/ltb.md, on small in-memory datasets, plus the
 * other GT readers (COCO, ICDAR2015, one MMOCR file), zipped predictions, bad input and GT
 * corrections.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { MemorySource, singleFileSource, subSource, type FileSource } from '../../io/fileSource';
import { InputError, type ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { ltbAdapter, type LtbDataset } from './index';
import { rates } from './splitCounts';
import { SPLITS } from './splits';
import { withoutCi } from '../../../../test/withoutCi';

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

interface G {
  poly: number[];
  care?: boolean;
  tags?: string[];
}

/** The LTB release layout: 15 challenging_<split>.json built the way LTB built them. */
function ltbFolder(images: Record<string, G[]>, extra: Record<string, string | Uint8Array> = {}): MemorySource {
  const files: Record<string, string | Uint8Array> = { ...extra };
  for (const sp of SPLITS) {
    const data_list = Object.entries(images).map(([name, gts]) => ({
      img_path: name,
      height: 100,
      width: 200,
      instances: gts.map((g) => {
        const care = g.care !== false;
        const tags = g.tags ?? [];
        const careHere = sp.key === 'norm' ? care : sp.key === 'hard' ? care && tags.length > 0 : care && tags.includes(sp.key);
        return { polygon: g.poly, bbox: [0, 0, 1, 1], bbox_label: 0, ignore: !careHere };
      }),
    }));
    files[`anno/mmocr1.x_format/challenging_${sp.stems[0]}.json`] = JSON.stringify({ metainfo: {}, data_list });
  }
  for (const name of Object.keys(images)) if (!(`anno/hard/images/${name}` in extra)) files[`anno/hard/images/${name}`] = new Uint8Array([1]);
  return new MemorySource('ltb', files);
}

async function scoreWith(src: FileSource, preds: unknown, protocol: string, options: Record<string, string> = {}): Promise<ModelResult> {
  const session = await BenchSession.open(src);
  await session.addPredictions({ source: new MemorySource('p', { 'model.json': JSON.stringify(preds) }), path: 'model.json', name: 'model' });
  const [r] = await session.score(session.resolveProtocol(protocol, options));
  return r;
}

const VARIANTS = ['mmocr-1.0.1', 'mmocr-0.6.3'];

describe('score thresholds', () => {
  const ds = () => ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 10, 10), tags: ['glass'] }] });

  it('a score of exactly 0.6 takes part at t = 0.6 in 1.0.1 (float32) but not in 0.6.3', async () => {
    const p = { 'a.jpg': [[...box(0, 0, 10, 10), 0.6]] };
    const r101 = await scoreWith(ds(), p, 'mmocr-1.0.1');
    const r063 = await scoreWith(ds(), p, 'mmocr-0.6.3');
    expect(r101.metrics['norm/hmean@0.6']).toBe(1);
    expect(r063.metrics['norm/hmean@0.6']).toBe(0);
    expect(r063.metrics['norm/hmean@0.5']).toBe(1);
    expect(r101.metrics['norm/threshold']).toBe(0.3);
  });

  it('a score of exactly 0.3 passes the 1.0.1 pre-filter but not the strict 0.6.3 one', async () => {
    const p = { 'a.jpg': [[...box(0, 0, 10, 10), 0.3]] };
    expect((await scoreWith(ds(), p, 'mmocr-1.0.1')).metrics['norm/hmean@0.3']).toBe(1);
    const r = await scoreWith(ds(), p, 'mmocr-0.6.3');
    expect(r.metrics['norm/hmean@0.3']).toBe(0);
    expect(r.metrics['norm/pred']).toBe(0);
    expect(r.cases[0].pred[0].state).toBe('below_threshold');
  });

  it('reports the exact numpy thresholds and the ties-keep-lowest best', async () => {
    const p = { 'a.jpg': [[...box(0, 0, 10, 10), 0.95]] };
    const r = await scoreWith(ds(), p, 'mmocr-1.0.1');
    expect((r.extra as { thresholds: number[] }).thresholds).toEqual([0.3, 0.4, 0.5, 0.6000000000000001, 0.7000000000000002, 0.8000000000000003, 0.9000000000000001]);
    expect(r.metrics['glass/threshold']).toBe(0.3); // hmean 1 everywhere: the lowest wins
    expect(Object.keys(r.metrics).filter((k) => k.startsWith('glass/'))).toHaveLength(15);
    expect(Object.keys(r.metrics)).toHaveLength(225);
  });

  it('score_thr pins one threshold and shows in the protocol options', async () => {
    const p = { 'a.jpg': [[...box(0, 0, 10, 10), 0.5]] };
    const session = await BenchSession.open(ds());
    const proto = session.resolveProtocol(undefined, { score_thr: '0.6' });
    expect(withoutCi(proto)).toEqual({ name: 'mmocr-1.0.1', options: { iou: 0.5, score_thr: 0.6 } });
    const r = await scoreWith(ds(), p, 'mmocr-1.0.1', { score_thr: '0.6' });
    expect(r.metrics['norm/threshold']).toBe(0.6);
    expect(r.metrics['norm/hmean']).toBe(0);
    expect(r.metrics['norm/hmean@0.6']).toBe(0);
    expect(r.metrics['norm/hmean@0.3']).toBeUndefined();
    expect(() => session.resolveProtocol('mmocr-9', {})).toThrow(InputError);
    expect(() => session.resolveProtocol(undefined, { iou: '2' })).toThrow(InputError);
  });
});

describe("don't-care filter", () => {
  // A care word far away keeps gt > 0; the don't-care region is the square 0..10.
  const ds = () =>
    ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 10, 10), care: false }, { poly: box(100, 0, 110, 10), tags: ['dense'] }] });

  for (const variant of VARIANTS) {
    it(`${variant}: 51% inside a don't-care region is ignored, 49% is a false positive`, async () => {
      const inside = await scoreWith(ds(), { 'a.jpg': [[...box(4.9, 0, 14.9, 10), 0.9]] }, variant);
      expect(inside.metrics['norm/ignored']).toBe(1);
      expect(inside.metrics['norm/pred']).toBe(0);
      const c = inside.cases[0];
      expect(c.pred[0].state).toBe('ignored');
      expect(c.pred[0].reason).toContain("don't-care GT 0");
      const outside = await scoreWith(ds(), { 'a.jpg': [[...box(5.1, 0, 15.1, 10), 0.9]] }, variant);
      expect(outside.metrics['norm/ignored']).toBe(0);
      expect(outside.metrics['norm/pred']).toBe(1);
      expect(outside.metrics['norm/precision']).toBe(0);
    });
  }

  it('a tiny prediction inside a don\'t-care region: 1.0.1 divides by area + 1e-5, 0.6.3 by the area', async () => {
    const tiny = [[5, 5, 5.001, 5, 5.001, 5.001, 5, 5.001, 0.9]]; // area 1e-6
    const r101 = await scoreWith(ds(), { 'a.jpg': tiny }, 'mmocr-1.0.1');
    const r063 = await scoreWith(ds(), { 'a.jpg': tiny }, 'mmocr-0.6.3');
    expect(r101.metrics['norm/ignored']).toBe(0);
    expect(r101.metrics['norm/pred']).toBe(1);
    expect(r063.metrics['norm/ignored']).toBe(1);
    expect(r063.metrics['norm/pred']).toBe(0);
  });
});

describe('a missed GT whose match was taken elsewhere says so, naming the prediction', () => {
  // Care word A = 0..10 under a don't-care box D = 0..12 (a doubled annotation): the only
  // prediction covering A lies wholly in D, so the don't-care filter drops it and A is missed.
  const ds = () => ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 12, 10), care: false }, { poly: box(0, 0, 10, 10), tags: ['dense'] }] });

  for (const variant of VARIANTS) {
    it(`${variant}: by the don't-care filter`, async () => {
      const r = await scoreWith(ds(), { 'a.jpg': [[...box(0, 0, 10, 10), 0.9]] }, variant);
      const c = r.cases[0];
      expect(c.pred[0].state).toBe('ignored');
      expect(c.gt[1].state).toBe('fn');
      expect(c.gt[1].reason).toContain("prediction 0 (IoU 1.00) would match but the don't-care filter dropped it (100.0% of it lies in don't-care GT 0)");
    });
  }
});

describe('matching', () => {
  // GT A = 0..10, GT B = 6..16; p1 = 3..13 has IoU 0.54 with both, p2 = A exactly.
  const ds = () => ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 10, 10), tags: ['dense'] }, { poly: box(6, 0, 16, 10), tags: ['dense'] }] });
  const p1 = [...box(3, 0, 13, 10), 0.9];
  const p2 = [...box(0, 0, 10, 10), 0.9];

  for (const variant of VARIANTS) {
    it(`${variant}: first fit depends on prediction order (max matching is only a diagnostic)`, async () => {
      const a = await scoreWith(ds(), { 'a.jpg': [p1, p2] }, variant);
      const b = await scoreWith(ds(), { 'a.jpg': [p2, p1] }, variant);
      expect(a.metrics['dense/hits']).toBe(1);
      expect(b.metrics['dense/hits']).toBe(2);
      const c = a.cases[0];
      expect(c.detail?.max_matching_hits).toBe(2);
      expect(c.detail?.hits).toBe(1);
      expect(c.gt[1].state).toBe('fn');
      expect(c.gt[1].reason).toContain('first-fit');
      expect(c.pred[1].state).toBe('fp');
      expect(c.matches).toEqual([{ gt: 0, pred: 0, iou: expect.closeTo(70 / 130, 12) }]);
      expect(c.outcome).toBe('partial');
      expect(b.cases[0].outcome).toBe('pass');
    });
  }

  it('IoU must be strictly above 0.5', async () => {
    // A = 0..10 × 0..10 inside a 0..10 × 0..20 prediction: IoU = 100 / 200 = 0.5 exactly
    const r = await scoreWith(ds(), { 'a.jpg': [[...box(0, 0, 10, 20), 0.9]] }, 'mmocr-0.6.3');
    expect(r.metrics['norm/hits']).toBe(0);
    expect(r.cases[0].pred[0].reason).toBe('best IoU 0.50 ≤ 0.5 (with GT 0)');
  });
});

describe('images without care GT and empty pools', () => {
  it('rates follow compute_hmean when gt == 0', () => {
    expect(rates(0, 0, 0)).toEqual({ precision: 1, recall: 1, hmean: 1 });
    expect(rates(0, 0, 3)).toEqual({ precision: 0, recall: 1, hmean: 0 });
    expect(rates(1, 2, 0)).toEqual({ precision: 0, recall: 0.5, hmean: 0 });
  });

  it('an image whose GT is all don\'t care: precision = recall = 1 with no predictions, 0 with one', async () => {
    const ds = () => ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 10, 10), care: false }] });
    const none = await scoreWith(ds(), {}, 'mmocr-1.0.1');
    expect(none.metrics['norm/precision']).toBe(1);
    expect(none.metrics['norm/recall']).toBe(1);
    expect(none.cases[0].outcome).toBe('pass');
    expect(none.cases[0].errors).toContain('no_predictions');
    const fp = await scoreWith(ds(), { 'a.jpg': [[...box(50, 50, 60, 60), 0.9]] }, 'mmocr-1.0.1');
    expect(fp.metrics['norm/precision']).toBe(0);
    expect(fp.metrics['norm/recall']).toBe(1);
    expect(fp.cases[0].outcome).toBe('fail');
  });
});

describe('challenge tags and cases', () => {
  it('derives per-instance tags from the category files and shows the hard split by default', async () => {
    const ds = ltbFolder({
      'a.jpg': [
        { poly: box(0, 0, 10, 10), tags: ['occluded', 'blurred'] },
        { poly: box(20, 0, 30, 10) },
        { poly: box(40, 0, 50, 10), care: false },
      ],
    });
    const r = await scoreWith(ds, { 'a.jpg': [[...box(20, 0, 30, 10), 0.9]] }, 'mmocr-1.0.1');
    const c = r.cases[0];
    expect(c.case_id).toBe('a.jpg');
    expect(c.image_file).toBe('anno/hard/images/a.jpg');
    expect(c.gt[0].tags).toEqual(['blurred', 'occluded']);
    expect(c.gt[0].state).toBe('fn'); // care in hard
    expect(c.gt[1].state).toBe('dontcare'); // no challenge: don't care in hard
    expect(c.facets.challenge).toEqual(['blurred', 'occluded']);
    expect(c.facets.missed).toEqual(['blurred', 'occluded']);
    expect((r.extra as { case_split: string }).case_split).toBe('hard');
    const norm = await scoreWith(ds, { 'a.jpg': [[...box(20, 0, 30, 10), 0.9]] }, 'mmocr-1.0.1', { case_split: 'norm' });
    expect(norm.cases[0].gt[1].state).toBe('tp');
    expect(norm.metrics).toEqual(r.metrics); // a display option never changes numbers
  });

  it('joins instances listed in another order in one split file', async () => {
    const src = ltbFolder({ 'a.jpg': [{ poly: box(0, 0, 10, 10), tags: ['dense'] }, { poly: box(6, 0, 16, 10), tags: ['dense'] }] });
    const path = 'anno/mmocr1.x_format/challenging_dense.json';
    const doc = JSON.parse(new TextDecoder().decode(await src.read(path)));
    doc.data_list[0].instances.reverse();
    src.set(path, JSON.stringify(doc));
    // Reversed GT order in `dense`: B now walks first and takes p1.
    const r = await scoreWith(src, { 'a.jpg': [[...box(3, 0, 13, 10), 0.9], [...box(0, 0, 10, 10), 0.9]] }, 'mmocr-1.0.1');
    expect(r.metrics['dense/hits']).toBe(2);
    expect(r.metrics['norm/hits']).toBe(1);
  });
});

describe('prediction forms and bad input', () => {
  const ds = () => ltbFolder({ 'img_1.jpg': [{ poly: box(0, 0, 10, 10), tags: ['glass'] }], 'img_2.jpg': [{ poly: box(0, 0, 10, 10) }] });

  it('drops bad entries with a warning naming file and entry, never crashing', async () => {
    const preds = {
      'img_1.jpg': [[0, 0, 5, 5, 0.9], [0, 0, 'x', 0, 10, 10, 0, 10, 0.9], [...box(0, 0, 10, 10), 0.8]],
      'img_7.jpg': [[...box(0, 0, 10, 10), 0.9]],
    };
    const r = await scoreWith(ds(), preds, 'mmocr-1.0.1');
    expect(r.warnings).toContain('model.json: img_1.jpg entry 1: polygon with 2 points (dropped)');
    expect(r.warnings.some((w) => w.startsWith('model.json: img_1.jpg entry 2: coordinate 3 is not a number'))).toBe(true);
    expect(r.warnings.some((w) => w.includes('img_7.jpg is not an image of the dataset'))).toBe(true);
    expect(r.counts.dropped_polygons).toBe(2);
    expect(r.counts.unknown_images).toBe(1);
    expect(r.metrics['norm/hits']).toBe(1);
    expect(r.cases.find((c) => c.case_id === 'img_2.jpg')!.errors).toContain('no_predictions');
  });

  it('JSONL: a malformed line costs that line; a record list and an MMOCR folder are read too', async () => {
    const session = await BenchSession.open(ds());
    const jsonl = [
      JSON.stringify({ img_path: '/data/x/img_1.jpg', det_polygons: [box(0, 0, 10, 10)], det_scores: [0.9] }),
      '{not json',
      JSON.stringify({ det_polygons: [], det_scores: [] }),
    ].join('\n');
    await session.addPredictions({ source: new MemorySource('p', { 'm.jsonl': jsonl }), path: 'm.jsonl', name: 'm' });
    const list = [{ filename: 'img_2', boundary_result: [[...box(0, 0, 10, 10), 0.9]] }];
    await session.addPredictions({ source: new MemorySource('p', { 'l.json': JSON.stringify(list) }), path: 'l.json', name: 'l' });
    const folder = new MemorySource('f', {
      'img_1.json': JSON.stringify({ det_polygons: [box(0, 0, 10, 10)], det_scores: [0.9] }),
      'img_2.json': JSON.stringify({ det_polygons: [[[0, 0], [10, 0], [10, 10], [0, 10]]], det_scores: [0.9] }),
    });
    await session.addPredictions({ source: folder, path: '', name: 'f' });
    const [m, l, f] = await session.score(session.resolveProtocol(undefined, {}));
    expect(m.counts.malformed_lines).toBe(2);
    expect(m.warnings).toContain('m.jsonl: line 2: not valid JSON');
    expect(m.warnings).toContain('m.jsonl: line 3: no img_path or filename (cannot tell which image)');
    expect(m.metrics['norm/hits']).toBe(1);
    expect(l.metrics['norm/hits']).toBe(1);
    expect(l.metrics['glass/gt']).toBe(1);
    expect(f.metrics['norm/hits']).toBe(2);
  });

  it('a JSON that is not LTB is an InputError naming the file', async () => {
    const session = await BenchSession.open(ds());
    const bad = new MemorySource('p', { 'x.json': '{"foo": 1}', 'y.json': '[1, 2' });
    await expect(session.addPredictions({ source: singleFileSource(bad, 'x.json'), path: 'x.json', name: 'x' })).rejects.toThrow(/x\.json: not an LTB prediction file/);
    await expect(session.addPredictions({ source: singleFileSource(bad, 'y.json'), path: 'y.json', name: 'y' })).rejects.toThrow(/y\.json: not valid JSON/);
    const notGt = new MemorySource('d', { 'anno/challenging_hard.json': '{"images": 3}' });
    await expect(BenchSession.open(notGt, 'ltb')).rejects.toThrow(/challenging_hard\.json: not LTB ground truth/);
  });

  it('GT: a bad polygon is dropped with a warning; a missing image is reported', async () => {
    const src = ltbFolder({ 'img_1.jpg': [{ poly: box(0, 0, 10, 10) }, { poly: [0, 0, 1, 1] }] }, { 'anno/hard/images/img_1.jpg': new Uint8Array(0) });
    for (const p of src.list()) if (p.path.endsWith('.jpg')) src.set(p.path, new Uint8Array(0));
    const moved = new MemorySource('ltb', {});
    for (const e of src.list()) if (!e.path.endsWith('.jpg')) moved.set(e.path, await src.read(e.path));
    const session = await BenchSession.open(moved);
    expect(session.info.warnings).toContain('anno/mmocr1.x_format/challenging_norm.json: img_1.jpg, instance 1: polygon with 2 points (dropped)');
    expect(session.info.warnings).toContain('image not found: img_1.jpg (its case is scored without a picture)');
    await session.addPredictions({ source: new MemorySource('p', { 'm.json': '{}' }), path: 'm.json', name: 'm' });
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    expect(r.cases[0].image_file).toBeNull();
    expect(r.cases[0].errors).toContain('image_missing');
    expect(r.metrics['norm/gt']).toBe(1);
  });

  it('0.6.3 warns when the first prediction of an image has fewer than 4 points', async () => {
    const r = await scoreWith(ds(), { 'img_1.jpg': [[0, 0, 10, 0, 10, 10, 0.1], [...box(0, 0, 10, 10), 0.9]] }, 'mmocr-0.6.3');
    expect(r.warnings.some((w) => w.startsWith('img_1.jpg: the first prediction has 3 points') && w.includes('mmocr-0.6.3'))).toBe(true);
    expect(r.metrics['norm/hits']).toBe(1);
    const r101 = await scoreWith(ds(), { 'img_1.jpg': [[0, 0, 10, 0, 10, 10, 0.1], [...box(0, 0, 10, 10), 0.9]] }, 'mmocr-1.0.1');
    expect(r101.warnings).toEqual([]);
  });
});

/** A minimal ZIP writer: stored or deflated entries (deflate-raw from CompressionStream). */
async function makeZip(files: { name: string; data: Uint8Array; deflate: boolean }[]): Promise<Uint8Array> {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b: Uint8Array) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const deflate = async (b: Uint8Array) => new Uint8Array(await new Response(new Blob([new Uint8Array(b)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const f of files) {
    const name = new TextEncoder().encode(f.name);
    const body = f.deflate ? await deflate(f.data) : f.data;
    const lh = new Uint8Array(30 + name.length);
    const lv = new DataView(lh.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, f.deflate ? 8 : 0, true);
    lv.setUint32(14, crc32(f.data), true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, f.data.length, true);
    lv.setUint16(26, name.length, true);
    lh.set(name, 30);
    const ch = new Uint8Array(46 + name.length);
    const cv = new DataView(ch.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, f.deflate ? 8 : 0, true);
    cv.setUint32(16, crc32(f.data), true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, f.data.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    ch.set(name, 46);
    locals.push(lh, body);
    centrals.push(ch);
    offset += lh.length + body.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, end];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe.skipIf(!HAS_SHARED)('other GT readers and the zipped ICDAR submission (shared data)', () => {
  const expectedNorm = (set: string) =>
    (JSON.parse(readFileSync(shared('reference', 'ltb', `expected-${set}-mmocr-1.0.1.json`), 'utf8')).models[set].metrics as Record<string, number>);
  const objectPreds = () => {
    const src = nodeFolderSource(shared('reference', 'ltb'));
    return { source: singleFileSource(src, 'ltbmini-object.json'), path: 'ltbmini-object.json', name: 'ltbmini-object' };
  };
  // ltb-mini's `norm` file is icdar2015-toy's textdet_test.json: the norm numbers must carry over.
  const normKeys = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('norm/')));

  it('one MMOCR 1.x textdet JSON and the ICDAR2015 gt_img_<n>.txt folder give the norm numbers', async () => {
    const want = normKeys(expectedNorm('ltbmini-object'));
    const toy = nodeFolderSource(shared('data', 'icdar2015-toy'));
    const single = await BenchSession.open(toy);
    expect(single.adapter.id).toBe('ltb');
    expect(single.info.summary).toContain('1 split (MMOCR 1.x)');
    const icdarOnly = subSource(toy, 'gt');
    const icdar = await BenchSession.open(icdarOnly);
    expect(icdar.info.summary).toContain('ICDAR2015');
    expect(icdar.info.facts?.care_polygons).toBe(21);
    expect(icdar.info.facts?.gt_polygons).toBe(82);
    for (const session of [single, icdar]) {
      await session.addPredictions(objectPreds());
      const [r] = await session.score(session.resolveProtocol(undefined, {}));
      for (const [k, v] of Object.entries(want)) expect(Math.abs(r.metrics[k] - v), k).toBeLessThanOrEqual(1e-9);
      expect(Object.keys(r.metrics)).toHaveLength(15);
    }
    // Images resolve by file name anywhere under the dropped folder.
    expect((single.dataset as LtbDataset).images.every((im) => im.imageFile?.startsWith('imgs/test/'))).toBe(true);
  });

  it('COCO-style GT gives the same numbers; 0.6.3 drops ignore:true and thin-box annotations entirely', async () => {
    const doc = JSON.parse(readFileSync(shared('data', 'icdar2015-toy', 'textdet_test.json'), 'utf8'));
    const images: unknown[] = [];
    const annotations: Record<string, unknown>[] = [];
    doc.data_list.forEach((e: { img_path: string; instances: { polygon: number[]; ignore: boolean; bbox: number[] }[] }, i: number) => {
      images.push({ id: i + 1, file_name: e.img_path.split('/').pop(), width: 1280, height: 720 });
      for (const inst of e.instances) {
        const [x0, y0, x1, y1] = inst.bbox;
        annotations.push({ image_id: i + 1, segmentation: [inst.polygon], bbox: [x0, y0, x1 - x0, y1 - y0], iscrowd: inst.ignore ? 1 : 0, category_id: 1 });
      }
    });
    const coco = new MemorySource('coco', { 'instances_test.json': JSON.stringify({ images, annotations, categories: [{ id: 1, name: 'text' }] }) });
    const session = await BenchSession.open(coco);
    expect(session.info.summary).toContain('COCO');
    await session.addPredictions(objectPreds());
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    for (const [k, v] of Object.entries(normKeys(expectedNorm('ltbmini-object')))) expect(Math.abs(r.metrics[k] - v), k).toBeLessThanOrEqual(1e-9);

    // Mark one care annotation ignore: true — don't care in 1.0.1, gone in 0.6.3.
    const careIdx = annotations.findIndex((a) => a.iscrowd === 0);
    annotations[careIdx].ignore = true;
    const thin = annotations.findIndex((a, i) => i > careIdx && a.iscrowd === 1);
    (annotations[thin].bbox as number[])[2] = 0.5;
    const coco2 = new MemorySource('coco', { 'instances_test.json': JSON.stringify({ images, annotations }) });
    const s2 = await BenchSession.open(coco2);
    await s2.addPredictions(objectPreds());
    const [a] = await s2.score(s2.resolveProtocol('mmocr-1.0.1', {}));
    const [b] = await s2.score(s2.resolveProtocol('mmocr-0.6.3', {}));
    expect(a.metrics['norm/gt']).toBe(20);
    expect(b.metrics['norm/gt']).toBe(20);
    const dropped = b.cases.flatMap((c) => c.gt).filter((g) => g.reason?.startsWith('dropped by the MMOCR 0.6.3 COCO loader'));
    expect(dropped).toHaveLength(2);
  });

  it('an ICDAR2015 submission zip (stored and deflated entries) scores like the folder', async () => {
    const dir = shared('reference', 'ltb', 'ltbmini-icdar');
    const names = readdirSync(dir).sort();
    const zip = await makeZip(names.map((n, i) => ({ name: `submit/${n}`, data: new Uint8Array(readFileSync(join(dir, n))), deflate: i % 2 === 0 })));
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'ltb-mini')));
    await session.addPredictions({ source: new MemorySource('z', { 'submit.zip': zip }), path: 'submit.zip', name: 'ltbmini-icdar' });
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    const want = expectedNorm('ltbmini-icdar');
    for (const [k, v] of Object.entries(want)) expect(Math.abs(r.metrics[k] - v), k).toBeLessThanOrEqual(1e-9);
    const broken = zip.slice(0, zip.length - 30);
    await expect(
      session.addPredictions({ source: new MemorySource('z', { 'bad.zip': broken }), path: 'bad.zip', name: 'bad' }),
    ).rejects.toThrow(/bad\.zip: /);
  });

  it('detects the LTB layout and says what it expects otherwise', async () => {
    const d = await ltbAdapter.detect(nodeFolderSource(shared('data', 'ltb-mini')));
    expect(d?.confidence).toBeGreaterThan(0.9);
    expect(await ltbAdapter.detect(new MemorySource('x', { 'a.txt': 'hello' }))).toBeNull();
    expect(ltbAdapter.expects).toContain('challenging_<split>.json');
  });
});

describe('GT corrections and export', () => {
  it('applies care toggles, reshapes, additions and deletions to every split, and exports files that read back the same', async () => {
    const src = ltbFolder({
      'a.jpg': [{ poly: box(0, 0, 10, 10), tags: ['glass'] }, { poly: box(20, 0, 30, 10), tags: ['dense'] }, { poly: box(40, 0, 50, 10) }],
    });
    const ds = await ltbAdapter.loadDataset(src);
    const fixed = ltbAdapter.applyCorrections!(ds, [
      { case_id: 'a.jpg', gt_id: 0, care: false },
      { case_id: 'a.jpg', gt_id: 1, shape: { type: 'box', box: [60, 0, 70, 10] } },
      { case_id: 'a.jpg', gt_id: 2, deleted: true },
      { case_id: 'a.jpg', gt_id: null, shape: { type: 'polygon', points: box(80, 0, 90, 10) } },
      { case_id: 'zzz.jpg', gt_id: 0, care: false },
    ]);
    expect(ds.images[0].gt).toHaveLength(3); // the original is untouched
    const g = fixed.images[0].gt;
    expect(g).toHaveLength(3);
    expect(g[0].care).toBe(0);
    expect(g[1].points).toEqual(box(60, 0, 70, 10));
    expect(g[2].points).toEqual(box(80, 0, 90, 10));
    expect(fixed.info.warnings.some((w) => w.includes('zzz.jpg'))).toBe(true);

    const preds = { 'a.jpg': [[...box(60, 0, 70, 10), 0.9], [...box(0, 0, 10, 10), 0.9], [...box(80, 0, 90, 10), 0.9]] };
    const loaded = await ltbAdapter.loadPredictions(fixed, { source: new MemorySource('p', { 'm.json': JSON.stringify(preds) }), path: 'm.json', name: 'm' });
    const direct = await ltbAdapter.score(fixed, loaded[0], ltbAdapter.resolveProtocol(undefined, {}));
    expect(direct.metrics['norm/gt']).toBe(2);
    expect(direct.metrics['dense/hits']).toBe(1);
    expect(direct.metrics['glass/gt']).toBe(0);
    expect(direct.metrics['norm/ignored']).toBe(1); // the old glass word is don't care now

    const files = ltbAdapter.exportGroundTruth!(fixed);
    expect(Object.keys(files)).toHaveLength(15);
    expect(Object.keys(files)).toContain('anno/mmocr1.x_format/challenging_blurry.json');
    const again = await ltbAdapter.loadDataset(new MemorySource('again', files));
    const loaded2 = await ltbAdapter.loadPredictions(again, { source: new MemorySource('p', { 'm.json': JSON.stringify(preds) }), path: 'm.json', name: 'm' });
    const reread = await ltbAdapter.score(again, loaded2[0], ltbAdapter.resolveProtocol(undefined, {}));
    expect(reread.metrics).toEqual(direct.metrics);
  });
});
