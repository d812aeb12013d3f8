/**
 * Independent audit of the PulseBench-Select rules (shared/specs/pulsebench-select.md): every
 * expected number below is derived by hand from the spec text (arithmetic in the comments),
 * never from the implementation. Data: the JSONL + image-folder layout, in memory.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';

type Item = Record<string, unknown>;

/** A box whose 4 points all sit at (x, y): its centroid is exactly (x, y) for dyadic x, y. */
const at = (x: number, y: number) => [x, y, x, y, x, y, x, y];

interface Sample {
  id: string;
  selected?: Item[];
  annotations?: Item[];
}

function gtRow(s: Sample): string {
  const gt: Record<string, unknown> = { page_count: 2, annotations: s.annotations ?? [] };
  if (s.selected) gt.selected_items = s.selected;
  return JSON.stringify({ sample_id: s.id, image: `images/${s.id}.png`, ground_truth: JSON.stringify(gt) });
}

async function score(samples: Sample[], predLines: unknown[], options: Record<string, string> = {}): Promise<ModelResult> {
  const src = new MemorySource('audit', { 'data/test.jsonl': samples.map(gtRow).join('\n') + '\n' });
  const session = await BenchSession.open(src);
  const preds = new MemorySource('preds', {
    'm.jsonl': predLines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
  });
  await session.addPredictions({ source: preds, path: 'm.jsonl', name: 'm' });
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** One GT item and one prediction on one sample: tp/fp/fn of that pair. */
async function pair(gt: Item, pred: Item, options: Record<string, string> = {}) {
  const r = await score([{ id: 's1', selected: [gt] }], [{ sample_id: 's1', selected_items: [pred] }], options);
  return { tp: r.metrics.tp, fp: r.metrics.fp, fn: r.metrics.fn };
}
const HIT = { tp: 1, fp: 0, fn: 0 };
const MISS = { tp: 0, fp: 1, fn: 1 };

describe('tokens: NFKC, toLowerCase, [\\p{L}\\p{N}_]+ runs as sets', () => {
  it('NFKC folds compatibility forms before comparing', async () => {
    // "ﬁle ２０２４" → NFKC "file 2024" → {file, 2024}; "FILE 2024" → {file, 2024}: overlap 2/2 = 1.
    expect(await pair({ content: 'ﬁle ２０２４' }, { content: 'FILE 2024' })).toEqual(HIT);
  });
  it('lower-case, not case folding: ß stays ß', async () => {
    // "Größe" → {größe}; "GROSSE" → {grosse}: 0 common / 1 = 0 < 0.8.
    expect(await pair({ content: 'Größe' }, { content: 'GROSSE' })).toEqual(MISS);
    // "GRÖSSE".toLowerCase() = "grösse" ≠ "größe" either.
    expect(await pair({ content: 'Größe' }, { content: 'GRÖSSE' })).toEqual(MISS);
  });
  it('non-ASCII letters and underscores are token characters', async () => {
    // "Été_2024" is one token {été_2024}; "été 2024" is {été, 2024}: 0 common → miss.
    expect(await pair({ content: 'Été_2024' }, { content: 'été 2024' })).toEqual(MISS);
    // "ÉTÉ_2024" lower-cases to "été_2024": 1/1.
    expect(await pair({ content: 'Été_2024' }, { content: 'ÉTÉ_2024' })).toEqual(HIT);
    // Punctuation splits: "[x] Yes!" → {x, yes}; "x yes" → {x, yes}.
    expect(await pair({ content: '[x] Yes!' }, { content: 'x yes' })).toEqual(HIT);
  });
  it('tokens are a set: repeats do not count', async () => {
    // GT "yes yes no" → {yes, no}; pred "no yes" → {no, yes}: 2 / max(2, 2) = 1.
    expect(await pair({ content: 'yes yes no' }, { content: 'no yes' })).toEqual(HIT);
  });
  it('overlap is |∩| / max(|T|), threshold 0.80 inclusive', async () => {
    // GT {a,b,c,d,e} (5), pred {a,b,c,d} (4): 4 / 5 = 0.8 ≥ 0.8 → match.
    expect(await pair({ content: 'a b c d e' }, { content: 'a b c d' })).toEqual(HIT);
    // GT {a..f} (6), pred {a,b,c,d}: 4 / 6 = 0.667 → no match.
    expect(await pair({ content: 'a b c d e f' }, { content: 'a b c d' })).toEqual(MISS);
    // The max is over both sides: GT {a,b,c,d}, pred {a,b,c,d,e,f}: 4 / 6 → no match.
    expect(await pair({ content: 'a b c d' }, { content: 'a b c d e f' })).toEqual(MISS);
  });
  it('two empty token sets overlap 0, or 1 with empty_overlap=1', async () => {
    // "" → {} and "—" → {}: default overlap 0 → miss; empty_overlap=1 → 1 ≥ 0.8 → hit.
    expect(await pair({ content: '' }, { content: '—' })).toEqual(MISS);
    expect(await pair({ content: '' }, { content: '—' }, { empty_overlap: '1' })).toEqual(HIT);
    // One side empty is never a match: 0 / max(0, 1) = 0, whatever the option.
    expect(await pair({ content: '' }, { content: 'yes' }, { empty_overlap: '1' })).toEqual(MISS);
  });
});

describe('centroid veto', () => {
  it('uses the Euclidean distance between the means of the 4 points, ≤ 0.35', async () => {
    // dx = dy = 0.25: each axis alone is ≤ 0.35 but √(0.0625 + 0.0625) = 0.3536 > 0.35 → veto.
    expect(await pair({ content: 'yes', bbox: at(0.25, 0.25) }, { content: 'yes', bbox: at(0.5, 0.5) })).toEqual(MISS);
    // dy = 0.3125 only: 0.3125 ≤ 0.35 → passes.
    expect(await pair({ content: 'yes', bbox: at(0.5, 0.5) }, { content: 'yes', bbox: at(0.5, 0.8125) })).toEqual(HIT);
    // The mean of 4 different points: GT square (0,0)-(0.5,0.5) has centroid (0.25, 0.25);
    // pred at (0.25, 0.625): distance 0.375 > 0.35 → veto; at (0.25, 0.5): 0.25 → pass.
    const square = [0, 0, 0.5, 0, 0.5, 0.5, 0, 0.5];
    expect(await pair({ content: 'yes', bbox: square }, { content: 'yes', bbox: at(0.25, 0.625) })).toEqual(MISS);
    expect(await pair({ content: 'yes', bbox: square }, { content: 'yes', bbox: at(0.25, 0.5) })).toEqual(HIT);
  });
  it('the boundary is inclusive (distance = centroid_max passes)', async () => {
    // distance exactly 0.25 with centroid_max=0.25 → passes; centroid_max=0.24 → veto.
    const g = { content: 'yes', bbox: at(0.25, 0.5) };
    const p = { content: 'yes', bbox: at(0.5, 0.5) };
    expect(await pair(g, p, { centroid_max: '0.25' })).toEqual(HIT);
    expect(await pair(g, p, { centroid_max: '0.24' })).toEqual(MISS);
  });
  it('centroid_max=-1 disables the veto', async () => {
    // distance √(0.75² + 0.75²) ≈ 1.06 > 0.35, but no veto → overlap 1 → hit.
    expect(await pair({ content: 'yes', bbox: at(0.125, 0.125) }, { content: 'yes', bbox: at(0.875, 0.875) }, { centroid_max: '-1' })).toEqual(HIT);
  });
  it('a missing box passes the veto by default, fails it with missing_box=fail, unless the veto is off', async () => {
    for (const missing of [[], null, undefined, [0.1, 0.1, 0.2, 0.2], ['0', '0', '0', '0', '0', '0', '0', '0']]) {
      const g: Item = { content: 'yes' };
      if (missing !== undefined) g.bbox = missing;
      const p = { content: 'yes', bbox: at(0.875, 0.875) };
      expect(await pair(g, p)).toEqual(HIT);
      expect(await pair(g, p, { missing_box: 'fail' })).toEqual(MISS);
      expect(await pair(g, p, { missing_box: 'fail', centroid_max: '-1' })).toEqual(HIT);
    }
    // Missing on the prediction side works the same way.
    expect(await pair({ content: 'yes', bbox: at(0.5, 0.5) }, { content: 'yes' }, { missing_box: 'fail' })).toEqual(MISS);
    expect(await pair({ content: 'yes', bbox: at(0.5, 0.5) }, { content: 'yes' })).toEqual(HIT);
  });
});

describe('matching order and tie-breaks', () => {
  it('highest overlap wins over a closer GT item', async () => {
    // pred {a,b,c,d,e} at x=0.5. GT0 {a,b,c,d} at 0.5 (overlap 4/5 = 0.8, distance 0);
    // GT1 {a,b,c,d,e} at x=0.75 (overlap 1, distance 0.25). Highest overlap → GT1.
    const r = await score(
      [{ id: 's1', selected: [{ content: 'a b c d', bbox: at(0.5, 0.5) }, { content: 'a b c d e', bbox: at(0.75, 0.5) }] }],
      [{ sample_id: 's1', selected_items: [{ content: 'a b c d e', bbox: at(0.5, 0.5) }] }],
    );
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred])).toEqual([[1, 0]]);
    expect(r.metrics).toMatchObject({ tp: 1, fp: 0, fn: 1 });
  });
  it('equal overlap: smaller centroid distance, then lower GT index', async () => {
    // GT0 "yes" x=0.125, GT1 "yes" x=0.375. pred0 x=0.375 → distances 0.25 / 0 → GT1.
    let r = await score(
      [{ id: 's1', selected: [{ content: 'yes', bbox: at(0.125, 0.5) }, { content: 'yes', bbox: at(0.375, 0.5) }] }],
      [{ sample_id: 's1', selected_items: [{ content: 'yes', bbox: at(0.375, 0.5) }] }],
    );
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred])).toEqual([[1, 0]]);
    // pred0 x=0.25: distances 0.125 / 0.125 (a tie) → lower GT index → GT0. pred1 x=0: GT1 is
    // 0.375 away > 0.35 → vetoed → FP. So TP 1, FP 1, FN 1 (greedy, not optimal).
    r = await score(
      [{ id: 's1', selected: [{ content: 'yes', bbox: at(0.125, 0.5) }, { content: 'yes', bbox: at(0.375, 0.5) }] }],
      [{ sample_id: 's1', selected_items: [{ content: 'yes', bbox: at(0.25, 0.5) }, { content: 'yes', bbox: at(0, 0.5) }] }],
    );
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred])).toEqual([[0, 0]]);
    expect(r.metrics).toMatchObject({ tp: 1, fp: 1, fn: 1 });
  });
  it('predictions are walked in file order (the first takes its best, the next gets what is left)', async () => {
    // GT0 "yes" x=0.125, GT1 "yes" x=0.375; pred0 at 0.375 takes GT1 (distance 0); pred1 at
    // 0.375 finds GT1 taken, GT0 0.25 away ≤ 0.35 → GT0. TP 2.
    const r = await score(
      [{ id: 's1', selected: [{ content: 'yes', bbox: at(0.125, 0.5) }, { content: 'yes', bbox: at(0.375, 0.5) }] }],
      [{ sample_id: 's1', selected_items: [{ content: 'yes', bbox: at(0.375, 0.5) }, { content: 'yes', bbox: at(0.375, 0.5) }] }],
    );
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });
  it('a missing distance sorts after any defined one; distances break ties with the veto off', async () => {
    // GT0 "yes" without box, GT1 "yes" at x=0.25; pred at x=0.5 (distance 0.25 to GT1, none to GT0).
    const gt = [{ content: 'yes' }, { content: 'yes', bbox: at(0.25, 0.5) }];
    let r = await score([{ id: 's1', selected: gt }], [{ sample_id: 's1', selected_items: [{ content: 'yes', bbox: at(0.5, 0.5) }] }]);
    expect(r.cases[0].matches.map((m) => m.gt)).toEqual([1]);
    // Veto off: GT0 x=0.125, GT1 x=0.875, pred x=0.875 → distance 0 beats 0.75 → GT1.
    r = await score(
      [{ id: 's1', selected: [{ content: 'yes', bbox: at(0.125, 0.5) }, { content: 'yes', bbox: at(0.875, 0.5) }] }],
      [{ sample_id: 's1', selected_items: [{ content: 'yes', bbox: at(0.875, 0.5) }] }],
      { centroid_max: '-1' },
    );
    expect(r.cases[0].matches.map((m) => m.gt)).toEqual([1]);
  });
  it('pages partition the matching; page "2" is 2, absent or null is 1', async () => {
    const gt = [{ content: 'yes', page: 2 }];
    expect((await score([{ id: 's1', selected: gt }], [{ sample_id: 's1', selected_items: [{ content: 'yes' }] }])).metrics).toMatchObject(MISS);
    expect((await score([{ id: 's1', selected: gt }], [{ sample_id: 's1', selected_items: [{ content: 'yes', page: '2' }] }])).metrics).toMatchObject(HIT);
    expect((await score([{ id: 's1', selected: [{ content: 'yes', page: null }] }], [{ sample_id: 's1', selected_items: [{ content: 'yes', page: 1 }] }])).metrics).toMatchObject(HIT);
  });
});

describe('fields', () => {
  it('selected is false for false, 0, "false", "no", "0"; absent means selected', async () => {
    // Five unselected predictions cost nothing: TP 0, FP 0, FN 1 (the GT item).
    const unselected = [false, 0, 'false', 'no', '0'].map((selected) => ({ content: 'yes', selected }));
    let r = await score([{ id: 's1', selected: [{ content: 'maybe' }] }], [{ sample_id: 's1', selected_items: unselected }]);
    expect(r.metrics).toMatchObject({ tp: 0, fp: 0, fn: 1 });
    // true, absent, 1, "true", "yes" are selected: 5 FPs (nothing matches "maybe").
    const sel = [{ selected: true }, {}, { selected: 1 }, { selected: 'true' }, { selected: 'yes' }].map((o) => ({ content: 'yes', ...o }));
    r = await score([{ id: 's1', selected: [{ content: 'maybe' }] }], [{ sample_id: 's1', selected_items: sel }]);
    expect(r.metrics).toMatchObject({ tp: 0, fp: 5, fn: 1 });
  });
  it('content when present and not null (an empty string stays empty), else text', async () => {
    expect(await pair({ text: 'Fever' }, { content: 'fever' })).toEqual(HIT); // GT table cell with text
    expect(await pair({ content: 'Fever' }, { content: null, text: 'fever' })).toEqual(HIT);
    expect(await pair({ content: 'Fever' }, { content: '', text: 'fever' })).toEqual(MISS);
    // Non-strings via their string form: 2024 → "2024".
    expect(await pair({ content: '2024' }, { content: 2024 })).toEqual(HIT);
  });
  it('GT without selected_items: the annotations with selected: true', async () => {
    // Annotations: "yes" selected, "no" unselected candidate, "maybe" without the flag.
    const annotations = [
      { content: 'yes', selected: true, selection_candidate: true },
      { content: 'no', selected: false, selection_candidate: true },
      { content: 'maybe' },
    ];
    const r = await score([{ id: 's1', annotations }], [{ sample_id: 's1', selected_items: [{ content: 'yes' }, { content: 'no' }] }]);
    // GT = ["yes"]: "yes" TP, "no" FP, nothing missed.
    expect(r.metrics).toMatchObject({ tp: 1, fp: 1, fn: 0 });
  });
});

describe('prediction files', () => {
  it('accepts selected_items / items / predictions lists and one item per line, concatenated in file order', async () => {
    const gt = [{ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'd' }, { content: 'e' }];
    const r = await score(
      [{ id: 's1', selected: gt }],
      [
        { sample_id: 's1', selected_items: [{ content: 'a' }] },
        { sample_id: 's1', items: [{ content: 'b' }] },
        { sample_id: 's1', predictions: [{ content: 'c' }] },
        { sample_id: 's1', content: 'd' },
        { sample_id: 's1', text: 'zzz' },
      ],
    );
    // a, b, c, d match (4 TP); "zzz" is an FP; "e" is missed.
    expect(r.metrics).toMatchObject({ tp: 4, fp: 1, fn: 1 });
    expect(r.cases[0].pred.map((p) => p.text)).toEqual(['a', 'b', 'c', 'd', 'zzz']);
  });
  it('sample ids compare as strings; unknown ids are ignored, not FPs; absent samples have no predictions', async () => {
    const r = await score(
      [
        { id: '7', selected: [{ content: 'yes' }] },
        { id: 's2', selected: [{ content: 'yes' }] },
      ],
      [{ sample_id: 7, selected_items: [{ content: 'yes' }] }, { sample_id: 'ghost', selected_items: [{ content: 'yes' }] }],
    );
    // "7" matched through the number 7 (TP 1); ghost ignored (no FP); s2 absent → FN 1.
    expect(r.metrics).toMatchObject({ tp: 1, fp: 0, fn: 1, samples: 2 });
    expect(r.counts).toMatchObject({ unknown_samples: 1, missing_samples: 1 });
    expect(r.warnings.join('\n')).toMatch(/unknown sample_id ghost/);
  });
  it('malformed lines cost that line, named', async () => {
    const r = await score(
      [{ id: 's1', selected: [{ content: 'yes' }] }],
      ['{nope', '[1,2]', JSON.stringify({ sample_id: 's1', selected_items: [{ content: 'yes' }] })],
    );
    expect(r.metrics).toMatchObject(HIT);
    expect(r.counts.malformed_lines).toBe(2);
    expect(r.warnings.join('\n')).toMatch(/line 1: not valid JSON/);
    expect(r.warnings.join('\n')).toMatch(/line 2: not a JSON object/);
  });
});

describe('aggregation', () => {
  it('micro pools counts; macro skips a sample where precision OR recall is undefined', async () => {
    // A: 1 GT, no prediction → recall 0/1 but precision undefined → skipped.
    // B: no GT, 1 prediction → FP; recall undefined → skipped.
    // C: GT {x, y}, preds {x, z} → TP 1, FP 1, FN 1; P = 1/2, R = 1/2.
    // D: GT {w}, pred {w} → P = R = 1.
    // Micro: TP 2, FP 2, FN 2 → P = R = 2/4 = 0.5, F1 = 0.5.
    // Macro: P = (0.5 + 1) / 2 = 0.75, R = 0.75; skipped 2.
    const r = await score(
      [
        { id: 'A', selected: [{ content: 'a' }] },
        { id: 'B', selected: [] },
        { id: 'C', selected: [{ content: 'x' }, { content: 'y' }] },
        { id: 'D', selected: [{ content: 'w' }] },
      ],
      [
        { sample_id: 'B', selected_items: [{ content: 'b' }] },
        { sample_id: 'C', selected_items: [{ content: 'x' }, { content: 'z' }] },
        { sample_id: 'D', selected_items: [{ content: 'w' }] },
      ],
    );
    expect(r.metrics).toEqual({
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
      tp: 2,
      fp: 2,
      fn: 2,
      macro_precision: 0.75,
      macro_recall: 0.75,
      macro_skipped_samples: 2,
      samples: 4,
    });
  });
  it('rates are 0 when undefined', async () => {
    // Nothing selected anywhere and nothing predicted: every rate has a zero denominator.
    const r = await score([{ id: 's1', selected: [] }], [{ sample_id: 's1', selected_items: [{ content: 'n', selected: false }] }]);
    expect(r.metrics).toEqual({
      precision: 0,
      recall: 0,
      f1: 0,
      tp: 0,
      fp: 0,
      fn: 0,
      macro_precision: 0,
      macro_recall: 0,
      macro_skipped_samples: 1,
      samples: 1,
    });
  });
});
