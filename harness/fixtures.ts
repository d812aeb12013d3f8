/**
 * Hand-made CaseRecords mirroring what each benchmark adapter produces, plus a dense synthetic
 * case (5,000 polygons) for the performance bench. Pure data: the harness page draws images
 * for them, the e2e test asserts against the same constants.
 */
import type { BenchmarkId, CaseRecord, Instance } from '../src/core/model';
import { mulberry32 as rng } from '../src/core/random';

export interface Fixture {
  name: string;
  benchmark: BenchmarkId;
  width: number;
  height: number;
  /** Per model: the record of this case. */
  views: { model: string; record: CaseRecord }[];
  /** gansulishuzhi: the dataset draws its own overlay image. */
  overlay?: boolean;
}

const box = (x0: number, y0: number, x1: number, y1: number) => ({ type: 'box' as const, box: [x0, y0, x1, y1] as [number, number, number, number] });
const poly = (...points: number[]) => ({ type: 'polygon' as const, points });

function record(caseId: string, imagePath: string, w: number, h: number, gt: Instance[], pred: Instance[], extra: Partial<CaseRecord> = {}): CaseRecord {
  const matches = pred.filter((p) => p.state === 'tp' && p.partner !== undefined).map((p) => ({ gt: p.partner!, pred: p.id, iou: p.iou }));
  const fn = gt.filter((g) => g.state === 'fn').length;
  const fp = pred.filter((p) => p.state === 'fp').length;
  const tp = matches.length;
  return {
    case_id: caseId,
    image_path: imagePath,
    facets: {},
    score: null,
    outcome: fn === 0 && fp === 0 ? 'pass' : tp === 0 ? 'fail' : 'partial',
    gt,
    pred,
    matches,
    errors: [],
    width: w,
    height: h,
    ...extra,
  };
}

/** LTB: care words with challenge tags, a don't-care region swallowing a prediction, an FP. */
export const LTB_FP = { id: 2, box: [900, 120, 1100, 190] as const, reason: 'best IoU 0.12 with GT 2 < 0.5: unmatched' };
export const LTB_SWALLOWED = { id: 3, reason: "overlap 62% with don't-care region 3" };
function ltb(model2 = false): CaseRecord {
  const gt: Instance[] = [
    { id: 0, shape: box(100, 100, 400, 180), text: 'HELLO', state: 'tp', iou: 0.83, partner: 0, tags: ['occluded', 'blurred'] },
    // A curved word: 14 vertices, drawn as a polygon, never as its bounding box.
    { id: 1, shape: poly(120, 400, 180, 360, 260, 335, 340, 330, 420, 335, 500, 360, 560, 400, 530, 440, 480, 410, 410, 390, 340, 385, 270, 390, 200, 410, 150, 440), text: 'CURVED', state: model2 ? 'tp' : 'fn', best_iou: model2 ? undefined : 0.38, iou: model2 ? 0.71 : undefined, partner: model2 ? 4 : undefined, reason: model2 ? undefined : 'best IoU 0.38 with prediction 1 < 0.5', tags: ['distorted'] },
    { id: 2, shape: poly(700, 500, 1000, 480, 1010, 560, 710, 580), text: 'WORLD', state: model2 ? 'fn' : 'tp', iou: model2 ? undefined : 0.77, best_iou: model2 ? 0.2 : undefined, partner: model2 ? undefined : 2, tags: ['artistic'] },
    { id: 3, shape: poly(600, 250, 860, 240, 870, 330, 610, 340), text: '###', state: 'dontcare', reason: "don't care in the annotation (ignore: true)" },
  ];
  const pred: Instance[] = model2
    ? [
        { id: 0, shape: box(104, 96, 404, 176), score: 0.97, text: 'HELLO', state: 'tp', iou: 0.9, partner: 0 },
        { id: 1, shape: poly(640, 260, 800, 255, 805, 320, 645, 325), score: 0.6, state: 'ignored', reason: LTB_SWALLOWED.reason },
        { id: 2, shape: box(150, 600, 300, 660), score: 0.81, state: 'fp', best_iou: 0, reason: 'no GT overlaps this prediction' },
        { id: 3, shape: box(1000, 640, 1200, 700), score: 0.92, state: 'fp', best_iou: 0, reason: 'no GT overlaps this prediction' },
        { id: 4, shape: poly(125, 398, 260, 332, 420, 332, 555, 398, 528, 436, 410, 388, 270, 388, 152, 436), score: 0.88, state: 'tp', iou: 0.71, partner: 1 },
      ]
    : [
        { id: 0, shape: box(110, 104, 396, 184), score: 0.95, text: 'HELLO', state: 'tp', iou: 0.83, partner: 0 },
        { id: 1, shape: box(130, 340, 330, 420), score: 0.7, state: 'fp', best_iou: 0.38, partner: 1, reason: 'best IoU 0.38 with GT 1 < 0.5' },
        { id: LTB_FP.id, shape: box(...LTB_FP.box), score: 0.9, state: 'fp', best_iou: 0.12, partner: 2, reason: LTB_FP.reason },
        { id: LTB_SWALLOWED.id, shape: poly(640, 260, 800, 255, 805, 320, 645, 325), score: 0.6, state: 'ignored', reason: LTB_SWALLOWED.reason },
        { id: 4, shape: poly(705, 505, 995, 488, 1005, 555, 712, 572), score: 0.88, text: 'WORLD', state: 'tp', iou: 0.77, partner: 2 },
        { id: 5, shape: box(1150, 40, 1250, 90), score: 0.2, state: 'below_threshold', reason: 'score 0.20 < 0.3 threshold' },
      ];
  return record('img_12.jpg', 'img_12.jpg', 1280, 720, gt, pred, { facets: { split: 'hard', challenge: ['occluded', 'blurred', 'distorted', 'artistic'] } });
}

/** Chronicles Spotting: GT characters vs predicted characters, CJK and an astral character. */
export const ASTRAL = '\u{3134A}'; // CJK Extension G: no font here has it
function chronicles(): CaseRecord {
  const gt: Instance[] = [
    { id: 0, shape: box(60, 60, 180, 180), text: '王', state: 'tp', iou: 0.86, partner: 0, attrs: { char: '王' } },
    { id: 1, shape: box(60, 220, 180, 340), text: '貞', state: 'fn', best_iou: 0.8, partner: 1, reason: 'IoU 0.80 ≥ 0.75 but the characters differ (貞 ≠ 占)', attrs: { char: '貞' } },
    { id: 2, shape: box(60, 380, 180, 500), text: ASTRAL, state: 'tp', iou: 0.9, partner: 2 },
    { id: 3, shape: box(240, 60, 360, 180), text: '[UNK]', state: 'unk', reason: 'UNK characters are left out of Spotting' },
  ];
  const pred: Instance[] = [
    { id: 0, shape: box(64, 58, 184, 176), text: '王', state: 'tp', iou: 0.86, partner: 0 },
    { id: 1, shape: box(62, 226, 182, 342), text: '占', state: 'fp', best_iou: 0.8, partner: 1, reason: 'IoU 0.80 ≥ 0.75 but the characters differ (占 ≠ 貞)' },
    { id: 2, shape: box(58, 384, 178, 498), text: ASTRAL, state: 'tp', iou: 0.9, partner: 2 },
  ];
  return record('甲骨文/H00001.jpg#spotting', '甲骨文/H00001.jpg', 420, 560, gt, pred, {
    task: 'Spotting',
    facets: { script: '甲骨文', task: 'Spotting' },
    score: 0.6667,
    detail: {
      thinking: '图中有三个字……第二个字像"占"。',
      raw_answer: '```json\n[{"bbox":[150,100,430,320],"char":"王"},{"bbox":[148,402,433,610],"char":"占"}]\n```',
      rule: 'stored extract (official): items from the inference-time extractor',
      detection_f1: 1,
    },
  });
}

function chroniclesRecognition(): CaseRecord {
  return record(
    '甲骨文/H00001.jpg#recognition',
    '甲骨文/H00001.jpg',
    420,
    560,
    [
      { id: 0, shape: box(60, 220, 180, 340), text: '貞', state: 'fn', attrs: { role: 'target' }, reason: 'the model answered 占' },
    ],
    [{ id: 0, text: '占', state: 'fp', reason: '占 ≠ 貞' }],
    {
      task: 'Recognition',
      score: 0,
      outcome: 'fail',
      detail: { thinking: '这个字上面是卜，下面是口……', raw_answer: '<think>这个字上面是卜，下面是口……</think>\n现代汉字：占', rule: 'prefix 现代汉字', extract: { char: '占' } },
    },
  );
}

function chroniclesParsing(): CaseRecord {
  return record('隶书/L0002.jpg#parsing', '隶书/L0002.jpg', 420, 560, [{ id: 0, text: '王贞[UNK]人', state: 'fn' }], [{ id: 0, text: '王贞人', state: 'fp' }], {
    task: 'Parsing',
    score: 0.5,
    outcome: 'partial',
    detail: { gt_norm: '王贞UNK人', pred_norm: '王贞人', ned: 0.5, raw_answer: '<think>嗯</think>提取文本：王贞人', rule: 'prefix 提取文本' },
  });
}

/** TABench R2T: the query box (info) and a text answer. */
function tabench(): CaseRecord {
  return record(
    'q17',
    'Receipt/Receipt_1135.jpg',
    800,
    1000,
    [
      { id: 0, shape: box(120, 300, 620, 360), state: 'info', attrs: { role: 'query' }, reason: 'the region the question asks about' },
      { id: 1, text: 'TOTAL 12.50', state: 'fn' },
    ],
    [{ id: 0, text: 'TOTAL 12,50', state: 'fp' }],
    {
      task: 'R2T',
      score: 0,
      outcome: 'fail',
      facets: { category: 'Receipt', task: 'R2T' },
      detail: { question: 'What text is in the box?', gt_norm: 'TOTAL 12.50', pred_norm: 'TOTAL 12,50', cer: 1 / 11, raw_answer: '<think>The box covers the total line.</think>"TOTAL 12,50"', rule: 'JSON string literal unwrapped' },
    },
  );
}

function tabenchT2R(): CaseRecord {
  return record(
    'q18',
    'Receipt/Receipt_1135.jpg',
    800,
    1000,
    [
      { id: 0, shape: box(120, 300, 620, 360), text: 'TOTAL', state: 'tp', iou: 0.64, partner: 0 },
      { id: 1, shape: box(120, 700, 400, 740), text: 'TOTAL', state: 'fn', best_iou: 0 },
    ],
    [
      { id: 0, shape: box(140, 290, 600, 370), state: 'tp', iou: 0.64, partner: 0 },
      { id: 1, shape: box(500, 800, 700, 860), state: 'fp', best_iou: 0, reason: 'IoU 0 with every GT box' },
    ],
    { task: 'T2R', facets: { category: 'Receipt', task: 'T2R' }, detail: { question: 'Where is the word "TOTAL"?', raw_answer: '[[140,290,600,370],[500,800,700,860]]', rule: 'JSON list of boxes' } },
  );
}

/** PulseBench-Select: option polygons with content and selected state. */
function pulsebench(): CaseRecord {
  const q = (x: number, y: number, w: number, h: number) => poly(x, y, x + w, y, x + w, y + h, x, y + h);
  return record(
    'sample-42',
    'sample-42.png',
    1000,
    1300,
    [
      { id: 0, shape: q(100, 200, 300, 50), text: 'Married', state: 'tp', iou: 1, partner: 0, attrs: { selected: true, overlap: 1, centroid_distance: 0.004 } },
      { id: 1, shape: q(100, 270, 300, 50), text: 'Single', state: 'info', attrs: { role: 'option', selected: false } },
      { id: 2, shape: q(100, 340, 300, 50), text: 'Yes, I agree', state: 'fn', attrs: { selected: true }, reason: 'no selected prediction has token overlap ≥ 0.80' },
    ],
    [
      { id: 0, shape: q(102, 202, 296, 48), text: 'Married', state: 'tp', partner: 0, attrs: { selected: true, overlap: 1, centroid_distance: 0.004 } },
      { id: 1, shape: q(100, 270, 300, 50), text: 'Single', state: 'fp', attrs: { selected: true, nearest_gt: 0, overlap: 0 }, reason: 'overlap too low: 0.00 < 0.80 with the nearest GT (Married)' },
    ],
  );
}

/** gansulishuzhi: figure boxes on a page, with the dataset's own red overlay image. */
function gansu(): CaseRecord {
  return record(
    'page_007',
    'pages/page_007.png',
    1395,
    2037,
    [
      { id: 0, shape: box(150, 300, 1200, 900), state: 'tp', iou: 0.81, partner: 0 },
      { id: 1, shape: box(150, 1200, 700, 1800), state: 'fn', best_iou: 0.42, partner: 1, reason: 'IoU 0.42 < T = 0.5' },
    ],
    [
      { id: 0, shape: box(180, 320, 1190, 960), state: 'tp', iou: 0.81, partner: 0 },
      { id: 1, shape: box(150, 1300, 1000, 1900), state: 'fp', iou: 0.42, partner: 1, reason: 'matched GT 1 with IoU 0.42 < T = 0.5' },
    ],
  );
}


export const DENSE = { width: 4000, height: 3000, gt: { tp: 1800, fn: 400, dontcare: 300 }, pred: { tp: 1800, fp: 450, ignored: 150, below_threshold: 100 } };

/** 5,000 polygons (2,500 GT, 2,500 predictions) in mixed states: quads and 10-point curves. */
function dense(): CaseRecord {
  const r = rng(5000);
  const shape = (cx: number, cy: number) => {
    const w = 30 + r() * 90;
    const h = 10 + r() * 25;
    const a = (r() - 0.5) * 0.8;
    const c = Math.cos(a);
    const s = Math.sin(a);
    const local: [number, number][] = r() < 0.7 ? [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]] : [...[-2, -1, 0, 1, 2].map((k): [number, number] => [(k * w) / 4, -h / 2 - Math.abs(k) * 3]), ...[2, 1, 0, -1, -2].map((k): [number, number] => [(k * w) / 4, h / 2 - Math.abs(k) * 3])];
    return poly(...local.flatMap(([x, y]) => [Math.round((cx + x * c - y * s) * 10) / 10, Math.round((cy + x * s + y * c) * 10) / 10]));
  };
  const gt: Instance[] = [];
  const pred: Instance[] = [];
  const place = () => [60 + r() * (DENSE.width - 120), 40 + r() * (DENSE.height - 80)];
  for (const [state, n] of Object.entries(DENSE.gt) as [Instance['state'], number][])
    for (let i = 0; i < n; i++) {
      const [x, y] = place();
      gt.push({ id: gt.length, shape: shape(x, y), state, text: state === 'dontcare' ? '###' : `w${gt.length}` });
    }
  for (const [state, n] of Object.entries(DENSE.pred) as [Instance['state'], number][])
    for (let i = 0; i < n; i++) {
      const [x, y] = state === 'tp' ? (() => {
        const b = gt[pred.length % 1800].shape as { points: number[] };
        return [b.points[0] + 20, b.points[1] + 6];
      })() : place();
      const id = pred.length;
      pred.push({ id, shape: shape(x, y), state, score: Math.round(r() * 100) / 100, ...(state === 'tp' ? { partner: id, iou: 0.5 + r() * 0.5 } : { best_iou: r() * 0.5, reason: state === 'ignored' ? "overlap 55% with don't-care region" : state === 'below_threshold' ? 'score below 0.3' : 'best IoU < 0.5' }) });
    }
  return record('dense5000', 'dense.png', DENSE.width, DENSE.height, gt, pred, { facets: { split: 'synthetic' } });
}

export const FIXTURE_NAMES = ['ltb', 'chronicles', 'chronicles-recognition', 'chronicles-parsing', 'tabench', 'tabench-t2r', 'pulsebench', 'gansu', 'dense5000'] as const;
export type FixtureName = (typeof FIXTURE_NAMES)[number];

export function fixture(name: string, models = 1): Fixture {
  const two = models >= 2;
  const mk = (benchmark: BenchmarkId, a: CaseRecord, b: CaseRecord = a, extra: Partial<Fixture> = {}): Fixture => ({
    name,
    benchmark,
    width: a.width!,
    height: a.height!,
    views: two ? [{ model: 'model-a', record: a }, { model: 'model-b', record: b }] : [{ model: 'model-a', record: a }],
    ...extra,
  });
  switch (name) {
    case 'chronicles':
      return mk('chronicles', chronicles());
    case 'chronicles-recognition':
      return mk('chronicles', chroniclesRecognition());
    case 'chronicles-parsing':
      return mk('chronicles', chroniclesParsing());
    case 'tabench':
      return mk('tabench', tabench());
    case 'tabench-t2r':
      return mk('tabench', tabenchT2R());
    case 'pulsebench':
      return mk('pulsebench-select', pulsebench());
    case 'gansu':
      return mk('gansulishuzhi', gansu(), gansu(), { overlay: true });
    case 'dense5000':
      return mk('ltb', dense());
    case 'ltb':
    default:
      return mk('ltb', ltb(), ltb(true));
  }
}
