/** Bad input costs the line it is on, with a warning naming file and line, and never crashes. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { InputError } from '../../model';
import { BenchSession } from '../../session';
import { chroniclesAdapter } from './index';
import { withoutCi } from '../../../../test/withoutCi';

const gtRows = [
  // 1: fine, xywh with modern_char
  { image_path: 'images/甲骨文/a.png', font_type: '甲骨文', annotation: '王占', width: 100, height: 100, spotting: [{ bbox: [10, 10, 20, 20], modern_char: '王' }, { bbox: [40, 10, 20, 20], modern_char: '占' }] },
  // 2: no width/height
  { image_path: 'images/金文/b.png', font_type: '金文', annotation: '唯王', spotting: [{ bbox: { x1: 1, y1: 1, x2: 5, y2: 5 }, text: '唯' }] },
  // 3: a bbox of the wrong arity, a non-string char, an empty box
  {
    image_path: 'images/篆书/c.png',
    font_type: '篆书',
    annotation: '天地',
    width: 200,
    height: 100,
    spotting: [{ bbox: [1, 2, 3], text: '天' }, { bbox: [10, 10, 50, 50], text: 7 }, { bbox: { x1: 9, y1: 9, x2: 9, y2: 20 }, text: '地' }],
  },
  { image_path: 'images/楷书/d.jpg', font_type: '楷书', annotation: '九成宫' },
];

function dataset(gtText: string): MemorySource {
  return new MemorySource('bad', { 'data/Chronicles_OCR.jsonl': gtText, 'data/images/甲骨文/a.png': new Uint8Array(4) });
}

const gtText = gtRows.map((r) => JSON.stringify(r)).join('\n') + '\n{not json\n';

const rec = (extract: unknown, extra: Record<string, unknown> = {}) => ({ thinking: '', answer: '', extract, ...extra });

function predLines(): string {
  const lines = [
    JSON.stringify({
      image_path: 'images/甲骨文/a.png',
      infer_results: {
        字体分类: rec({ category: '甲骨文' }),
        字符提取: rec('oops'), // a truthy non-object extract: the judge raises
        字符检测: rec({ items: [{ bbox: [100, 100, 300, 300], char: '王' }] }),
        单字识别: rec({ char: '王' }), // no gt_char
      },
    }),
    'this is not json',
    JSON.stringify({ image_path: 'images/隶书/zzz.jpg', infer_results: {} }),
    JSON.stringify({ image_path: 'images/金文/b.png', infer_results: { 字符检测: rec({ items: [{ bbox: [0, 0, 10, 10], char: '唯' }] }) } }),
    JSON.stringify({ image_path: 'images/篆书/c.png', infer_results: [1, 2] }),
    JSON.stringify({ image_path: 'images/楷书/d.jpg', infer_results: { 字体分类: rec(null), 字符提取: rec({ extracted_text: '九成宫' }) } }),
  ];
  return lines.join('\n') + '\n';
}

describe('bad input', () => {
  it('GT: malformed lines, missing width/height, wrong bbox arity, non-string chars are warned with their line', async () => {
    const ds = await chroniclesAdapter.loadDataset(dataset(gtText));
    expect(ds.rows).toHaveLength(4);
    expect(ds.info).toMatchObject({ images: 4, cases: 4 + 4 + 4 + 2 });
    const w = ds.info.warnings.join('\n');
    expect(w).toMatch(/line 5: not valid JSON \(data\/Chronicles_OCR\.jsonl\)/);
    expect(w).toMatch(/line 2: no width\/height/);
    expect(w).toMatch(/line 3: spotting\[0\] bbox has 3 numbers, not 4: dropped/);
    expect(w).toMatch(/line 3: spotting\[1\] char is 7, not a string: read as "7"/);
    expect(w).toMatch(/line 3: spotting\[2\] box .* is empty/);
    expect(ds.rows[2].chars.map((c) => c.char)).toEqual(['7']);
    expect(ds.rows[0].chars.map((c) => c.bbox)).toEqual([
      [10, 10, 30, 30],
      [40, 10, 60, 30],
    ]);
    expect(ds.rows[0].image_file).toBe('data/images/甲骨文/a.png');
    expect(ds.rows[1].image_file).toBeNull();
  });

  it('predictions: a bad line costs that line; rows are scored the way the official judge scores them', async () => {
    const src = dataset(gtText);
    src.set('infer_results/m/results.jsonl', predLines());
    const s = await BenchSession.open(src);
    expect(s.adapter.id).toBe('chronicles');
    expect(await s.addBundledPredictions()).toEqual(['m']);
    const [r] = await s.score(s.resolveProtocol());
    expect(r.counts).toMatchObject({ malformed_lines: 1, unknown_rows: 1, skipped: 2, cases: 4 + 4 + 2, missing_images: 1 });
    const w = r.warnings.join('\n');
    expect(w).toMatch(/line 2: not valid JSON \(m\/results\.jsonl\)/);
    expect(w).toMatch(/line 3: image_path "images\/隶书\/zzz\.jpg" is not in the ground truth/);
    expect(w).toMatch(/line 5: infer_results is not an object/);

    const byId = new Map(r.cases.map((c) => [c.case_id, c]));
    expect(byId.get('images/甲骨文/a.png#classification')).toMatchObject({ score: 1, outcome: 'pass' });
    expect(byId.get('images/甲骨文/a.png#parsing')).toMatchObject({ score: 0, outcome: 'fail', errors: ["judge_error: 'str' object has no attribute 'get'"] });
    // 王 found (its xywh box scaled to 0–1000), 占 missed: P 1, R 1/2.
    expect(byId.get('images/甲骨文/a.png#spotting')).toMatchObject({ score: 2 / 3, outcome: 'partial' });
    expect(byId.get('images/甲骨文/a.png#recognition')).toMatchObject({ score: 0, errors: ['no_gt'] });
    // b has no width/height: no GT boxes, the prediction is a false positive, scored 0 (in the mean).
    expect(byId.get('images/金文/b.png#spotting')).toMatchObject({ score: 0, errors: [] });
    expect(byId.get('images/金文/b.png#classification')).toMatchObject({ score: 0, errors: ['no_infer'] });
    expect(byId.get('images/楷书/d.jpg#classification')).toMatchObject({ score: 0, errors: ['no_extract'] });
    expect(byId.has('images/篆书/c.png#spotting')).toBe(false);

    expect(r.metrics['oracle_bone/spotting']).toBe(2 / 3);
    expect(r.metrics['oracle_bone/parsing']).toBe(0); // the judge error counts as 0 outside Spotting
    expect(r.metrics['bronze/spotting']).toBe(0);
    expect(r.metrics['regular/parsing']).toBe(1);
    expect(r.metrics['seal/average']).toBeUndefined();
  });

  it('a judge error in Spotting leaves the row out of the Spotting mean', async () => {
    const bad = gtRows.slice(0, 1).map((r) => ({ ...r, width: 'wide' }));
    const src = dataset(bad.map((r) => JSON.stringify(r)).join('\n'));
    src.set(
      'infer_results/m/results.jsonl',
      JSON.stringify({ image_path: 'images/甲骨文/a.png', infer_results: { 字符检测: rec({ items: [] }) } }) + '\n',
    );
    const s = await BenchSession.open(src);
    await s.addBundledPredictions();
    const [r] = await s.score(s.resolveProtocol());
    expect(s.info.warnings.join('\n')).toMatch(/line 1: width "wide" is not an integer/);
    const c = r.cases.find((x) => x.task === 'spotting')!;
    expect(c.errors[0]).toMatch(/^judge_error: invalid literal for int\(\)/);
    expect(c.detail!.in_mean).toBe(false);
    expect(r.metrics['oracle_bone/spotting']).toBeUndefined();
    expect(r.metrics['oracle_bone/classification']).toBe(0);
  });

  it('unusable input throws InputError naming the file', async () => {
    await expect(chroniclesAdapter.loadDataset(new MemorySource('x', { 'data/Chronicles_OCR.jsonl': 'nope\n' }))).rejects.toThrow(InputError);
    await expect(chroniclesAdapter.loadDataset(new MemorySource('x', { 'a.txt': '' }))).rejects.toThrow(/Chronicles_OCR\.jsonl/);
    const ds = await chroniclesAdapter.loadDataset(dataset(gtText));
    await expect(
      chroniclesAdapter.loadPredictions(ds, { source: new MemorySource('p', { 'notes.txt': 'x' }), path: '', name: 'p' }),
    ).rejects.toThrow(/no results\.jsonl/);
  });
});

describe('prediction inputs', () => {
  it('reads a folder of model folders, a model folder, or one results file', async () => {
    const ds = await chroniclesAdapter.loadDataset(dataset(gtText));
    const line = JSON.stringify({ image_path: 'images/楷书/d.jpg', infer_results: {} }) + '\n';
    const src = new MemorySource('preds', { 'infer_results/a/results.jsonl': line, 'infer_results/b/results.jsonl': line, 'other/x-model.jsonl': line });
    const names = async (path: string, name: string) =>
      (await chroniclesAdapter.loadPredictions(ds, { source: src, path, name })).map((p) => p.model);
    expect(await names('infer_results', 'infer_results')).toEqual(['a', 'b']);
    expect(await names('', 'preds')).toEqual(['a', 'b']);
    expect(await names('infer_results/a', 'a')).toEqual(['a']);
    expect(await names('infer_results/b/results.jsonl', 'results')).toEqual(['b']);
    expect(await names('other/x-model.jsonl', 'x-model')).toEqual(['x-model']);
  });
});

describe('result files with raw answers only (made by other tools)', () => {
  it('score no_extract by default and are judged after re-extraction with reextract=true', async () => {
    const src = dataset(gtText);
    const row = {
      image_path: 'images/楷书/d.jpg',
      infer_results: { 字体分类: { thinking: '', answer: '<think>方正</think>字体分类：楷书' }, 字符提取: { answer: '好的\n九成宫。' } },
    };
    src.set('infer_results/raw/results.jsonl', JSON.stringify(row) + '\n');
    const s = await BenchSession.open(src);
    await s.addBundledPredictions();
    const [stored] = await s.score(s.resolveProtocol());
    expect(stored.cases.map((c) => c.errors)).toEqual([['no_extract'], ['no_extract']]);
    expect(stored.metrics['regular/classification']).toBe(0);
    const p = s.resolveProtocol(undefined, { reextract: 'true' });
    expect(withoutCi(p)).toEqual({ name: 'official', options: { reextract: true } });
    const [re] = await s.score(p);
    expect(re.cases.map((c) => [c.score, c.detail!.judged, (c.detail!.extraction as { path: string }).path])).toEqual([
      [1, 'reextracted', 'prefix'],
      [1, 'reextracted', 'whole-answer'],
    ]);
    expect(re.counts.extract_differs).toBe(2);
    expect(() => s.resolveProtocol(undefined, { reextract: 'maybe' })).toThrow(InputError);
  });
});
