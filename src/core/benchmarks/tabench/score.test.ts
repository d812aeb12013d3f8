/** Sharp edges of tabench.md, each on a tiny in-memory dataset driven through BenchSession. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { InputError, type ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { greedyMatch } from './match';

type Line = Record<string, unknown>;

const r2t = (gt: string, extra: Line = {}): Line => ({
  image_path: 'Book/b.jpg',
  category: 'Book',
  task_type: 'R2T',
  question: `What is the text of ${gt}?`,
  bbox: [0, 0, 10, 10],
  GT: gt,
  text: gt,
  source_dataset: 'HierText',
  annotation_level: 'line',
  ...extra,
});
const t2r = (boxes: number[][], extra: Line = {}): Line => ({
  image_path: 'Book/b.jpg',
  category: 'Book',
  task_type: 'T2R',
  question: `Where is ${JSON.stringify(boxes)}?`,
  bbox: boxes,
  GT: boxes.map((b) => ({ bbox: b, text: 'x' })),
  text: 'x',
  source_dataset: 'HierText',
  annotation_level: 'word',
  ...extra,
});

const jsonl = (lines: (Line | string)[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';

async function run(
  bench: Line[],
  preds: (Line | string)[],
  options: Record<string, string> = {},
  predName = 'TABench-abs_with_predictions.jsonl',
): Promise<ModelResult> {
  const ds = new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl(bench) });
  const session = await BenchSession.open(ds);
  const ps = new MemorySource('preds', { [predName]: jsonl(preds) });
  await session.addPredictions({ source: ps, path: predName, name: 'm' });
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** A prediction line: the benchmark line plus an output field. */
const answer = (line: Line, output: unknown, field = 'prediction'): Line => ({ ...line, [field]: output });

describe('T2R matching at the IoU threshold', () => {
  const gt = t2r([[0, 0, 10, 10]]);
  it('counts IoU exactly 0.5 as a match at t = 0.5, and not at t = 0.7', async () => {
    const half = answer(gt, '[[0, 0, 10, 5]]'); // inter 50 / union 100
    let r = await run([gt], [half]);
    expect(r.metrics['t2r/tp']).toBe(1);
    expect(r.cases[0].outcome).toBe('pass');
    r = await run([gt], [half], { t2r_iou: '0.7' });
    expect(r.metrics['t2r/tp']).toBe(0);
    expect(r.cases[0].pred[0]).toMatchObject({ state: 'fp', reason: 'IoU 0.50 < 0.7' });
    expect(r.cases[0].gt[0]).toMatchObject({ state: 'fn', reason: 'best IoU 0.50 < 0.7' });
  });
  it('counts IoU exactly 0.7 at t = 0.7 and 0.3 at t = 0.3', async () => {
    expect((await run([gt], [answer(gt, '[0, 0, 10, 7]')], { t2r_iou: '0.7' })).metrics['t2r/tp']).toBe(1);
    expect((await run([gt], [answer(gt, '[0, 0, 10, 3]')], { t2r_iou: '0.3' })).metrics['t2r/tp']).toBe(1);
    expect((await run([gt], [answer(gt, '[0, 0, 10, 3]')], { t2r_iou: '0.31' })).metrics['t2r/tp']).toBe(0);
  });
  it('is greedy, not optimal: the best pair is taken first even when that loses a match', async () => {
    // p0 overlaps G0 at 0.905 and G1 at 0.739; p1 overlaps only G0 (0.538). Optimal would pair
    // p0–G1 and p1–G0 (2 TP); greedy takes p0–G0 and leaves 1 TP, 1 FP, 1 FN.
    const q = t2r([
      [0, 0, 10, 10],
      [2, 0, 12, 10],
    ]);
    const r = await run([q], [answer(q, '[[0.5, 0, 10.5, 10], [-3, 0, 7, 10]]')]);
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([1, 1, 1]);
    expect(r.cases[0].matches).toEqual([{ gt: 0, pred: 0, iou: 95 / 105 }]);
    expect(r.cases[0].outcome).toBe('partial');
    expect(r.cases[0].pred[1].reason).toMatch(/^duplicate/);
    expect(r.cases[0].gt[1].reason).toBe('every prediction with IoU ≥ 0.5 was matched to another GT box');
  });
  it('breaks IoU ties GT-major, then in prediction order', () => {
    const m = greedyMatch(
      [
        [0, 0, 10, 10],
        [0, 0, 10, 10],
      ],
      [
        [0, 0, 10, 10],
        [0, 0, 10, 10],
      ],
      (iou) => iou >= 0.5,
    );
    expect(m.pairs.map((p) => [p.gt, p.pred])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });
  it('gives zero-area boxes IoU 0', async () => {
    const r = await run([gt], [answer(gt, '[[0, 0, 0, 10]]')], { t2r_iou: '0.0001' });
    expect(r.metrics['t2r/tp']).toBe(0);
    expect(r.cases[0].pred[0].best_iou).toBe(0);
  });
});

describe('T2R averages and QSR', () => {
  const a = t2r([[0, 0, 10, 10]]);
  const b = t2r([
    [20, 0, 30, 10],
    [40, 0, 50, 10],
  ]);
  const empty = t2r([], { GT: [], bbox: [] });
  it('pools TP / FP / FN by default (micro)', async () => {
    const r = await run([a, b], [answer(a, '[[0, 0, 10, 10]]'), answer(b, '[[20, 0, 30, 10], [60, 0, 70, 10]]')]);
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([2, 1, 1]);
    expect(r.metrics['t2r/precision']).toBeCloseTo(2 / 3, 12);
    expect(r.metrics['t2r/f1']).toBeCloseTo(2 / 3, 12);
  });
  it('macro averages per-query P / R / F1, a query with no GT and no prediction scoring 1', async () => {
    const r = await run([a, empty], [answer(a, '[[0, 0, 10, 10], [50, 50, 60, 60]]'), answer(empty, '[]')], { t2r_average: 'macro' });
    // query a: P 1/2, R 1, F1 2/3; the empty query: 1, 1, 1.
    expect(r.metrics['t2r/precision']).toBeCloseTo((0.5 + 1) / 2, 12);
    expect(r.metrics['t2r/recall']).toBeCloseTo(1, 12);
    expect(r.metrics['t2r/f1']).toBeCloseTo((2 / 3 + 1) / 2, 12);
    // Counts stay pooled.
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([1, 1, 0]);
    expect(r.cases[1]).toMatchObject({ score: 1, outcome: 'pass' });
  });
  it('scores QSR@K on the first K boxes against any GT box, with GT-less queries never succeeding', async () => {
    const r = await run(
      [a, empty],
      [answer(a, '[[50, 50, 60, 60], [0, 0, 10, 10]]'), answer(empty, '[[0, 0, 10, 10]]')],
    );
    expect(r.metrics['t2r/qsr@1']).toBe(0);
    expect(r.metrics['t2r/qsr@3']).toBe(0.5);
    expect(r.metrics['t2r/qsr@5']).toBe(0.5);
    expect(r.cases[1].outcome).toBe('fail');
  });
  it('counts QSR success for a duplicate box that greedy matching leaves unmatched', async () => {
    const r = await run([a], [answer(a, '[[60, 60, 70, 70], [0, 0, 10, 10], [0, 0, 10, 10]]')]);
    expect(r.metrics['t2r/qsr@1']).toBe(0);
    expect(r.metrics['t2r/qsr@3']).toBe(1);
  });
  it('counts a side without queries as 0 in Overall', async () => {
    const r = await run([a], [answer(a, '[[0, 0, 10, 10]]')]);
    expect(r.metrics['r2t/n']).toBe(0);
    expect(r.metrics['r2t/accuracy']).toBe(0);
    expect(r.metrics.overall).toBe(0.5);
  });
});

describe('R2T accuracy and CER', () => {
  it('accepts curly quotes and full-width punctuation that normalise to the GT', async () => {
    const q = r2t('“I don’t know,” she said—looking away.');
    const r = await run([q], [answer(q, '"I don\'t know," she said-looking away.')]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.cases[0]).toMatchObject({ outcome: 'pass', score: 1 });
  });
  it('measures CER over code points and does not cap it', async () => {
    const astral = r2t('\u{20000}\u{20000}');
    const short = r2t('ab');
    const r = await run([astral, short], [answer(astral, '\u{20000}'), answer(short, 'abcdef')]);
    // 1/2 for the astral pair (not 2/4 in UTF-16 units), 4/2 for the long answer.
    expect(r.metrics['r2t/cer']).toBeCloseTo((0.5 + 2) / 2, 12);
    expect(r.cases[0].detail).toMatchObject({ edit_distance: 1, cer: 0.5 });
  });
  it('scores an empty GT with an empty answer as exact, CER 0', async () => {
    const q = r2t('');
    const r = await run([q], [answer(q, '')]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.metrics['r2t/cer']).toBe(0);
  });
  it('keeps case by default and folds it with r2t_casefold=true', async () => {
    const q = r2t('SUMMER SALE');
    const p = [answer(q, 'Summer Sale')];
    expect((await run([q], p)).metrics['r2t/accuracy']).toBe(0);
    expect((await run([q], p, { r2t_casefold: 'true' })).metrics['r2t/accuracy']).toBe(1);
  });
});

describe('joins, duplicates, missing and bad predictions', () => {
  const q1 = r2t('A');
  const q2 = r2t('B');
  const q3 = t2r([[0, 0, 10, 10]]);
  it('keeps the first of two lines for a query and warns about the second', async () => {
    const r = await run([q1, q2], [answer(q1, 'A'), answer(q1, 'wrong'), answer(q2, 'B')]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.counts.duplicate_lines).toBe(1);
    expect(r.warnings).toEqual(['line 2: second prediction for query 1 ignored']);
  });
  it('scores a query without a prediction as an empty output and counts it', async () => {
    const r = await run([q1, q2, q3], [answer(q1, 'A')]);
    expect(r.counts.missing_predictions).toBe(2);
    expect(r.metrics['r2t/accuracy']).toBe(0.5);
    expect(r.metrics['t2r/fn']).toBe(1);
    expect(r.cases[2]).toMatchObject({ errors: ['missing_prediction'], outcome: 'fail' });
  });
  it('joins by id when lines carry one, and warns about unknown ids', async () => {
    const a = r2t('A', { id: 'q-a' });
    const b = r2t('B', { id: 'q-b' });
    // The prediction lines' questions differ from the benchmark's: only the id can join them.
    const r = await run([a, b], [{ id: 'q-b', question: '?', answer: 'B' }, { id: 'q-z', answer: 'Z' }, { id: 'q-a', answer: 'A' }]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.counts.unknown_lines).toBe(1);
    expect(r.warnings).toEqual(['line 2: no query with id q-z in TABench-abs.jsonl']);
    expect(r.cases.map((c) => c.case_id)).toEqual(['q-a', 'q-b']);
  });
  it('takes the first present output field, a null one counting as absent', async () => {
    const r = await run([q1], [{ ...q1, prediction: null, pred: null, response: 'A', answer: 'nope' }]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.cases[0].detail).toMatchObject({ output_field: 'response' });
  });
  it('counts a malformed line, and an unparseable T2R output as a case error', async () => {
    const r = await run([q1, q3], [answer(q1, 'A'), '{"image_path": "Book/b.jpg", "task', answer(q3, 'no boxes here')]);
    expect(r.counts).toMatchObject({ malformed_lines: 1, unparseable_outputs: 1, missing_predictions: 0 });
    expect(r.warnings).toEqual(['line 2: not valid JSON']);
    expect(r.cases[1]).toMatchObject({ errors: ['unparseable_output'], outcome: 'fail', pred: [] });
    expect(r.cases[1].detail).toMatchObject({ parse_rule: 'unparseable', raw_output: 'no boxes here' });
  });
  it('rejects a prediction file for another benchmark with an InputError naming the file', async () => {
    const run2 = run([q1], ['{"id": "page_003", "pred_bboxes": [[1, 2, 3, 4]]}'], {}, 'glm4v-sim.jsonl');
    await expect(run2).rejects.toThrow(InputError);
    await expect(run2).rejects.toThrow(/glm4v-sim\.jsonl/);
  });
  it('rejects the benchmark file itself given as predictions (no output field)', async () => {
    await expect(run([q1], [q1], {}, 'TABench-abs.jsonl')).rejects.toThrow(/no line has an output field/);
  });
  it('rejects rel1000 predictions when the dataset has only the abs file', async () => {
    await expect(run([q1], [answer({ ...q1, coord_type: 'rel1000' }, 'A')])).rejects.toThrow(/rel1000.*TABench-rel1000\.jsonl/);
  });
  it('reads the coordinate space from the file name when lines have no coord_type', async () => {
    const ds = new MemorySource('TABench', {
      'TABench-abs.jsonl': jsonl([q3]),
      'TABench-rel1000.jsonl': jsonl([{ ...q3, bbox: [[0, 0, 500, 500]], GT: { bbox: [0, 0, 500, 500], text: 'x' } }]),
    });
    const session = await BenchSession.open(ds);
    const ps = new MemorySource('p', { 'x/TABench-rel1000_with_predictions.jsonl': jsonl([answer(q3, '[[0, 0, 500, 500]]')]) });
    expect(await session.addPredictions({ source: ps, path: '', name: 'infer_output' })).toEqual(['x']);
    const protocol = session.resolveProtocol();
    const results = await session.score(protocol);
    expect(results[0].metrics['t2r/tp']).toBe(1);
    expect(session.report(protocol, results).protocol.options.coords).toBe('rel1000');
  });
});

describe('slices', () => {
  it('reports every key per category, source and level, leaving out lines without the field', async () => {
    const a = r2t('A', { category: 'Receipt', source_dataset: 'SVRD' });
    const b = t2r([[0, 0, 10, 10]], { category: undefined, annotation_level: undefined });
    const r = await run([a, b], [answer(a, 'A'), answer(b, '[[0, 0, 10, 10]]')]);
    expect(r.metrics['category/Receipt/r2t/accuracy']).toBe(1);
    expect(r.metrics['category/Receipt/t2r/n']).toBe(0);
    expect(r.metrics['category/Receipt/t2r/f1']).toBe(0);
    expect(r.metrics['category/Receipt/overall']).toBe(0.5);
    expect(r.metrics['source/HierText/t2r/f1']).toBe(1);
    expect(r.metrics['level/line/r2t/n']).toBe(1);
    expect(Object.keys(r.metrics).filter((k) => k.startsWith('category/'))).toHaveLength(14);
    expect(Object.keys(r.metrics).filter((k) => k.startsWith('level/'))).toHaveLength(14);
  });
  it('keeps the first of two benchmark lines with one id, warns and counts the other as skipped', async () => {
    const a = r2t('A', { id: 'dup' });
    const b = r2t('B', { id: 'dup' });
    const session = await BenchSession.open(new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl([a, b]) }));
    expect(session.info.cases).toBe(1);
    expect(session.info.warnings).toContain('TABench-abs.jsonl line 2: second query with id dup ignored');
    await session.addPredictions({ source: new MemorySource('p', { 'm.jsonl': jsonl([{ id: 'dup', prediction: 'A' }]) }), path: 'm.jsonl', name: 'm' });
    const [r] = await session.score(session.resolveProtocol());
    expect(r.counts.skipped).toBe(1);
    expect(r.metrics['r2t/accuracy']).toBe(1);
  });
  it('refuses t2r_iou outside (0, 1]', async () => {
    const session = await BenchSession.open(new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl([r2t('A')]) }));
    expect(() => session.resolveProtocol(undefined, { t2r_iou: '0' })).toThrow(InputError);
    expect(() => session.resolveProtocol(undefined, { t2r_average: 'weighted' })).toThrow(InputError);
  });
});
