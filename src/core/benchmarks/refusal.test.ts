/**
 * A prediction input with no usable record is refused (InputError, no model added) in every
 * benchmark, naming the file and, when it looks like one, the benchmark it is for; the models
 * already loaded stay and still score. (The CLI side, exit 2 with one line: cli/refusal.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { exactMmocrJsonl, tinyLtb } from '../../../test/ltbTiny';
import { HAS_SHARED, shared } from '../../../test/shared';
import { MemorySource } from '../io/fileSource';
import { InputError, type BenchmarkId } from '../model';
import { BenchSession } from '../session';

const line = (o: unknown) => JSON.stringify(o) + '\n';
const TABENCH = line({ image_path: 'Receipt/r.jpeg', category: 'Receipt', task_type: 'R2T', question: 'What is the text at location [1, 2, 3, 4]?', bbox: [1, 2, 3, 4], coord_type: 'abs', prediction: 'SAFEWAY' });
const CHRONICLES = line({ image_path: 'images/楷书/1.jpg', font_type: '楷书', infer_results: { 字体分类: { answer: '楷书', extract: { category: '楷书' } } } });
const GANSU = line({ image_path: 'pages/page_003.png', response: '[[117, 298, 581, 642]]' });
const PULSE = line({ sample_id: 'sel-0001', selected_items: [{ page: 1, bbox: [0.1, 0.1, 0.2, 0.1, 0.2, 0.2, 0.1, 0.2], content: 'No' }] });

interface Refusal {
  name: string;
  files: Record<string, string>;
  /** '' = the folder. */
  path: string;
  message: RegExp;
}

/** Every refusal class, on the tiny LTB dataset. */
const LTB_REFUSALS: Refusal[] = [
  { name: 'every line malformed', files: { 'm.jsonl': '{not json\nstill not\n' }, path: 'm.jsonl', message: /^m\.jsonl: no prediction lines \(2 malformed\)$/ },
  {
    name: 'every record unusable (valid JSON, no polygons)',
    files: { 'm.jsonl': line({ img_path: 'img_1.jpg', boxes: [] }) + line({ img_path: 'img_2.jpg' }) },
    path: 'm.jsonl',
    message: /^Not LTB predictions: m\.jsonl is a gansulishuzhi run .* — nothing to score — no record names an image of the dataset \(2 malformed record\(s\); first: m\.jsonl: line 1: no det_polygons/,
  },
  { name: 'an empty results.jsonl', files: { 'results.jsonl': '' }, path: 'results.jsonl', message: /^results\.jsonl: no prediction lines$/ },
  { name: 'a TABench predictions file', files: { 'qwen.jsonl': TABENCH }, path: 'qwen.jsonl', message: /^Not LTB predictions: qwen\.jsonl is a TABench predictions file — nothing to score — .*qwen\.jsonl: line 1/ },
  { name: 'a Chronicles-OCR results file', files: { 'results.jsonl': CHRONICLES }, path: 'results.jsonl', message: /^Not LTB predictions: results\.jsonl is a Chronicles-OCR results file \(infer_results\) — nothing to score — / },
  { name: 'a gansulishuzhi run', files: { 'glm.jsonl': GANSU }, path: 'glm.jsonl', message: /^Not LTB predictions: glm\.jsonl is a gansulishuzhi run \(figure boxes per page\) — nothing to score — / },
  { name: 'a PulseBench-Select file', files: { 'p.jsonl': PULSE }, path: 'p.jsonl', message: /^Not LTB predictions: p\.jsonl is a PulseBench-Select predictions file \(sample_id lines\) — nothing to score — / },
  {
    name: 'PaddleOCR lines for images of another dataset',
    files: { 'system_results.txt': 'other_1.jpg\t[{"transcription": "a", "points": [[0, 0], [9, 0], [9, 9], [0, 9]]}]\n' },
    path: 'system_results.txt',
    message: /^prediction system_results\.txt: nothing to score — no record names an image of the dataset \(1 record\(s\) for images not in the dataset; first: .*other_1\.jpg is not an image of the dataset/,
  },
  { name: 'an ICDAR submission for other images', files: { 'res_img_99.txt': '0,0,9,0,9,9,0,9,0.9\n' }, path: '', message: /^prediction sub: nothing to score — .*img_99 is not an image of the dataset/ },
  {
    // mmocr 1.0.0rc base_mmocr_inferencer.py postprocess: result_dict['predictions'] = [pred2dict(p)]
    // dumped to pred_out_file before anything else is added: polygons and scores, no image name.
    name: 'MMOCR 1.0.0rc pred_out_file (no image names)',
    files: { 'preds.json': JSON.stringify({ predictions: [{ polygons: [[0, 0, 9, 0, 9, 9, 0, 9]], scores: [0.9] }] }) },
    path: 'preds.json',
    message: /^preds\.json: \{predictions: \[\.\.\.\]\} without image names .* re-run the inferencer with save_pred=True/,
  },
  {
    name: 'the LTB ground truth given as predictions',
    files: { 'challenging_norm.json': line({ metainfo: { task_name: 'textdet' }, data_list: [{ img_path: 'img_1.jpg', instances: [] }] }) },
    path: 'challenging_norm.json',
    message: /^Not predictions: challenging_norm\.json is LTB ground truth \(an MMOCR textdet annotation file\) — not an LTB prediction file /,
  },
];

describe('LTB refuses a prediction input with no usable record', () => {
  it.each(LTB_REFUSALS.map((r) => [r.name, r] as const))('%s: InputError naming the file, no model added, the loaded model kept', async (_n, r) => {
    const session = await BenchSession.open(tinyLtb());
    await session.addPredictions({ source: new MemorySource('good', { 'good.jsonl': exactMmocrJsonl() }), path: 'good.jsonl', name: 'good' });
    const err = await session.addPredictions({ source: new MemorySource('sub', r.files), path: r.path, name: r.path ? r.path.replace(/\..*$/, '') : 'sub' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(r.message);
    expect((err as Error).message).not.toContain('\n');
    // Nothing else of the run is lost: the model loaded before still scores exactly.
    expect(session.modelNames).toEqual(['good']);
    const [good] = await session.score(session.resolveProtocol(undefined, {}));
    expect(good.metrics['norm/hmean']).toBe(1);
  });

  it('a file with some usable records is still scored, its bad lines counted and listed', async () => {
    const session = await BenchSession.open(tinyLtb());
    const text = exactMmocrJsonl() + '{broken\n' + line({ img_path: 'img_1.jpg' });
    await session.addPredictions({ source: new MemorySource('p', { 'half.jsonl': text }), path: 'half.jsonl', name: 'half' });
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    expect(r.metrics['norm/hmean']).toBe(1);
    expect(r.counts.malformed_lines).toBe(2);
    expect(r.warnings).toContain('half.jsonl: line 4: not valid JSON');
  });

  it('an empty JSON object stays a model that detected nothing (specs audit), not a refusal', async () => {
    const session = await BenchSession.open(tinyLtb());
    await session.addPredictions({ source: new MemorySource('p', { 'none.json': '{}' }), path: 'none.json', name: 'none' });
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    expect([r.metrics['norm/pred'], r.metrics['norm/hmean']]).toEqual([0, 0]);
  });
});

/** Each other benchmark, given an LTB detector's file and an empty file. */
const OTHERS: [BenchmarkId, string, string][] = [
  ['tabench', 'tabench-mini', 'TABench'],
  ['chronicles', 'chronicles-mini', 'Chronicles-OCR'],
  ['gansulishuzhi', 'gansulishuzhi-mini', 'gansulishuzhi'],
  ['pulsebench-select', 'pulsebench-select-mini', 'PulseBench-Select'],
];

describe.skipIf(!HAS_SHARED)('every benchmark refuses another benchmark\'s file and an empty one, naming them', () => {
  it.each(OTHERS)('%s', async (id, dir, title) => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', dir)), id);
    const ltb = session.addPredictions({ source: new MemorySource('p', { 'dbnet.jsonl': exactMmocrJsonl() }), path: 'dbnet.jsonl', name: 'dbnet' });
    await expect(ltb).rejects.toBeInstanceOf(InputError);
    await expect(session.addPredictions({ source: new MemorySource('p', { 'dbnet.jsonl': exactMmocrJsonl() }), path: 'dbnet.jsonl', name: 'dbnet' })).rejects.toThrow(
      new RegExp(`^Not ${title} predictions: dbnet\\.jsonl is an LTB / MMOCR text-detection file — `),
    );
    await expect(session.addPredictions({ source: new MemorySource('p', { 'results.jsonl': '' }), path: 'results.jsonl', name: 'empty' })).rejects.toThrow(/results\.jsonl/);
    expect(session.modelNames).toEqual([]);
  });
});
