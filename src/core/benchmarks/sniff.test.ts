/** Which benchmark's file a prediction file is, from its first records. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../io/fileSource';
import { sniffPredictions, sniffText } from './sniff';

const line = (o: unknown) => JSON.stringify(o);

const CASES: [string, string, string, string | null][] = [
  // [what, file name, head of the file, benchmark]
  ['TABench predictions', 'run.jsonl', line({ image_path: 'Receipt/r.jpeg', task_type: 'R2T', question: 'What is the text at [1, 2, 3, 4]?', bbox: [1, 2, 3, 4], prediction: 'A' }), 'tabench'],
  ['Chronicles-OCR results', 'results.jsonl', line({ image_path: 'images/楷书/1.jpg', font_type: '楷书', infer_results: { 字体分类: { answer: '楷书' } } }), 'chronicles'],
  ['gansulishuzhi run', 'glm.jsonl', line({ image_path: 'pages/page_003.png', response: '[[1, 2, 3, 4]]' }), 'gansulishuzhi'],
  ['PulseBench-Select predictions', 'p.jsonl', line({ sample_id: 'sel-1', selected_items: [] }), 'pulsebench-select'],
  ['MMOCR 1.x JSONL', 'm.jsonl', line({ img_path: 'img_1.jpg', det_polygons: [[0, 0, 1, 0, 1, 1]], det_scores: [0.9] }), 'ltb'],
  ['MMOCR 1.x save_pred', 'img_1.json', line({ polygons: [[0, 0, 1, 0, 1, 1]], scores: [0.9] }), 'ltb'],
  ['MMOCR 0.x det+recog', 'out_img_1.json', JSON.stringify({ filename: 'img_1', result: [{ box: [0, 0, 1, 0, 1, 1], box_score: 0.9, text: 'a' }] }, null, 4), 'ltb'],
  ['LTB JSON object', 'o.json', line({ 'img_1.jpg': [[0, 0, 1, 0, 1, 1, 0.9]] }), 'ltb'],
  ['LTB JSON object cut by the head', 'o.json', '{"img_1.jpg": [[0, 0, 1, 0, 1, 1, 0.9], [2, 3', 'ltb'],
  ['PaddleOCR system_results', 'system_results.txt', 'img_1.jpg\t[{"transcription": "a", "points": [[0, 0], [1, 0], [1, 1]]}]', 'ltb'],
  ['ICDAR2015 res file', 'res_img_1.txt', '0,0,10,0,10,10,0,10,0.9\n', 'ltb'],
  ['LTB ground truth', 'challenging_norm.json', line({ metainfo: {}, data_list: [] }), 'ltb'],
  ['OpenAI batch output (any benchmark)', 'batch.jsonl', line({ id: 'batch_req_1', custom_id: '0', response: { status_code: 200, body: { choices: [{ message: { content: '[1, 2, 3, 4]' } }] } }, error: null }), null],
  ['a CSV', 'x.csv', 'a,b,c\n1,2,3\n', null],
  ['garbage', 'x.jsonl', '{not json\n', null],
];

describe('sniffText names the benchmark a prediction file is for', () => {
  it.each(CASES)('%s → %s', (_what, name, text, benchmark) => {
    expect(sniffText(text, name)?.benchmark ?? null).toBe(benchmark);
  });

  it('says a ground-truth file is not predictions', () => {
    expect(sniffText(line({ metainfo: {}, data_list: [] }), 'challenging_norm.json')).toMatchObject({ notPredictions: true });
    expect(sniffText(line({ image_path: 'a.jpg', font_type: '楷书', annotation: 'x' }), 'Chronicles_OCR.jsonl')).toMatchObject({ benchmark: 'chronicles', notPredictions: true });
    expect(sniffText(line({ image_path: 'a.jpg', task_type: 'T2R', question: 'Where is "A"?', bbox: [1, 2, 3, 4] }), 'TABench-abs.jsonl')).toMatchObject({ benchmark: 'tabench', notPredictions: true });
  });
});

describe('sniffPredictions reads the head of a file or a folder', () => {
  it('recognises an ICDAR submission folder and a Chronicles infer_results folder', async () => {
    const icdar = new MemorySource('sub', { 'res_img_1.txt': '0,0,1,0,1,1,0,1,0.9' });
    expect((await sniffPredictions({ source: icdar, path: '', name: 'sub' }))?.what).toMatch(/ICDAR2015/);
    const chron = new MemorySource('infer_results', { 'a/results.jsonl': line({ image_path: 'x', infer_results: {} }) + '\n' });
    expect((await sniffPredictions({ source: chron, path: '', name: 'infer_results' }))?.benchmark).toBe('chronicles');
  });

  it('reads only the first 64 KiB of a big file', async () => {
    const first = line({ sample_id: 's', selected_items: [] });
    const big = new TextEncoder().encode(first + '\n' + 'x'.repeat(1 << 20));
    let asked = 0;
    const src = new MemorySource('p', { 'big.jsonl': big });
    const ranged = { ...src, list: () => src.list(), read: src.read.bind(src), readRange: async (p: string, s: number, e: number) => ((asked = e - s), (await src.read(p)).subarray(s, e)) };
    expect((await sniffPredictions({ source: ranged, path: 'big.jsonl', name: 'big' }))?.benchmark).toBe('pulsebench-select');
    expect(asked).toBe(64 << 10);
  });
});
