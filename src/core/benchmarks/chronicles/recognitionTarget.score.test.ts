/**
 * Where the recomputed Recognition target applies, on a small in-memory set: other tools' raw
 * answers (no extract, no target keys) with reextract=true, a JSON custom_id without
 * target_index, an index naming no GT character (the official no_gt), and GT corrections
 * (they do not move the red box the model was shown).
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { applyChroniclesCorrections } from './corrections';
import type { ChroniclesDataset } from './gt';
import { chroniclesAdapter } from './index';
import { pickTarget } from './recognitionTarget';

const GT = [
  {
    image_path: 'images/甲骨文/a.png',
    font_type: '甲骨文',
    annotation: '王占曰吉',
    width: 500,
    height: 640,
    spotting: [
      { bbox: [277, 89, 143, 195], modern_char: '王' },
      { bbox: [277, 292, 142, 183], modern_char: '占' },
      { bbox: [114, 90, 140, 182], modern_char: '[UNK]' },
      { bbox: [111, 299, 140, 183], modern_char: '吉' },
    ],
  },
];
const gtText = GT.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function scoreFile(file: string, text: string, options: Record<string, string> = {}): Promise<{ r: ModelResult; ds: ChroniclesDataset }> {
  const s = await BenchSession.open(new MemorySource('c', { 'data/Chronicles_OCR.jsonl': gtText }));
  await s.addPredictions({ source: new MemorySource('p', { [file]: text }), path: file, name: 'm' });
  const [r] = await s.score(s.resolveProtocol(undefined, options));
  return { r, ds: s.dataset as ChroniclesDataset };
}

async function target(): Promise<{ index: number; char: string }> {
  const ds = await chroniclesAdapter.loadDataset(new MemorySource('c', { 'data/Chronicles_OCR.jsonl': gtText }));
  return pickTarget(ds.rows[0].referring!);
}

const recCase = (r: ModelResult) => r.cases.find((c) => c.task === 'recognition')!;

describe('the recomputed Recognition target', () => {
  it('never picks an UNK character, and keeps its index in spotting', async () => {
    const t = await target();
    expect(['王', '占', '吉']).toContain(t.char);
    expect(GT[0].spotting[t.index].modern_char).toBe(t.char);
  });

  it("other tools' raw answers: 0 (no_extract) by default; with reextract=true judged against the recomputed target", async () => {
    const t = await target();
    const line = JSON.stringify({ image_path: 'images/甲骨文/a.png', infer_results: { 单字识别: { answer: `现代汉字：${t.char}` } } }) + '\n';
    const def = await scoreFile('results.jsonl', line);
    expect(recCase(def.r)).toMatchObject({ score: 0, errors: ['no_extract'] });
    const re = await scoreFile('results.jsonl', line, { reextract: 'true' });
    expect(recCase(re.r)).toMatchObject({ score: 1, errors: [] });
    expect(recCase(re.r).detail).toMatchObject({ gt_char: t.char, target_index: t.index, target_source: 'recomputed' });
    expect(re.r.warnings.join('\n')).toMatch(/^1 recognition answers carry no target character/m);
  });

  it('a JSON custom_id without target_index is recomputed; an index naming no GT character keeps the official no_gt', async () => {
    const t = await target();
    const batch = (cid: string, answer: string) =>
      JSON.stringify({ custom_id: cid, response: { status_code: 200, body: { choices: [{ message: { content: answer } }] } }, error: null }) + '\n';
    const json = await scoreFile('b.jsonl', batch(JSON.stringify({ image_path: 'images/甲骨文/a.png', task: 'recognition' }), `现代汉字：${t.char}`));
    expect(recCase(json.r)).toMatchObject({ score: 1 });
    // The row has 4 spotting items: index 9 names a target the GT does not have.
    const none = await scoreFile('b.jsonl', batch('images/甲骨文/a.png#recognition#9', `现代汉字：${t.char}`));
    expect(recCase(none.r)).toMatchObject({ score: 0, errors: ['no_gt'] });
    expect(recCase(none.r).detail).toMatchObject({ target_index: 9, target_source: null });
  });

  it('GT corrections do not move the target: the model was shown the box drawn from the GT as it was', async () => {
    const ds = await chroniclesAdapter.loadDataset(new MemorySource('c', { 'data/Chronicles_OCR.jsonl': gtText }));
    const before = pickTarget(ds.rows[0].referring!);
    // Delete GT character 0 (王) and rename character 1 (占).
    const fixed = applyChroniclesCorrections(ds, [
      { case_id: 'images/甲骨文/a.png#spotting', gt_id: 0, deleted: true },
      { case_id: 'images/甲骨文/a.png#spotting', gt_id: 1, text: '卜' },
    ] as Parameters<typeof applyChroniclesCorrections>[1]);
    expect(fixed.rows[0].chars.length).toBe(3);
    expect(pickTarget(fixed.rows[0].referring!)).toEqual(before);
  });
});
