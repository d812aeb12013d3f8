/**
 * What real text detectors write, read as LTB predictions. Each fixture is built here from the
 * tool's own source (quoted beside it), never from our data: a sample that predicts the GT
 * exactly must score hmean 1, every record read, nothing dropped.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { InputError, type ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { box, TINY_GT, tinyLtb } from '../../../../test/ltbTiny';

/** [[x, y], …] as PaddleOCR writes `points`. */
const pts = (flat: number[]) => flat.reduce<number[][]>((a, v, i) => (i % 2 ? (a[a.length - 1].push(v), a) : [...a, [v]]), []);
const bbox = (flat: number[]) => [flat[0], flat[1], flat[4], flat[5]];

const GT = TINY_GT;
const STEMS = Object.keys(GT).map((n) => n.replace(/\.jpg$/, ''));
/** img_1 gets "2015" and "0": numbers that are words, in a file whose 9th fields are not all in [0, 1]. */
const WORDS = ['2015', '0', 'SALE', 'open'];
const gtSource = tinyLtb;

/** Each image's polygons with a word and a confidence, in GT order. */
function each<T>(fn: (stem: string, polys: number[][], words: string[], scores: number[]) => T): T[] {
  let w = 0;
  return Object.entries(GT).map(([name, polys]) => {
    const words = polys.map(() => WORDS[w++ % WORDS.length]);
    return fn(name.replace(/\.jpg$/, ''), polys, words, polys.map((_, k) => 0.9 - 0.1 * k));
  });
}

interface Fixture {
  name: string;
  files: Record<string, string>;
  /** '' = the folder. */
  path: string;
  /** A sentence the reader must say about how it read the file. */
  says?: RegExp;
}

const FIXTURES: Fixture[] = [
  {
    // mmocr/apis/inferencers/textdet_inferencer.py pred2dict: result['polygons'] (if present),
    // result['bboxes'] (if present), result['scores']; base_mmocr_inferencer.py postprocess with
    // save_pred dumps it to osp.join(out_dir, 'preds', osp.splitext(osp.basename(img_path))[0] + '.json').
    name: 'MMOCR 1.x TextDetInferencer(save_pred=True): <out_dir>/preds/<stem>.json {polygons, scores}',
    files: Object.fromEntries([
      ...each((stem, polys, _w, scores) => [`preds/${stem}.json`, JSON.stringify({ polygons: polys, scores })]),
      ['vis/img_1.jpg', 'not json'],
    ]),
    path: '',
  },
  {
    name: 'MMOCR 1.x TextDetInferencer, a box detector: preds/<stem>.json {bboxes, scores}',
    files: Object.fromEntries(each((stem, polys, _w, scores) => [`preds/${stem}.json`, JSON.stringify({ bboxes: polys.map(bbox), scores })])),
    path: '',
  },
  {
    // mmocr/apis/inferencers/mmocr_inferencer.py postprocess: rec_texts, rec_scores, det_polygons,
    // det_scores, dumped to preds/<stem>.json with ensure_ascii=False.
    name: 'MMOCR 1.x MMOCRInferencer (det + rec, save_pred): preds/<stem>.json {rec_texts, rec_scores, det_polygons, det_scores}',
    files: Object.fromEntries(
      each((stem, polys, words, scores) => [
        `preds/${stem}.json`,
        JSON.stringify({ rec_texts: words, rec_scores: scores, det_polygons: polys, det_scores: scores }),
      ]),
    ),
    path: '',
  },
  {
    // mmocr/utils/ocr.py (0.x) --export DIR: args.export = DIR / f'out_{Path(img).stem}.{export_format}';
    // a detector alone dumps model_inference's result, the head's dict(boundary_result=…,
    // filename=img_metas[0]['filename']) — ocr.py passes arrays, so filename is None.
    name: 'MMOCR 0.x ocr.py --export, detector only: out_<stem>.json {boundary_result: [[…, score]], filename: null}',
    files: Object.fromEntries(
      each((stem, polys, _w, scores) => [`out_${stem}.json`, JSON.stringify({ boundary_result: polys.map((p, k) => [...p, scores[k]]), filename: null }, null, 4)]),
    ),
    path: '',
  },
  {
    // ocr.py det_recog_kie_inference with --details: {filename: <stem>, result: [{box: [round(x) for
    // x in bbox[:-1]], box_score: float(bbox[-1]), text, text_score}]}.
    name: 'MMOCR 0.x ocr.py --export --details, det + recog: out_<stem>.json {filename, result: [{box, box_score, text, text_score}]}',
    files: Object.fromEntries(
      each((stem, polys, words, scores) => [
        `out_${stem}.json`,
        JSON.stringify({ filename: stem, result: polys.map((p, k) => ({ box: p, box_score: scores[k], text: words[k], text_score: 0.99 })) }, null, 4),
      ]),
    ),
    path: '',
  },
  {
    // PaddleOCR tools/infer_det.py: otstr = file + "\t" + json.dumps(dt_boxes_json), each
    // {"transcription": "", "points": box.tolist()}; `file` is the path as listed (here absolute,
    // one a Windows path), written to Global.save_res_path (predicts_db.txt by default).
    name: 'PaddleOCR tools/infer_det.py: predicts_db.txt, <image path>\\t[{transcription, points}]',
    files: {
      'predicts_db.txt': each((stem, polys) => {
        const dir = stem === 'img_2' ? 'C:\\data\\LTB\\images\\' : '/home/user/LTB/anno/hard/images/';
        return `${dir}${stem}.jpg\t${JSON.stringify(polys.map((p) => ({ transcription: '', points: pts(p) })))}`;
      }).join('\n') + '\n',
    },
    path: 'predicts_db.txt',
    says: /carry no confidence/,
  },
  {
    // PaddleOCR tools/infer/predict_system.py: os.path.basename(image_file) + "\t" + json.dumps(res,
    // ensure_ascii=False), res = [{"transcription": rec_res[i][0], "points": int32 points}], into
    // <draw_img_save_dir>/system_results.txt.
    name: 'PaddleOCR tools/infer/predict_system.py: system_results.txt, <image>\\t[{transcription, points}]',
    files: {
      'system_results.txt': each((stem, polys, words) => `${stem}.jpg\t${JSON.stringify(polys.map((p, k) => ({ transcription: words[k], points: pts(p) })))}`).join('\n') + '\n',
    },
    path: 'system_results.txt',
    says: /carry no confidence/,
  },
  {
    // PaddleOCR tools/infer/predict_det.py: f"{os.path.basename(image_file)}\t{json.dumps([x.tolist()
    // for x in dt_boxes])}\n" into det_results.txt.
    name: 'PaddleOCR tools/infer/predict_det.py: det_results.txt, <image>\\t[[[x, y], …], …]',
    files: { 'det_results.txt': each((stem, polys) => `${stem}.jpg\t${JSON.stringify(polys.map(pts))}`).join('\n') + '\n' },
    path: 'det_results.txt',
    says: /det_results\.txt: 4 box\(es\) carry no confidence/,
  },
  {
    // MindOCR tools/infer/text/predict_det.py save_det_res(include_score=True): basename + "\t" +
    // json.dumps(polys) + "\t" + json.dumps(scores) — the same file with a third column of scores.
    name: 'MindOCR det_results.txt with include_score: <image>\t[[[x, y], …]]\t[scores]',
    files: { 'det_results.txt': each((stem, polys, _w, scores) => `${stem}.jpg\t${JSON.stringify(polys.map(pts))}\t${JSON.stringify(scores)}`).join('\n') + '\n' },
    path: 'det_results.txt',
  },
  {
    // PaddleOCR 3.x TextDetection (docs/version3.x/module_usage/text_detection.md): res.print()
    // shows {'res': {'input_path', 'page_index', 'dt_polys': [[[x, y], …]], 'dt_scores'}};
    // res.save_to_json(dir) writes <stem>_res.json. input_path here is a temporary copy, so the
    // file name names the image.
    name: 'PaddleOCR 3.x TextDetection save_to_json: <stem>_res.json {res: {input_path, dt_polys, dt_scores}}',
    files: Object.fromEntries(
      each((stem, polys, _w, scores) => [
        `output/${stem}_res.json`,
        JSON.stringify({ res: { input_path: `/root/.paddlex/predict_input/${stem}-tmp.png`, page_index: null, dt_polys: polys.map(pts), dt_scores: scores } }),
      ]),
    ),
    path: '',
  },
  {
    // The OCR pipeline's result (PaddleOCR(...).predict → save_to_json): dt_polys without dt_scores.
    name: 'PaddleOCR 3.x OCR pipeline save_to_json: {res: {input_path, dt_polys, rec_texts, rec_scores}} (no detection score)',
    files: Object.fromEntries(
      each((stem, polys, words) => [`${stem}_res.json`, JSON.stringify({ res: { input_path: `${stem}.jpg`, dt_polys: polys.map(pts), rec_texts: words, rec_scores: words.map(() => 0.99) } })]),
    ),
    path: '',
    says: /^img_1_res\.json, img_2_res\.json, img_10_res\.json: 4 box\(es\) carry no confidence/,
  },
  {
    // ICDAR2015 Task 4.1 with confidences: x1,y1,…,x4,y4,confidence.
    name: 'ICDAR2015 res_img_<n>.txt: x1,…,y4,confidence',
    files: Object.fromEntries(each((stem, polys, _w, scores) => [`res_${stem}.txt`, polys.map((p, k) => `${p.join(',')},${scores[k]}`).join('\r\n')])),
    path: '',
  },
  {
    name: 'ICDAR2015 res_img_<n>.txt: x1,…,y4 (no confidence)',
    files: Object.fromEntries(each((stem, polys) => [`res_${stem}.txt`, polys.map((p) => p.join(',')).join('\n')])),
    path: '',
    says: /no confidence: every polygon scores 1\.0/,
  },
  {
    // End-to-end (Task 4.4): x1,…,y4,transcription, transcriptions "2015" and "0" being numbers.
    name: 'ICDAR2015 end-to-end res_img_<n>.txt: x1,…,y4,transcription (numeric words "2015", "0")',
    files: Object.fromEntries(each((stem, polys, words) => [`res_${stem}.txt`, polys.map((p, k) => `${p.join(',')},${words[k]}`).join('\n')])),
    path: '',
    says: /^3 res file\(s\), field 9 read as a transcription, not a confidence \("2015" on line 1 of res_img_1\.txt is not a number in \[0, 1\]\): every polygon scores 1\.0: res_img_1\.txt, res_img_2\.txt, res_img_10\.txt$/,
  },
  {
    name: 'ICDAR2015 end-to-end res_img_<n>.txt: x1,…,y4,confidence,transcription (with commas)',
    files: Object.fromEntries(each((stem, polys, words, scores) => [`res_${stem}.txt`, polys.map((p, k) => `${p.join(',')},${scores[k]},${words[k]},x`).join('\n')])),
    path: '',
    says: /field 9 is the confidence/,
  },
];

async function scoreFixture(f: Fixture): Promise<{ names: string[]; r: ModelResult }> {
  const session = await BenchSession.open(gtSource());
  const names = await session.addPredictions({ source: new MemorySource('fx', f.files), path: f.path, name: 'model' });
  const [r] = await session.score(session.resolveProtocol(undefined, {}));
  return { names, r };
}

describe('detector outputs read as LTB predictions', () => {
  it.each(FIXTURES.map((f) => [f.name, f] as const))('%s: one model, every record read, hmean 1', async (_n, f) => {
    const { names, r } = await scoreFixture(f);
    expect(names).toEqual(['model']);
    expect([r.metrics['norm/hmean'], r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred']]).toEqual([1, 4, 4, 4]);
    expect([r.counts.malformed_lines, r.counts.dropped_polygons, r.counts.unknown_images, r.counts.images_with_predictions]).toEqual([0, 0, 0, 3]);
    if (f.says) expect(r.warnings.some((w) => f.says!.test(w)), r.warnings.join('\n')).toBe(true);
    else expect(r.warnings).toEqual([]);
  });

  it('a folder of out_<stem>.json is one model even when none of its file stems is an image name', async () => {
    // The `out_` prefix is ocr.py's: stripped only when the rest names an image, so out_img_1.json → img_1.
    const f = FIXTURES.find((x) => x.name.startsWith('MMOCR 0.x ocr.py --export, detector'))!;
    expect(Object.keys(f.files).sort()).toEqual(STEMS.map((s) => `out_${s}.json`).sort());
    const { names } = await scoreFixture(f);
    expect(names).toHaveLength(1);
  });

  it('ocr.py exported without --details (texts, no boxes) costs each file with the reason, and nothing usable is refused', async () => {
    const files = Object.fromEntries(each((stem, _p, words) => [`out_${stem}.json`, JSON.stringify({ filename: stem, text: words })]));
    const session = await BenchSession.open(gtSource());
    const add = session.addPredictions({ source: new MemorySource('fx', files), path: '', name: 'ocr' });
    await expect(add).rejects.toBeInstanceOf(InputError);
    await expect(session.addPredictions({ source: new MemorySource('fx', files), path: '', name: 'ocr' })).rejects.toThrow(
      /prediction fx: nothing to score — .*3 malformed record\(s\).*MMOCR ocr\.py exports boxes only with --details/,
    );
    expect(session.modelNames).toEqual([]);
  });
});

describe('ICDAR2015 res files: the 9th and 10th fields are decided per file', () => {
  const icdar = async (files: Record<string, string>) => {
    const session = await BenchSession.open(gtSource());
    await session.addPredictions({ source: new MemorySource('sub', files), path: '', name: 'm' });
    return (await session.score(session.resolveProtocol(undefined, {})))[0];
  };
  const [a, b] = GT['img_1.jpg'];

  it('a confidence "nan" costs its line with a warning and never becomes 1.0', async () => {
    // Field 9 of the other line is 0.9: a confidence file. The nan line is dropped, so b is missed:
    // hits 1 of gt 4 (img_2 / img_10 have no file), pred 1 → P 1, R 0.25.
    const r = await icdar({ 'res_img_1.txt': `${a.join(',')},0.9\n${b.join(',')},nan\n` });
    expect([r.metrics['norm/hits'], r.metrics['norm/pred'], r.counts.malformed_lines]).toEqual([1, 1, 1]);
    expect(r.warnings).toContain('res_img_1.txt: line 2: confidence "nan" is not a finite number (read as x1,…,y4,confidence; dropped)');
  });

  it('with ten fields the 9th must be a confidence: a word there costs the line', async () => {
    const r = await icdar({ 'res_img_1.txt': `${a.join(',')},0.8,SALE\n${b.join(',')},high,2015\n` });
    expect([r.metrics['norm/hits'], r.metrics['norm/pred'], r.counts.malformed_lines]).toEqual([1, 1, 1]);
    expect(r.warnings).toContain('res_img_1.txt: line 2: confidence "high" is not a finite number (read as x1,…,y4,confidence,transcription; dropped)');
  });

  it('a 9th field of 0 / 1 on every line is a confidence; one "2015" makes the whole file transcriptions', async () => {
    // All in [0, 1]: confidences. b at 0 falls under every threshold → hits 1, pred 1.
    let r = await icdar({ 'res_img_1.txt': `${a.join(',')},1\n${b.join(',')},0\n` });
    expect([r.metrics['norm/hits'], r.metrics['norm/pred']]).toEqual([1, 1]);
    // One "2015": the file's 9th fields are words, both polygons score 1.0 → hits 2, pred 2.
    r = await icdar({ 'res_img_1.txt': `${a.join(',')},2015\n${b.join(',')},0\n` });
    expect([r.metrics['norm/hits'], r.metrics['norm/pred']]).toEqual([2, 2]);
    expect(r.warnings[0]).toBe('1 res file(s), field 9 read as a transcription, not a confidence ("2015" on line 1 of res_img_1.txt is not a number in [0, 1]): every polygon scores 1.0: res_img_1.txt');
  });

  it('each file is decided on its own', async () => {
    // img_1: confidences (b at 0.1 is under the 0.3 pre-filter); img_2: words → score 1.0.
    const [c] = GT['img_2.jpg'];
    const r = await icdar({ 'res_img_1.txt': `${a.join(',')},0.9\n${b.join(',')},0.1\n`, 'res_img_2.txt': `${c.join(',')},0\n${box(150, 50, 200, 90).join(',')},WORD\n` });
    // hits a + c = 2; pred a + c + the FP on img_2 = 3.
    expect([r.metrics['norm/hits'], r.metrics['norm/pred']]).toEqual([2, 3]);
    expect(r.warnings.filter((w) => w.includes('res file(s)'))).toEqual([
      '1 res file(s), field 9 read as a transcription, not a confidence ("WORD" on line 2 of res_img_2.txt is not a number in [0, 1]): every polygon scores 1.0: res_img_2.txt',
      // The two readings in one submission are said, with the option that takes one (icdarNinth.ts).
      'the 9th field was read as a confidence in 1 res file(s) and as a transcription in 1 (by the file rule: a confidence only when every nine-field line has a number in [0, 1]); the files read as confidences are ranked by them, the others score 1.0. --option icdar_ninth=confidence or =transcription reads every file one way',
    ]);
  });

  it('polygons of more than four points keep the x1,…,xn,yn[,score] reading', async () => {
    const hexa = [10, 10, 60, 10, 110, 10, 110, 40, 60, 40, 10, 40];
    const r = await icdar({ 'res_img_1.txt': `${hexa.join(',')},0.9\n${b.join(',')},0.8\n` });
    expect([r.metrics['norm/hits'], r.metrics['norm/pred']]).toEqual([2, 2]);
    expect(r.warnings.some((w) => w.includes('polygons of more than 4 points'))).toBe(true);
  });
});
