/**
 * Every class of shared/specs/errors.md on hand-built rectangles, through each benchmark's real
 * scorer (BenchSession on in-memory folders): LTB (polygon IoU > 0.5, first fit), gansulishuzhi
 * (greedy, TP at IoU ≥ 0.5 in the case view), TABench T2R (greedy on IoU ≥ 0.5) and
 * Chronicles spotting (IoU ≥ 0.75 and the same character). The IoUs are worked out by hand in
 * the comments; every test also checks that a unit's classes add up to gt − hits and pred − hits.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../io/fileSource';
import type { ErrorClass, ErrorWith, ModelResult, UnitErrors } from '../model';
import { BenchSession } from '../session';

type B = [number, number, number, number];
interface Gt {
  box: B;
  care?: boolean;
  char?: string;
}
interface Pred {
  box: B;
  score?: number;
  char?: string;
}
type Bench = 'ltb' | 'gansulishuzhi' | 'tabench' | 'chronicles';
const ALL: Bench[] = ['ltb', 'gansulishuzhi', 'tabench', 'chronicles'];

const poly = (b: B) => [b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]];
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function session(src: MemorySource, preds: MemorySource, file: string, options: Record<string, string> = {}): Promise<ModelResult> {
  const s = await BenchSession.open(src);
  await s.addPredictions({ source: preds, path: file, name: 'm' });
  const [r] = await s.score(s.resolveProtocol(undefined, options));
  return r;
}

/** Scores one image / page / query / row and returns the model result and the unit the case view shows. */
async function score(bench: Bench, gts: Gt[], preds: Pred[]): Promise<{ r: ModelResult; unit: UnitErrors; caseIndex: number }> {
  let r: ModelResult;
  let unitKey: string;
  if (bench === 'ltb') {
    const files: Record<string, string | Uint8Array> = { 'anno/hard/images/a.jpg': new Uint8Array([1]) };
    for (const stem of ['norm', 'hard']) {
      const data_list = [
        { img_path: 'a.jpg', height: 100, width: 200, instances: gts.map((g) => ({ polygon: poly(g.box), bbox: g.box, bbox_label: 0, ignore: g.care === false })) },
      ];
      files[`anno/mmocr1.x_format/challenging_${stem}.json`] = JSON.stringify({ metainfo: {}, data_list });
    }
    const p = { 'a.jpg': preds.map((x) => [...poly(x.box), x.score ?? 0.9]) };
    r = await session(new MemorySource('ltb', files), new MemorySource('p', { 'm.json': JSON.stringify(p) }), 'm.json', { case_split: 'norm' });
    unitKey = 'norm';
  } else if (bench === 'gansulishuzhi') {
    const page = { id: 'page_001', page: 1, image_path: 'pages/page_001.png', image_size_px: [1000, 1000], gt_bboxes: gts.map((g) => g.box) };
    r = await session(
      new MemorySource('g', { 'manifest.jsonl': jsonl([page]) }),
      new MemorySource('r', { 'run.jsonl': jsonl([{ id: 'page_001', pred_bboxes: preds.map((p) => p.box) }]) }),
      'run.jsonl',
    );
    unitKey = 'iou0.5';
  } else if (bench === 'tabench') {
    const q = {
      image_path: 'Book/b.jpg',
      category: 'Book',
      task_type: 'T2R',
      question: 'where?',
      bbox: gts.map((g) => g.box),
      GT: gts.map((g) => ({ bbox: g.box, text: 'x' })),
      text: 'x',
    };
    const name = 'TABench-abs_with_predictions.jsonl';
    r = await session(
      new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl([q]) }),
      new MemorySource('p', { [name]: jsonl([{ ...q, prediction: JSON.stringify(preds.map((p) => p.box)) }]) }),
      name,
    );
    unitKey = 't2r';
  } else {
    // width = height = 1000: the judge's 0–1000 space is the pixel space.
    const row = {
      image_path: 'images/甲骨文/a.png',
      font_type: '甲骨文',
      annotation: gts.map((g) => g.char ?? '王').join(''),
      width: 1000,
      height: 1000,
      spotting: gts.map((g) => ({ bbox: { x1: g.box[0], y1: g.box[1], x2: g.box[2], y2: g.box[3] }, text: g.char ?? '王' })),
    };
    const items = preds.map((p, idx) => ({ idx, bbox: p.box, char: p.char ?? '王' }));
    const src = new MemorySource('c', {
      'data/Chronicles_OCR.jsonl': jsonl([row]),
      'data/images/甲骨文/a.png': new Uint8Array(4),
      'infer_results/m/results.jsonl': jsonl([{ image_path: row.image_path, infer_results: { 字符检测: { thinking: '', answer: '', extract: { items } } } }]),
    });
    const s = await BenchSession.open(src);
    await s.addBundledPredictions();
    [r] = await s.score(s.resolveProtocol(undefined, {}));
    unitKey = 'oracle_bone/spotting';
  }
  const unit = r.diagnostics!.errors[unitKey];
  expect(unit, `${bench} unit ${unitKey}`).toBeDefined();
  const caseIndex = bench === 'chronicles' ? r.cases.findIndex((c) => c.task === 'spotting') : 0;
  return { r, unit, caseIndex };
}

const sum = (o: Record<string, number | undefined>) => Object.values(o).reduce((a: number, b) => a + (b ?? 0), 0);

interface Expect {
  fn: (ErrorClass | null)[];
  fp: (ErrorClass | null)[];
  fnWith?: (ErrorWith | undefined)[];
  fpWith?: (ErrorWith | undefined)[];
}

async function expectClasses(bench: Bench, gts: Gt[], preds: Pred[], want: Expect): Promise<ModelResult> {
  const { r, unit, caseIndex } = await score(bench, gts, preds);
  const c = r.cases[caseIndex];
  expect(
    c.gt.map((g) => g.error ?? null),
    `${bench} GT classes`,
  ).toEqual(want.fn);
  expect(
    c.pred.map((p) => p.error ?? null),
    `${bench} prediction classes`,
  ).toEqual(want.fp);
  if (want.fnWith) expect(c.gt.map((g) => g.error_with), `${bench} GT error_with`).toEqual(want.fnWith);
  if (want.fpWith) expect(c.pred.map((p) => p.error_with), `${bench} prediction error_with`).toEqual(want.fpWith);
  // The invariant: classes sum to gt − hits and pred − hits, and match the instances.
  expect(sum(unit.fn), `${bench} Σ fn`).toBe(unit.gt - unit.hits);
  expect(sum(unit.fp), `${bench} Σ fp`).toBe(unit.pred - unit.hits);
  expect(c.gt.filter((g) => g.state === 'fn').length, `${bench} fn instances`).toBe(sum(unit.fn));
  expect(c.pred.filter((p) => p.state === 'fp').length, `${bench} fp instances`).toBe(sum(unit.fp));
  return r;
}

describe('classes of a missed GT and a false positive, on every benchmark where they apply', () => {
  it.each(ALL)('split (%s): three slices of one word, IoU 0.33 / 0.33 / 0.34 each, whose union is the word (IoU 1)', async (bench) => {
    // GT 100×10 = 1000; slices 330, 330, 340 px², each entirely inside it.
    await expectClasses(
      bench,
      [{ box: [0, 0, 100, 10] }],
      [{ box: [0, 0, 33, 10] }, { box: [33, 0, 66, 10] }, { box: [66, 0, 100, 10] }],
      {
        fn: ['split'],
        fp: ['split', 'split', 'split'],
        fnWith: [{ pred: [0, 1, 2] }],
        fpWith: [
          { gt: [0], pred: [1, 2] },
          { gt: [0], pred: [0, 2] },
          { gt: [0], pred: [0, 1] },
        ],
      },
    );
  });

  it.each(ALL)('merge (%s): one box over two words, IoU 400/900 = 0.44 with each, both entirely inside it', async (bench) => {
    await expectClasses(bench, [{ box: [0, 0, 40, 10] }, { box: [50, 0, 90, 10] }], [{ box: [0, 0, 90, 10] }], {
      fn: ['merge', 'merge'],
      fp: ['merge'],
      fnWith: [
        { pred: [0], gt: [1] },
        { pred: [0], gt: [0] },
      ],
      fpWith: [{ gt: [0, 1] }],
    });
  });

  it.each(ALL)('merge (%s): a matched box (IoU 800/950 = 0.84) that also covers a small second word', async (bench) => {
    await expectClasses(bench, [{ box: [0, 0, 80, 10] }, { box: [85, 0, 95, 10] }], [{ box: [0, 0, 95, 10] }], {
      fn: [null, 'merge'],
      fp: [null],
      fnWith: [undefined, { pred: [0], gt: [0] }],
    });
  });

  it.each(ALL)('localization (%s): a box shifted by half its width, IoU 50/150 = 0.33', async (bench) => {
    await expectClasses(bench, [{ box: [0, 0, 10, 10] }], [{ box: [5, 0, 15, 10] }], {
      fn: ['localization'],
      fp: ['localization'],
      fnWith: [{ pred: [0] }],
      fpWith: [{ gt: [0] }],
    });
  });

  it.each(ALL)('missed and background (%s): IoU 10/190 = 0.053 is under 0.1', async (bench) => {
    await expectClasses(bench, [{ box: [0, 0, 10, 10] }], [{ box: [9, 0, 19, 10] }], {
      fn: ['missed'],
      fp: ['background'],
      fnWith: [undefined],
      fpWith: [undefined],
    });
  });

  it.each(ALL)('duplicate (%s): a second box on a matched word, IoU 90/100 = 0.9', async (bench) => {
    await expectClasses(bench, [{ box: [0, 0, 10, 10] }], [{ box: [0, 0, 10, 10] }, { box: [0, 0, 10, 9] }], {
      fn: [null],
      fp: [null, 'duplicate'],
      fpWith: [undefined, { gt: [0], pred: [0] }],
    });
  });

  // GT0 10×10, GT1 10×6 (same top edge); p0 = 10×7: IoU 70/100 = 0.7 with GT0, 60/70 = 0.857 with GT1;
  // p1 = [0,2,10,12]: IoU 80/120 = 0.667 with GT0, 40/120 = 0.333 with GT1.
  const orderGts: Gt[] = [{ box: [0, 0, 10, 10] }, { box: [0, 0, 10, 6] }];
  const orderPreds: Pred[] = [{ box: [0, 0, 10, 7] }, { box: [0, 2, 10, 12] }];
  it('order (ltb): first fit gives p0 to GT0 (first in file order), a maximum matching pairs both', async () => {
    const r = await expectClasses('ltb', orderGts, orderPreds, {
      fn: [null, 'order'],
      fp: [null, 'duplicate'],
      fnWith: [undefined, { pred: [0], gt: [0] }],
      fpWith: [undefined, { gt: [0], pred: [0] }],
    });
    expect(r.cases[0].detail!.max_matching_hits).toBe(2);
  });
  it.each(['gansulishuzhi', 'tabench'] as const)('order does not exist in %s: greedy max-IoU pairs GT1–p0 (0.857), then GT0–p1 (0.667)', async (bench) => {
    await expectClasses(bench, orderGts, orderPreds, { fn: [null, null], fp: [null, null] });
  });
  it('the same boxes in chronicles: GT0 has no pair at ≥ 0.75 but p0 ∪ p1 = [0,0,10,12] covers it at IoU 100/120 = 0.83: split', async () => {
    await expectClasses('chronicles', orderGts, orderPreds, { fn: ['split', null], fp: [null, 'split'], fnWith: [{ pred: [0, 1] }, undefined] });
  });

  it('dontcare (ltb): an exact box (IoU 1) swallowed by a don\u2019t-care region around it (100% of its area inside)', async () => {
    const r = await expectClasses('ltb', [{ box: [0, 0, 10, 10] }, { box: [0, 0, 20, 10], care: false }], [{ box: [0, 0, 10, 10] }], {
      fn: ['dontcare', null],
      fp: [null],
      fnWith: [{ pred: [0], gt: [1] }, undefined],
    });
    expect(r.cases[0].pred[0].state).toBe('ignored');
  });

  it('score (ltb): an exact box (IoU 1) with score 0.2, dropped by the 0.3 pre-filter', async () => {
    const r = await expectClasses('ltb', [{ box: [0, 0, 10, 10] }], [{ box: [0, 0, 10, 10], score: 0.2 }], {
      fn: ['score'],
      fp: [null],
      fnWith: [{ pred: [0] }],
    });
    expect(r.cases[0].pred[0].state).toBe('below_threshold');
  });

  it('score (ltb): an exact box at 0.45 when the best threshold is 0.6 (three FPs at 0.5 pull it up)', async () => {
    // t ≤ 0.4: hits 2, pred 5 → P 0.4, R 1, hmean 0.571; t = 0.5: hits 1, pred 4 → 0.333; t ≥ 0.6: hits 1, pred 1 → 0.667.
    const far = (x: number): Pred => ({ box: [x, 0, x + 10, 10], score: 0.5 });
    const r = await expectClasses(
      'ltb',
      [{ box: [0, 0, 10, 10] }, { box: [20, 0, 30, 10] }],
      [{ box: [0, 0, 10, 10], score: 0.95 }, { box: [20, 0, 30, 10], score: 0.45 }, far(100), far(120), far(140)],
      { fn: [null, 'score'], fp: [null, null, null, null, null], fnWith: [undefined, { pred: [1] }] },
    );
    expect(r.diagnostics!.errors.norm.threshold).toBe(0.6000000000000001);
    expect(r.metrics['norm/threshold']).toBe(0.6000000000000001);
  });

  it('recognition (chronicles): the same box (IoU 1) with another character', async () => {
    await expectClasses('chronicles', [{ box: [0, 0, 10, 10], char: '王' }], [{ box: [0, 0, 10, 10], char: '占' }], {
      fn: ['recognition'],
      fp: ['recognition'],
      fnWith: [{ pred: [0] }],
      fpWith: [{ gt: [0] }],
    });
  });

  it('the first class that applies wins: a split GT whose parts also overlap a matched neighbour stays split', async () => {
    // GT0 = [0,0,100,10] split in three (as above); GT1 = [100,0,110,10] matched exactly by p3.
    for (const bench of ALL) {
      await expectClasses(
        bench,
        [{ box: [0, 0, 100, 10] }, { box: [100, 0, 110, 10] }],
        [{ box: [0, 0, 33, 10] }, { box: [33, 0, 66, 10] }, { box: [66, 0, 100, 10] }, { box: [100, 0, 110, 10] }],
        { fn: ['split', null], fp: ['split', 'split', 'split', null] },
      );
    }
  });
});

describe('dHmean', () => {
  it('fixing a class on LTB follows the spec formula with compute_hmean (one missed of two GT, one background FP)', async () => {
    // GT0 matched exactly; GT1 missed (nothing near); one background FP far away. hits 1, gt 2, pred 2.
    const { unit } = await score('ltb', [{ box: [0, 0, 10, 10] }, { box: [50, 0, 60, 10] }], [{ box: [0, 0, 10, 10] }, { box: [150, 80, 160, 90] }]);
    const h = (hits: number, gt: number, pred: number) => {
      const p = hits / pred;
      const r = hits / gt;
      return (2 * p * r) / (p + r);
    };
    const base = h(1, 2, 2); // 0.5
    expect(unit.fn).toEqual({ missed: 1 });
    expect(unit.fp).toEqual({ background: 1 });
    expect(unit.dhmean.missed).toBeCloseTo(h(2, 2, 3) - base, 12); // 0.8 − 0.5
    expect(unit.dhmean.background).toBeCloseTo(h(1, 2, 1) - base, 12); // 0.667 − 0.5
    expect(unit.dhmean.all_fp).toBeCloseTo(h(1, 2, 1) - base, 12);
    expect(unit.dhmean.all_fn).toBeCloseTo(h(2, 2, 3) - base, 12);
    expect(unit.dhmean.split).toBeUndefined();
  });

  it('a class used on both sides counts its FNs and FPs together (localization: hits 0, gt 1, pred 1 → fixed: hits 1, pred 1)', async () => {
    const { unit } = await score('gansulishuzhi', [{ box: [0, 0, 10, 10] }], [{ box: [5, 0, 15, 10] }]);
    expect(unit.dhmean.localization).toBe(1);
  });

  it('TABench macro averages the per-query deltas; micro pools (q1: 2 GT both exact, q2: 1 GT at IoU 0.33)', async () => {
    const q = (id: string, gt: B[]) => ({ id, image_path: 'Book/b.jpg', category: 'Book', task_type: 'T2R', question: id, bbox: gt, GT: gt.map((b) => ({ bbox: b, text: 'x' })), text: 'x' });
    const q1 = q('q1', [
      [0, 0, 10, 10],
      [20, 0, 30, 10],
    ]);
    const q2 = q('q2', [[0, 0, 10, 10]]);
    const name = 'TABench-abs_with_predictions.jsonl';
    const lines = [
      { ...q1, prediction: JSON.stringify(q1.bbox) },
      { ...q2, prediction: JSON.stringify([[5, 0, 15, 10]]) },
    ];
    const unitOf = async (average: string) =>
      (await session(new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl([q1, q2]) }), new MemorySource('p', { [name]: jsonl(lines) }), name, { t2r_average: average }))
        .diagnostics!.errors.t2r;
    const micro = await unitOf('micro');
    // micro: tp 2, gt 3, pred 3 → F1 2/3; fixed → F1 1.
    expect(micro.dhmean.localization).toBeCloseTo(1 - 2 / 3, 12);
    // macro: (1 + 0) / 2 → (1 + 1) / 2.
    const macro = await unitOf('macro');
    expect(macro.dhmean.localization).toBeCloseTo(0.5, 12);
    expect(macro.fn).toEqual(micro.fn);
  });

  it('Chronicles: the mean of per-row deltas per script, and all/spotting the mean over scripts (as the official summary)', async () => {
    const row = (path: string, font: string, boxes: B[]) => ({
      image_path: path,
      font_type: font,
      annotation: '王'.repeat(boxes.length),
      width: 1000,
      height: 1000,
      spotting: boxes.map((b) => ({ bbox: { x1: b[0], y1: b[1], x2: b[2], y2: b[3] }, text: '王' })),
    });
    const rows = [row('images/甲骨文/a.png', '甲骨文', [[0, 0, 10, 10], [20, 0, 30, 10]]), row('images/甲骨文/b.png', '甲骨文', [[0, 0, 10, 10]]), row('images/金文/c.png', '金文', [[0, 0, 10, 10]])];
    const answer = (path: string, items: { bbox: B; char: string }[]) => ({ image_path: path, infer_results: { 字符检测: { thinking: '', answer: '', extract: { items } } } });
    const src = new MemorySource('c', {
      'data/Chronicles_OCR.jsonl': jsonl(rows),
      'infer_results/m/results.jsonl': jsonl([
        answer('images/甲骨文/a.png', [{ bbox: [0, 0, 10, 10], char: '王' }, { bbox: [20, 0, 30, 10], char: '王' }]),
        answer('images/甲骨文/b.png', [{ bbox: [0, 0, 10, 10], char: '占' }]), // recognition: F1 0
        answer('images/金文/c.png', [{ bbox: [0, 0, 10, 10], char: '王' }]),
      ]),
    });
    const s = await BenchSession.open(src);
    await s.addBundledPredictions();
    const [r] = await s.score(s.resolveProtocol(undefined, {}));
    expect(r.metrics['oracle_bone/spotting']).toBe(0.5);
    const ob = r.diagnostics!.errors['oracle_bone/spotting'];
    expect(ob).toMatchObject({ gt: 3, pred: 3, hits: 2, fn: { recognition: 1 }, fp: { recognition: 1 } });
    // Rows (1, 0) → (1, 1): +0.5 (a pooled F1 would say 2/3 → 1, +0.33).
    expect(ob.dhmean.recognition).toBeCloseTo(0.5, 12);
    // all/spotting = mean(0.5, 1) = 0.75 → mean(1, 1): +0.25.
    expect(r.metrics['all/spotting']).toBe(0.75);
    expect(r.diagnostics!.errors['all/spotting'].dhmean.recognition).toBeCloseTo(0.25, 12);
    expect(r.diagnostics!.errors['bronze/spotting']).toMatchObject({ fn: {}, fp: {}, dhmean: { all_fp: 0, all_fn: 0 } });
  });

  it('LTB: an image the case split does not list is a skipped case, with no classes (the metric does not count it)', async () => {
    const inst = (b: B) => ({ polygon: poly(b), bbox: b, bbox_label: 0, ignore: false });
    const img = (name: string) => ({ img_path: name, height: 100, width: 200, instances: [inst([0, 0, 10, 10])] });
    const files: Record<string, string | Uint8Array> = {
      'anno/hard/images/a.jpg': new Uint8Array([1]),
      'anno/hard/images/b.jpg': new Uint8Array([1]),
      'anno/mmocr1.x_format/challenging_norm.json': JSON.stringify({ metainfo: {}, data_list: [img('a.jpg'), img('b.jpg')] }),
      'anno/mmocr1.x_format/challenging_hard.json': JSON.stringify({ metainfo: {}, data_list: [img('a.jpg')] }),
    };
    const far: number[] = [...poly([100, 50, 110, 60]), 0.9];
    const preds = { 'a.jpg': [far], 'b.jpg': [far] };
    const r = await session(new MemorySource('ltb', files), new MemorySource('p', { 'm.json': JSON.stringify(preds) }), 'm.json', { case_split: 'hard' });
    const [a, b] = r.cases;
    expect(b.outcome).toBe('skipped');
    expect([...b.gt, ...b.pred].map((x) => x.error)).toEqual([undefined, undefined]);
    expect(a.gt[0].error).toBe('missed');
    expect(a.pred[0].error).toBe('background');
    expect(r.diagnostics!.errors.hard).toMatchObject({ gt: 1, pred: 1, hits: 0, fn: { missed: 1 }, fp: { background: 1 } });
    expect(r.diagnostics!.errors.norm).toMatchObject({ gt: 2, pred: 2, hits: 0, fn: { missed: 2 }, fp: { background: 2 } });
  });
});
