/**
 * Independent audit of tabench.md: every expected value below is worked out by hand from the
 * spec text (the arithmetic is in the comments), not read off the implementation. Each test
 * drives a tiny in-memory dataset through BenchSession, as the CLI does.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';

type Line = Record<string, unknown>;

const IMG = 'Book/b.jpg';
let serial = 0;
/** An R2T benchmark line; every question is distinct so (image_path, question) joins are unique. */
const r2t = (gt: string, extra: Line = {}): Line => ({
  image_path: IMG,
  category: 'Book',
  task_type: 'R2T',
  question: `R2T question ${++serial}`,
  bbox: [0, 0, 10, 10],
  GT: gt,
  text: gt,
  ...extra,
});
const t2r = (boxes: number[][], extra: Line = {}): Line => ({
  image_path: IMG,
  category: 'Book',
  task_type: 'T2R',
  question: `T2R question ${++serial}`,
  bbox: boxes,
  GT: boxes.map((b) => ({ bbox: b, text: 't' })),
  text: 't',
  ...extra,
});
const jsonl = (lines: (Line | string)[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const answer = (line: Line, output: unknown, field = 'prediction'): Line => ({ ...line, [field]: output });

async function run(
  bench: Line[],
  preds: (Line | string)[],
  options: Record<string, string> = {},
  predName = 'model.jsonl',
  extraFiles: Record<string, string> = {},
): Promise<ModelResult> {
  const ds = new MemorySource('TABench', { 'TABench-abs.jsonl': jsonl(bench), ...extraFiles });
  const session = await BenchSession.open(ds);
  const ps = new MemorySource('preds', { [predName]: jsonl(preds) });
  await session.addPredictions({ source: ps, path: predName, name: 'm' });
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** R2T: the normalised prediction and whether it matched, for one raw output against one GT. */
async function readR2t(gt: string, output: unknown, options: Record<string, string> = {}) {
  const q = r2t(gt);
  const r = await run([q], [answer(q, output)], options);
  return { correct: r.metrics['r2t/accuracy'] === 1, pred: r.cases[0].detail?.pred_normalised, cer: r.metrics['r2t/cer'], r };
}

/** T2R: the boxes read from one raw output, and whether the case carries unparseable_output. */
async function readT2r(output: unknown) {
  const q = t2r([[0, 0, 10, 10]]);
  const r = await run([q], [answer(q, output)]);
  const c = r.cases[0];
  return { boxes: c.pred.map((p) => (p.shape?.type === 'box' ? p.shape.box : null)), unparseable: c.errors.includes('unparseable_output'), r };
}

describe('audit: think blocks and fences (Decisions: Think blocks)', () => {
  it('removes every closed block, then keeps what follows the last stray </think>, then drops an unclosed <think>', async () => {
    // "<think>a</think>x</think>ANSWER<think>z": closed block removed → "x</think>ANSWER<think>z";
    // after the last </think> → "ANSWER<think>z"; unclosed <think> dropped → "ANSWER".
    expect((await readR2t('ANSWER', '<think>a</think>x</think>ANSWER<think>z')).pred).toBe('ANSWER');
    // Two closed blocks around text: "A" + "B" → "AB".
    expect((await readR2t('AB', '<think>1</think>A<think>2</think>B')).pred).toBe('AB');
    // Only an unclosed block: everything from it goes → "".
    expect((await readR2t('', 'ok? <think> no end')).pred).toBe('ok?');
  });
  it('removes a fence only when it surrounds the whole trimmed output, with its info string', async () => {
    // Surrounding, with leading/trailing white space: trimmed first → fence → {"text": "A"} → "A".
    expect((await readR2t('A', '  \n```json\n{"text": "A"}\n```\n ')).correct).toBe(true);
    // Fence after prose: not surrounding → the raw text, white space folded: "Here: ``` A ```".
    expect((await readR2t('A', 'Here:\n```\nA\n```')).pred).toBe('Here: ``` A ```');
    // Think block first, then the fence that now surrounds everything.
    expect((await readR2t('B', '<think>t</think>\n```\nB\n```')).correct).toBe(true);
  });
});

describe('audit: R2T values (Decisions: R2T values)', () => {
  it('keeps a bare JSON number / boolean / null as its raw text', async () => {
    // "1.50" is JSON 1.5, but the raw text "1.50" is the answer → equals GT "1.50".
    expect((await readR2t('1.50', '1.50')).correct).toBe(true);
    expect((await readR2t('1.5', '1.50')).correct).toBe(false);
    expect((await readR2t('false', 'false')).correct).toBe(true);
    expect((await readR2t('null', 'null')).correct).toBe(true);
  });
  it('reads an object without a string text as "" and joins only objects\' string texts in arrays', async () => {
    // {"text": 5} → "" against GT "5": lev("", "5") = 1, CER 1 / max(1, 1) = 1.
    const o = await readR2t('5', '{"text": 5}');
    expect([o.pred, o.cer]).toEqual(['', 1]);
    // ["a", {"text":"b"}, {"text":1}, {"text":"c"}] → "b c".
    expect((await readR2t('b c', '["a", {"text": "b"}, {"text": 1}, {"text": "c"}]')).correct).toBe(true);
    // An array of strings has no object text → "".
    expect((await readR2t('x', '["x"]')).pred).toBe('');
  });
  it('unwraps a JSON string literal, also inside a fence', async () => {
    expect((await readR2t('引用', '"引用"')).correct).toBe(true);
    expect((await readR2t('引用', '```\n"引用"\n```')).correct).toBe(true);
  });
  it('uses an output field that already holds JSON as parsed', async () => {
    expect((await readR2t('hi', { text: 'hi' })).correct).toBe(true);
    expect((await readR2t('a b', [{ text: 'a' }, { text: 'b' }])).correct).toBe(true);
    // A JSON number in the field: its text is the number's spelling, "7".
    expect((await readR2t('7', 7)).correct).toBe(true);
  });
});

describe('audit: T2R values (Decisions: T2R values)', () => {
  it('reads every listed shape, recursively through arrays and bbox / bbox_2d values', async () => {
    expect((await readT2r('[0, 0, 10, 10]')).boxes).toEqual([[0, 0, 10, 10]]);
    expect((await readT2r('[[[0, 0, 10, 10]], {"bbox": {"bbox_2d": [1, 1, 9, 9]}}]')).boxes).toEqual([
      [0, 0, 10, 10],
      [1, 1, 9, 9],
    ]);
    expect((await readT2r('{"bbox_2d": [[0, 0, 5, 5], [5, 5, 10, 10]]}')).boxes).toEqual([
      [0, 0, 5, 5],
      [5, 5, 10, 10],
    ]);
  });
  it('skips other elements, never falls back to the regex on valid JSON, and accepts [] as empty', async () => {
    expect((await readT2r('[[0, 0, 10, 10], "x", [1, 2, 3], {"label": 1}]')).boxes).toEqual([[0, 0, 10, 10]]);
    // Valid JSON with no box: zero boxes and unparseable (the text inside is not scanned).
    expect(await readT2r('{"answer": "[0, 0, 10, 10]"}')).toMatchObject({ boxes: [], unparseable: true });
    expect(await readT2r('"[0, 0, 10, 10]"')).toMatchObject({ boxes: [], unparseable: true });
    expect(await readT2r('[[]]')).toMatchObject({ boxes: [], unparseable: true });
    // [] is a valid empty answer: no error, the GT box is an FN.
    const e = await readT2r('[]');
    expect(e).toMatchObject({ boxes: [], unparseable: false });
    expect(e.r.metrics['t2r/fn']).toBe(1);
    expect(e.r.counts.unparseable_outputs).toBe(0);
  });
  it('collects exactly-four-number bracket groups from non-JSON text, with the spec\'s number syntax', async () => {
    // "[.5, +1, 1e1, 10.]" → .5, 1, 10, 10; "[1, 2, 3]" (three) and "[1,2,3,4,5]" (five) are not boxes;
    // "(0, 0, 3, 3)" has no brackets.
    const t = await readT2r('Boxes: [.5, +1, 1e1, 10.] then [1, 2, 3] and [1,2,3,4,5] and (0, 0, 3, 3) and [2,2,8,8].');
    expect(t.boxes).toEqual([
      [0.5, 1, 10, 10],
      [2, 2, 8, 8],
    ]);
    expect(t.unparseable).toBe(false);
    expect(await readT2r('I cannot find it.')).toMatchObject({ boxes: [], unparseable: true });
  });
  it('swaps corners when x2 < x1 or y2 < y1 (JSON and regex alike)', async () => {
    // [10, 10, 0, 0] → [0, 0, 10, 10] → IoU 1 with the GT: a TP.
    const j = await readT2r('[10, 10, 0, 0]');
    expect(j.boxes).toEqual([[0, 0, 10, 10]]);
    expect(j.r.metrics['t2r/tp']).toBe(1);
    // Only x reversed: [10, 0, 0, 10] → [0, 0, 10, 10].
    expect((await readT2r('box at [10, 0, 0, 10]')).boxes).toEqual([[0, 0, 10, 10]]);
  });
});

describe('audit: R2T normalisation and CER (Metrics)', () => {
  it('applies NFKC, the punctuation map and Unicode white-space folding', async () => {
    // NFKC: ＡＢＣ１ → ABC1; ″ → ′′ → '' ; … → ...; map: “” → "", 。 → ., 、 → ,, 【】 → [], 《》 → <>, — – → -.
    const gt = 'ABC1 \'\'... "x" a.b,c [d] <e> f-g-h \'i\' "j" "k"';
    const pred = 'ＡＢＣ１\u3000″…\u00a0“x”\u2003a。b、c 【d】 《e》 f—g–h ‘i’ 「j」 『k』';
    expect((await readR2t(gt, pred)).correct).toBe(true);
    // White space: NEL U+0085, LINE SEPARATOR U+2028 and tabs fold to one space, ends trimmed.
    expect((await readR2t('a b c', '\t a\u0085\u2028b \n\r c \u2029')).correct).toBe(true);
    // U+200B ZERO WIDTH SPACE is not white space: "a\u200Bb" stays apart from "a b" and "ab".
    expect((await readR2t('ab', 'a\u200bb')).correct).toBe(false);
  });
  it('r2t_casefold uses JavaScript toLowerCase (ß stays ß, unlike Unicode case folding)', async () => {
    // toLowerCase("STRASSE") = "strasse" ≠ "straße"; toLowerCase("ÄBC") = "äbc".
    expect((await readR2t('STRASSE', 'straße', { r2t_casefold: 'true' })).correct).toBe(false);
    expect((await readR2t('ÄBC', 'äbc', { r2t_casefold: 'true' })).correct).toBe(true);
    expect((await readR2t('ÄBC', 'äbc')).correct).toBe(false);
  });
  it('CER: code points, uncapped, empty GT divides by 1', async () => {
    // GT "" vs "ab": lev 2 / max(1, 0) = 2.
    expect((await readR2t('', 'ab')).cer).toBe(2);
    // GT "" vs "": exact, CER 0.
    expect(await readR2t('', '')).toMatchObject({ correct: true, cer: 0 });
    // GT "a" vs "abcd": 3 / 1 = 3 (not capped at 1).
    expect((await readR2t('a', 'abcd')).cer).toBe(3);
    // GT "𠀀𠀁𠀂" (3 code points) vs "𠀀": 2 / 3.
    expect((await readR2t('\u{20000}\u{20001}\u{20002}', '\u{20000}')).cer).toBeCloseTo(2 / 3, 15);
    // CER is computed on normalised strings: GT "A B" vs "A\u3000\u3000B" → both "A B", CER 0.
    expect((await readR2t('A B', 'A\u3000\u3000B')).cer).toBe(0);
  });
  it('averages accuracy and CER over R2T queries', async () => {
    // Q1 exact (CER 0); Q2 "abc" vs "abd": 1/3; Q3 missing, GT "xy": empty output, lev 2 / 2 = 1.
    // accuracy 1/3; CER (0 + 1/3 + 1) / 3 = 4/9.
    const q1 = r2t('ok');
    const q2 = r2t('abc');
    const q3 = r2t('xy');
    const r = await run([q1, q2, q3], [answer(q1, 'ok'), answer(q2, 'abd')]);
    expect(r.metrics['r2t/accuracy']).toBeCloseTo(1 / 3, 15);
    expect(r.metrics['r2t/cer']).toBeCloseTo(4 / 9, 15);
    expect(r.metrics['r2t/n']).toBe(3);
    expect(r.counts.missing_predictions).toBe(1);
  });
});

describe('audit: T2R matching, micro / macro, QSR@K, Overall', () => {
  it('breaks exact IoU ties GT-major, then by prediction index', async () => {
    // Two identical GT boxes and two identical predictions: all four pairs IoU 1. GT-major order
    // (G0,p0), (G0,p1), (G1,p0), (G1,p1) → take G0–p0, skip two, take G1–p1.
    const q = t2r([
      [0, 0, 10, 10],
      [0, 0, 10, 10],
    ]);
    const r = await run([q], [answer(q, '[[0, 0, 10, 10], [0, 0, 10, 10]]')]);
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });
  it('gives zero-area boxes IoU 0, even against an identical zero-area GT', async () => {
    const q = t2r([[0, 0, 0, 10]]);
    const r = await run([q], [answer(q, '[[0, 0, 0, 10]]')], { t2r_iou: '0.01' });
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([0, 1, 1]);
  });
  it('micro pools TP/FP/FN; macro averages per-query P/R/F1 with the empty-empty query scoring 1', async () => {
    // QA: 1 GT, 1 matching pred → tp 1. QB: 2 GT, 1 pred matching one → tp 1, fn 1.
    // QC: no GT, no pred. QD: no GT, 1 pred → fp 1.  Pooled: tp 2, fp 1, fn 1.
    // micro P = 2/3, R = 2/3, F1 = 2/3.
    // macro per query (P, R, F1): QA (1, 1, 1); QB (1, 1/2, 2/3); QC (1, 1, 1); QD (0, 0, 0).
    // macro P = 3/4, R = (1 + 1/2 + 1 + 0)/4 = 5/8, F1 = (1 + 2/3 + 1 + 0)/4 = 2/3.
    const qa = t2r([[0, 0, 10, 10]]);
    const qb = t2r([
      [0, 0, 10, 10],
      [20, 20, 30, 30],
    ]);
    const qc = t2r([]);
    const qd = t2r([]);
    const preds = [answer(qa, '[0, 0, 10, 10]'), answer(qb, '[[20, 20, 30, 30]]'), answer(qc, '[]'), answer(qd, '[[5, 5, 6, 6]]')];
    const micro = await run([qa, qb, qc, qd], preds);
    expect([micro.metrics['t2r/tp'], micro.metrics['t2r/fp'], micro.metrics['t2r/fn']]).toEqual([2, 1, 1]);
    expect(micro.metrics['t2r/precision']).toBeCloseTo(2 / 3, 15);
    expect(micro.metrics['t2r/recall']).toBeCloseTo(2 / 3, 15);
    expect(micro.metrics['t2r/f1']).toBeCloseTo(2 / 3, 15);
    const macro = await run([qa, qb, qc, qd], preds, { t2r_average: 'macro' });
    expect(macro.metrics['t2r/precision']).toBeCloseTo(3 / 4, 15);
    expect(macro.metrics['t2r/recall']).toBeCloseTo(5 / 8, 15);
    expect(macro.metrics['t2r/f1']).toBeCloseTo(2 / 3, 15);
    // Counts stay pooled under macro; Overall uses the macro F1: (0 + 2/3) / 2 = 1/3.
    expect([macro.metrics['t2r/tp'], macro.metrics['t2r/fp'], macro.metrics['t2r/fn']]).toEqual([2, 1, 1]);
    expect(macro.metrics.overall).toBeCloseTo(1 / 3, 15);
    // QSR@1: QA and QB succeed; QC, QD have no GT and never succeed → 2/4.
    expect(macro.metrics['t2r/qsr@1']).toBe(0.5);
  });
  it('QSR@K looks at the first K boxes against any GT box, not at the greedy pairs', async () => {
    // Q1: six boxes, only the 4th hits the GT → @1 no, @3 no, @5 yes.
    // Q2: box 0 hits the GT at IoU 0.9 but greedy gives the GT to box 1 (IoU 1) → @1 yes anyway.
    // Q3: no prediction line → never succeeds. QSR = @1 1/3, @3 1/3, @5 2/3.
    const q1 = t2r([[0, 0, 10, 10]]);
    const q2 = t2r([[0, 0, 10, 10]]);
    const q3 = t2r([[0, 0, 10, 10]]);
    const miss = '[50, 50, 60, 60]';
    const r = await run(
      [q1, q2, q3],
      [answer(q1, `[${miss}, ${miss}, ${miss}, [0, 0, 10, 10], ${miss}, ${miss}]`), answer(q2, '[[0, 0, 10, 9], [0, 0, 10, 10]]')],
    );
    expect(r.metrics['t2r/qsr@1']).toBeCloseTo(1 / 3, 15);
    expect(r.metrics['t2r/qsr@3']).toBeCloseTo(1 / 3, 15);
    expect(r.metrics['t2r/qsr@5']).toBeCloseTo(2 / 3, 15);
    // Greedy: Q2 pairs the GT with box 1; box 0 is an FP. tp 2, fp 5 + 1 = 6, fn 1.
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([2, 6, 1]);
  });
  it('t2r_iou moves the threshold for matches and QSR alike', async () => {
    // Pred [0, 0, 10, 8] vs GT [0, 0, 10, 10]: IoU 80/100 = 0.8 → TP at 0.8, not at 0.81.
    const q = t2r([[0, 0, 10, 10]]);
    const p = [answer(q, '[0, 0, 10, 8]')];
    expect((await run([q], p, { t2r_iou: '0.8' })).metrics['t2r/qsr@1']).toBe(1);
    const r = await run([q], p, { t2r_iou: '0.81' });
    expect([r.metrics['t2r/tp'], r.metrics['t2r/qsr@1']]).toEqual([0, 0]);
  });
  it('Overall counts a side with no queries as 0, and an empty slice rates 0', async () => {
    // Only T2R, all correct: F1 1, R2T accuracy over no query 0 → Overall 0.5.
    const q = t2r([[0, 0, 10, 10]], { category: 'Receipt' });
    const r = await run([q, r2t('zz', { category: 'Book' })], [answer(q, '[0, 0, 10, 10]')]);
    expect(r.metrics['category/Receipt/overall']).toBe(0.5);
    expect(r.metrics['category/Receipt/r2t/accuracy']).toBe(0);
    expect(r.metrics['category/Receipt/r2t/cer']).toBe(0);
    // Book has one R2T query answered by nothing: accuracy 0, CER 2/2 = 1; its T2R side rates 0.
    expect(r.metrics['category/Book/r2t/cer']).toBe(1);
    expect(r.metrics['category/Book/t2r/qsr@5']).toBe(0);
    expect(r.metrics['category/Book/overall']).toBe(0);
  });
});

describe('audit: ids, joins, duplicates, missing and null outputs (Decisions: Ids and joins)', () => {
  it('takes id / qid / question_id, else the 1-based line number, compared as strings', async () => {
    // Line 1 has qid "Q1", line 2 question_id 7, line 3 nothing → id "3".
    const a = r2t('A', { qid: 'Q1' });
    const b = r2t('B', { question_id: 7 });
    const c = r2t('C');
    // Prediction lines carry only ids (numbers where the query id is a number-like string).
    const r = await run([a, b, c], [{ qid: 'Q1', prediction: 'A' }, { id: 7, prediction: 'B' }, { question_id: 3, prediction: 'C' }]);
    expect(r.cases.map((x) => x.case_id)).toEqual(['Q1', '7', '3']);
    expect(r.metrics['r2t/accuracy']).toBe(1);
  });
  it('a line with an id joins by id only; one without joins by (image_path, question)', async () => {
    const a = r2t('A');
    const b = r2t('B');
    // Line 1's id is "1"; an id of "9" matches nothing, and does not fall back to image_path + question.
    // Line b has no id and joins by (image_path, question). Accuracy 1/2.
    const r = await run([a, b], [{ ...answer(a, 'A'), id: 9 }, answer(b, 'B')]);
    expect(r.counts).toMatchObject({ unknown_lines: 1, missing_predictions: 1 });
    expect(r.metrics['r2t/accuracy']).toBe(0.5);
  });
  it('first line wins, a null output field counts as absent', async () => {
    const a = r2t('A');
    // prediction null → the next present field, response "A".
    const r = await run([a], [{ ...a, prediction: null, response: 'A' }, answer(a, 'wrong')]);
    expect(r.metrics['r2t/accuracy']).toBe(1);
    expect(r.counts.duplicate_lines).toBe(1);
  });
});

describe('audit: coordinate space of a predictions file (Decisions: Coordinate space)', () => {
  // abs GT box [0, 0, 100, 100]; rel1000 GT box [0, 0, 500, 500]. A prediction [0, 0, 500, 500]
  // is a TP only when read in rel1000, and [0, 0, 100, 100] only in abs.
  const abs = t2r([[0, 0, 100, 100]]);
  const rel = { ...abs, bbox: [[0, 0, 500, 500]], GT: [{ bbox: [0, 0, 500, 500], text: 't' }] };
  const files = { 'TABench-rel1000.jsonl': jsonl([rel]) };
  const spaceOf = async (lines: Line[], name: string) => {
    const r = await run([abs], lines, {}, name, files);
    return r.metrics['t2r/tp'] === 1 ? (r.cases[0].detail?.coords as string) : `no match (${String(r.cases[0].detail?.coords)})`;
  };
  it('uses the first coord_type on the file\'s lines, even after lines without one', async () => {
    const p = answer(abs, '[0, 0, 500, 500]');
    // Line 1 has no coord_type; line 2 says rel1000 → rel1000 (name says abs, but coord_type comes first).
    expect(await spaceOf([{ ...p, question: 'unknown' }, { ...p, coord_type: 'rel1000' }], 'TABench-abs_with_predictions.jsonl')).toBe('rel1000');
  });
  it('else the file name, rel1000 before abs, else abs', async () => {
    expect(await spaceOf([answer(abs, '[0, 0, 500, 500]')], 'abs-vs-rel1000.jsonl')).toBe('rel1000');
    expect(await spaceOf([answer(abs, '[0, 0, 100, 100]')], 'TABench-abs_with_predictions.jsonl')).toBe('abs');
    expect(await spaceOf([answer(abs, '[0, 0, 100, 100]')], 'model.jsonl')).toBe('abs');
  });
});

describe('audit: T2R ground truth', () => {
  it('GT [] is a query without GT even when bbox lists boxes; a line with no GT field uses bbox', async () => {
    // Q1: GT [] → no GT box; the prediction is an FP. Q2: no GT field, bbox [[0,0,10,10]] → GT box, TP.
    const q1 = { ...t2r([[0, 0, 10, 10]]), GT: [] };
    const q2 = t2r([[0, 0, 10, 10]]);
    delete q2.GT;
    const r = await run([q1, q2], [answer(q1, '[0, 0, 10, 10]'), answer(q2, '[0, 0, 10, 10]')]);
    expect([r.metrics['t2r/tp'], r.metrics['t2r/fp'], r.metrics['t2r/fn']]).toEqual([1, 1, 0]);
  });
});

describe('audit: a run whose every output is null', () => {
  it('is scored as all missing (null counts as absent), not refused', async () => {
    // Q1 R2T GT "A", Q2 T2R one GT box; both outputs null → absent. R2T: "" vs "A" → wrong, CER 1/1.
    // T2R: no box → fn 1. missing_predictions 2 (no usable prediction line).
    const q1 = r2t('A');
    const q2 = t2r([[0, 0, 10, 10]]);
    const r = await run([q1, q2], [answer(q1, null), answer(q2, null)]);
    expect([r.metrics['r2t/accuracy'], r.metrics['r2t/cer'], r.metrics['t2r/fn'], r.metrics.overall]).toEqual([0, 1, 1, 0]);
    expect(r.counts.missing_predictions).toBe(2);
  });
});
