/**
 * Model answers from VLM pipelines, read on the real-layout mini sets (Chronicles-OCR, TABench,
 * gansulishuzhi): each output format below is built here from its public description (OpenAI /
 * vLLM batch output, Anthropic batch results, Qwen2-VL grounding tokens), answering exactly the
 * GT, and must score perfectly; each refusal and warning class is asserted by its message, with
 * the rest of the run intact. The CLI runs for one format and one refusal.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, REPO_ROOT, shared } from '../../../test/shared';
import { MemorySource, stem, type FileSource } from '../io/fileSource';
import { InputError, type ModelResult } from '../model';
import { BenchSession } from '../session';
import { readQuery, type Query } from './tabench/dataset';
import { chroniclesAdapter } from './chronicles/index';
import type { ChroniclesDataset } from './chronicles/gt';
import type { TaskId } from './chronicles/constants';
import { pickTarget } from './chronicles/recognitionTarget';

// ------------------------------------------------------------------ batch output line builders

/** An OpenAI Batch API output line (chat completions), as in the BatchRequestOutput schema. */
const openaiLine = (custom_id: string, content: string, i: number) => ({
  id: `batch_req_${i}`,
  custom_id,
  response: {
    status_code: 200,
    request_id: `req_${i}`,
    body: { id: `chatcmpl-${i}`, object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
  },
  error: null,
});
/** vLLM run_batch: the same shape, ids `vllm-…`. */
const vllmLine = (custom_id: string, content: string, i: number) => ({ ...openaiLine(custom_id, content, i), id: `vllm-${i}` });
/** vLLM's make_error_request_output: status 400, no body, the error a string. */
const vllmErrorLine = (custom_id: string, i: number) => ({
  id: `vllm-${i}`,
  custom_id,
  response: { status_code: 400, request_id: `vllm-batch-${i}` },
  error: 'This model\'s maximum context length is 32768 tokens',
});
/** Anthropic Message Batches results. */
const anthropicLine = (custom_id: string, content: string) => ({
  custom_id,
  result: { type: 'succeeded', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: content }], stop_reason: 'end_turn' } },
});
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const qwenTokens = (boxes: readonly (readonly number[])[]) =>
  boxes.map((b, i) => `<|object_ref_start|>item ${i}<|object_ref_end|><|box_start|>(${b[0]},${b[1]}),(${b[2]},${b[3]})<|box_end|>`).join(' ');

async function run(dataset: string, file: string, text: string, options: Record<string, string> = {}) {
  const session = await BenchSession.open(nodeFolderSource(shared('data', dataset)));
  await session.addPredictions({ source: new MemorySource('preds', { [file]: text }), path: file, name: stem(file) });
  const protocol = session.resolveProtocol(undefined, options);
  const [result] = await session.score(protocol);
  return { session, protocol, result, report: session.report(protocol, [result]) };
}

async function refusal(dataset: string, file: string, text: string): Promise<string> {
  const session = await BenchSession.open(nodeFolderSource(shared('data', dataset)));
  const err = await session.addPredictions({ source: new MemorySource('preds', { [file]: text }), path: file, name: stem(file) }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  expect(session.modelNames).toEqual([]);
  return (err as Error).message;
}

// ------------------------------------------------------------------ TABench

interface TabenchLine {
  raw: Record<string, unknown>;
  q: Query;
}
function tabenchLines(space: 'abs' | 'rel1000'): TabenchLine[] {
  const text = readFileSync(shared('data', 'tabench-mini', `TABench-${space}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const raw = JSON.parse(l) as Record<string, unknown>;
      return { raw, q: readQuery(raw, i + 1) as Query };
    });
}
/** The exact answer: the GT string for R2T, the GT boxes as JSON for T2R. */
const tabenchAnswer = (q: Query) => (q.task === 'R2T' ? q.gtText : JSON.stringify(q.gtBoxes));

function expectPerfectTabench(r: ModelResult) {
  expect(r.metrics['r2t/accuracy']).toBe(1);
  expect(r.metrics['t2r/f1']).toBe(1);
  expect(r.metrics.overall).toBe(1);
  expect(r.counts.missing_predictions).toBe(0);
  expect(r.counts.unparseable_outputs).toBe(0);
  expect(r.warnings).toEqual([]);
}

describe.skipIf(!HAS_SHARED)('TABench answers from VLM pipelines (shared/data/tabench-mini)', () => {
  let abs: TabenchLine[];
  let rel: TabenchLine[];
  beforeAll(() => {
    abs = tabenchLines('abs');
    rel = tabenchLines('rel1000');
  });

  const formats: [string, (abs: TabenchLine[], rel: TabenchLine[]) => string, string, Record<string, string>, 'abs' | 'rel1000'][] = [
    ['an OpenAI batch output, custom_id = the query id', (a) => jsonl(a.map((l, i) => openaiLine(l.q.id, tabenchAnswer(l.q), i))), 'batch_output.jsonl', {}, 'abs'],
    [
      'a vLLM run_batch output in rel1000, custom_id = "rel1000:<id>"',
      (_a, r) => jsonl(r.map((l, i) => vllmLine(`rel1000:${l.q.id}`, tabenchAnswer(l.q), i))),
      'results.jsonl',
      {},
      'rel1000',
    ],
    [
      'a batch output with custom_id = "<image_path>#<question>"',
      (a) => jsonl(a.map((l, i) => openaiLine(`${l.q.image_path}#${l.q.question}`, tabenchAnswer(l.q), i))),
      'out.jsonl',
      {},
      'abs',
    ],
    ['Anthropic Message Batches results', (a) => jsonl(a.map((l) => anthropicLine(`abs-${l.q.id}`, tabenchAnswer(l.q)))), 'msgbatch_results.jsonl', {}, 'abs'],
    [
      'Qwen2-VL grounding tokens in the card layout, with qwen2vl_boxes=true (abs, scaled by the image size)',
      (a, r) => jsonl(a.map((l, i) => ({ ...l.raw, prediction: l.q.task === 'R2T' ? l.q.gtText : qwenTokens(r[i].q.gtBoxes) }))),
      'TABench-abs_with_predictions.jsonl',
      { qwen2vl_boxes: 'true' },
      'abs',
    ],
  ];
  for (const [name, build, file, options, space] of formats) {
    it(`reads ${name} fully and scores an exact answer perfectly`, async () => {
      const { result, report } = await run('tabench-mini', file, build(abs, rel), options);
      expectPerfectTabench(result);
      expect(result.cases).toHaveLength(40);
      expect(report.protocol.options.coords).toBe(space);
    });
  }

  it('refuses a batch whose custom_id holds no query key, saying what it must hold', async () => {
    const msg = await refusal('tabench-mini', 'batch.jsonl', jsonl(abs.map((l, i) => openaiLine(`request-${i + 1}`, tabenchAnswer(l.q), i))));
    expect(msg).toContain('batch.jsonl: none of its 40 batch custom_id values names a query of TABench-abs.jsonl (first: "request-1")');
    expect(msg).toContain('custom_id must hold the query id');
  });

  it('refuses a batch numbered from 0, which would name the next query each', async () => {
    const msg = await refusal('tabench-mini', 'batch.jsonl', jsonl(abs.map((l, i) => openaiLine(String(i), tabenchAnswer(l.q), i))));
    expect(msg).toBe(
      'prediction batch.jsonl: line 1 has custom_id "0", but the queries of TABench-abs.jsonl are numbered by their 1-based line — these custom_id values look 0-based and would name the next query each; number them from 1',
    );
  });

  it('costs a failed request its line, with the reason, and scores the rest', async () => {
    const lines = abs.map((l, i) => (i === 3 ? vllmErrorLine(l.q.id, i) : vllmLine(l.q.id, tabenchAnswer(l.q), i)));
    const { result } = await run('tabench-mini', 'batch.jsonl', jsonl(lines));
    expect(result.warnings).toEqual([`line 4: custom_id "4": request failed (This model's maximum context length is 32768 tokens) — no answer for this query`]);
    expect(result.counts).toMatchObject({ failed_requests: 1, batch_lines: 40, missing_predictions: 1, malformed_lines: 0, unknown_lines: 0 });
    expect(result.metrics['r2t/accuracy']).toBe(19 / 20);
    expect(result.metrics['t2r/f1']).toBe(1);
  });

  it('says when most T2R answers are unparseable Qwen2-VL tokens, naming the option, and scores as the spec says', async () => {
    const text = jsonl(abs.map((l, i) => ({ ...l.raw, prediction: l.q.task === 'R2T' ? l.q.gtText : qwenTokens(rel[i].q.gtBoxes) })));
    const { result } = await run('tabench-mini', 'TABench-abs_with_predictions.jsonl', text);
    // One sentence, the box-dialect diagnosis (vlm-boxes.md): both numbers and the option that reads them.
    expect(result.warnings).toEqual([
      "box dialect: 20 of 20 answers as Qwen2-VL (and Qwen-VL) (<|box_start|>(x1,y1),(x2,y2)<|box_end|> tokens, 0–1000); t2r/f1 as the spec's parser reads them (official) 0; read as Qwen2-VL (and Qwen-VL) (<|box_start|>(x1,y1),(x2,y2)<|box_end|> tokens, 0–1000): 1 — --option boxes=qwen2vl reads them",
    ]);
    expect(result.boxDialect?.fit).toEqual({ choice: 'qwen2vl', options: { boxes: 'qwen2vl' }, option: 'boxes=qwen2vl', value: 1 });
    expect(result.metrics['t2r/f1']).toBe(0);
    expect(result.metrics['r2t/accuracy']).toBe(1);
    expect(result.counts.unparseable_outputs).toBe(20);
  });

  it('says rel1000 boxes given as absolute, with the counts and the fix, and the fix scores them', async () => {
    // The abs benchmark lines (coord_type abs), T2R answered with the rel1000 file's boxes.
    const text = jsonl(abs.filter((l) => l.q.task === 'T2R').map((l) => ({ ...l.raw, prediction: JSON.stringify(rel.find((r) => r.q.id === l.q.id)!.q.gtBoxes) })));
    const first = await run('tabench-mini', 'model.jsonl', text);
    expect(first.result.warnings).toHaveLength(1);
    expect(first.result.warnings[0]).toMatch(
      /^coordinate space: all 27 predicted T2R boxes \(read as abs by coord_type\) lie within 0–1000 although \d+ of their 20 cases are on images larger than 1000 px; read as 0–1000 of the image they reach 27 of 27 GT boxes at IoU ≥ 0\.5, read as pixels \(as scored\) \d+ — they look like rel1000 boxes given as absolute: score with --option coords=rel1000$/,
    );
    expect(first.result.counts).toMatchObject({ missing_predictions: 20, malformed_lines: 0, unknown_lines: 0 });
    const fixed = await run('tabench-mini', 'model.jsonl', text, { coords: 'rel1000' });
    expect(fixed.result.metrics['t2r/f1']).toBe(1);
    expect(fixed.result.warnings).toEqual([]);
  });

  it('says absolute boxes given as rel1000, with the counts and the fix', async () => {
    const text = jsonl(rel.filter((l) => l.q.task === 'T2R').map((l) => ({ ...l.raw, prediction: JSON.stringify(abs.find((a) => a.q.id === l.q.id)!.q.gtBoxes) })));
    const first = await run('tabench-mini', 'model.jsonl', text);
    expect(first.result.warnings).toHaveLength(1);
    expect(first.result.warnings[0]).toMatch(
      /^coordinate space: \d+ of 27 predicted T2R boxes \(by coord_type\) read as rel1000 have coordinates beyond 1000, which that space cannot hold; read as pixels they reach 27 of 27 GT boxes at IoU ≥ 0\.5, read as rel1000 \(as scored\) \d+ — they look like absolute boxes given as rel1000: score with --option coords=abs$/,
    );
    const fixed = await run('tabench-mini', 'model.jsonl', text, { coords: 'abs' });
    expect(fixed.result.metrics['t2r/f1']).toBe(1);
    expect(fixed.result.warnings).toEqual([]);
  });

  it('scores a batch output through the real CLI, and refuses a batch without query keys with exit 2 and one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-vlm-'));
    try {
      const good = join(dir, 'batch_output.jsonl');
      writeFileSync(good, jsonl(abs.map((l, i) => openaiLine(l.q.id, tabenchAnswer(l.q), i))));
      const out = join(dir, 'out');
      const cli = (pred: string) =>
        spawnSync('npx', ['tsx', 'cli/main.ts', 'score', '--dataset', shared('data', 'tabench-mini'), '--pred', pred, '--out', out], { cwd: REPO_ROOT, encoding: 'utf8' });
      const ok = cli(good);
      expect(ok.status, ok.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { models: Record<string, { metrics: Record<string, number>; warnings: string[] }> };
      expect(report.models.batch_output.metrics.overall).toBe(1);
      expect(report.models.batch_output.warnings).toEqual([]);
      expect(readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n')).toHaveLength(40);

      const bad = join(dir, 'bad_batch.jsonl');
      writeFileSync(bad, jsonl(abs.map((l, i) => openaiLine(`request-${i}`, tabenchAnswer(l.q), i))));
      const no = cli(bad);
      expect(no.status).toBe(2);
      expect(no.stderr.trim().split('\n')).toHaveLength(1);
      expect(no.stderr).toContain('custom_id must hold the query id');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ------------------------------------------------------------------ gansulishuzhi

interface ManifestPage {
  id: string;
  image_path: string;
  image_size_px: [number, number];
  gt_bboxes: number[][];
}
const toRel1000 = (p: ManifestPage) => p.gt_bboxes.map((b) => [b[0], b[1], b[2], b[3]].map((v, k) => Math.round((v * 1000) / p.image_size_px[k % 2])));

function expectPerfectGansu(r: ModelResult, t = 'iou0.7') {
  expect(r.metrics[`${t}/f1`]).toBe(1);
  expect(r.metrics[`${t}/precision`]).toBe(1);
  expect(r.counts).toMatchObject({ missing_pages: 0, malformed_lines: 0, unknown_lines: 0 });
  expect(r.warnings).toEqual([]);
}

describe.skipIf(!HAS_SHARED)('gansulishuzhi answers from VLM pipelines (shared/data/gansulishuzhi-mini)', () => {
  let pages: ManifestPage[];
  beforeAll(() => {
    pages = readFileSync(shared('data', 'gansulishuzhi-mini', 'manifest.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as ManifestPage);
  });

  it('reads an OpenAI batch output (custom_id = page id) fully and scores an exact answer perfectly', async () => {
    const { result } = await run('gansulishuzhi-mini', 'batch_output.jsonl', jsonl(pages.map((p, i) => openaiLine(p.id, JSON.stringify(p.gt_bboxes), i))));
    expectPerfectGansu(result);
    expect(result.counts.batch_lines).toBe(pages.length);
  });

  it('reads a vLLM batch whose custom_id is the image path', async () => {
    const { result } = await run('gansulishuzhi-mini', 'vllm.jsonl', jsonl(pages.map((p, i) => vllmLine(p.image_path, '```json\n' + JSON.stringify(p.gt_bboxes) + '\n```', i))));
    expectPerfectGansu(result);
  });

  it('reads Qwen2-VL grounding tokens with qwen2vl_boxes=true (0–1000, scaled by image_size_px)', async () => {
    const text = jsonl(pages.map((p) => ({ id: p.id, response: p.gt_bboxes.length ? qwenTokens(toRel1000(p)) : '[]' })));
    const { result } = await run('gansulishuzhi-mini', 'qwen2vl.jsonl', text, { qwen2vl_boxes: 'true' });
    expectPerfectGansu(result, 'iou0.5');
    const c = result.cases.find((x) => x.pred.length > 0)!;
    expect(c.detail?.parse_rule).toBe('qwen2vl-tokens');
  });

  it('says when most answers are unparseable Qwen2-VL tokens, naming the option', async () => {
    const text = jsonl(pages.map((p) => ({ id: p.id, response: p.gt_bboxes.length ? qwenTokens(toRel1000(p)) : '[]' })));
    const { result } = await run('gansulishuzhi-mini', 'qwen2vl.jsonl', text);
    const withFigures = pages.filter((p) => p.gt_bboxes.length).length;
    expect(result.warnings.at(-1)).toBe(
      `box dialect: ${withFigures} of ${pages.length} answers as Qwen2-VL (and Qwen-VL) (<|box_start|>(x1,y1),(x2,y2)<|box_end|> tokens, 0–1000); iou0.5/f1 as the spec's parser reads them (official) 0; read as Qwen2-VL (and Qwen-VL) (<|box_start|>(x1,y1),(x2,y2)<|box_end|> tokens, 0–1000): 1 — --option boxes=qwen2vl reads them`,
    );
    expect(result.metrics['iou0.5/tp']).toBe(0);
  });

  it('says rel1000 boxes given as pixels, with the counts and the fix, and the fix scores them', async () => {
    const text = jsonl(pages.map((p) => ({ id: p.id, pred_bboxes: toRel1000(p) })));
    const first = await run('gansulishuzhi-mini', 'model.jsonl', text);
    const nBoxes = pages.reduce((n, p) => n + p.gt_bboxes.length, 0);
    expect(first.result.warnings).toHaveLength(1);
    expect(first.result.warnings[0]).toMatch(
      new RegExp(
        `^coordinate space: all ${nBoxes} predicted boxes read as pixels lie within 0–1000 although \\d+ of their \\d+ cases are on images larger than 1000 px; read as 0–1000 of the image they reach ${nBoxes} of ${nBoxes} GT boxes at IoU ≥ 0\\.5, read as pixels \\(as scored\\) \\d+ — they look like rel1000 boxes given as absolute: score with --option coords=rel1000$`,
      ),
    );
    const fixed = await run('gansulishuzhi-mini', 'model.jsonl', text, { coords: 'rel1000' });
    expectPerfectGansu(fixed.result, 'iou0.5');
  });

  it('refuses a batch whose custom_id names no page, saying what it must hold', async () => {
    const msg = await refusal('gansulishuzhi-mini', 'batch.jsonl', jsonl(pages.map((p, i) => openaiLine(`task-${i}`, '[]', i))));
    expect(msg).toBe(
      `prediction batch.jsonl: none of its ${pages.length} batch custom_id values names a page of manifest.jsonl (first: "task-0"); custom_id must hold the page id (e.g. "page_003"), its image_path ("pages/page_003.png") or the image file name`,
    );
  });
});

describe('gansulishuzhi page sizes (an in-memory set)', () => {
  const manifest = [
    { id: 'page_001', image_path: 'pages/page_001.png', image_size_px: [0, 400], gt_bboxes: [[0, 0, 100, 100]] },
    { id: 'page_002', image_path: 'pages/page_002.png', image_size_px: [200, 400], gt_bboxes: [[0, 0, 100, 100]] },
  ];
  const source = (): FileSource => new MemorySource('g', { 'manifest.jsonl': jsonl(manifest), 'pages/page_002.png': new Uint8Array(8) });

  it('names a manifest line with an unusable page size, and never scores rel1000 boxes on it as pixels', async () => {
    const session = await BenchSession.open(source());
    expect(session.info.warnings).toEqual([
      'manifest.jsonl line 1: image_size_px [0, 400] is not [width, height] with two positive numbers: ignored (the page\'s size comes from its image header when readable)',
      '1 of 2 page images are not in the folder',
      'image not found: pages/page_001.png (its page is scored without a picture)',
      'image not decodable: pages/page_002.png: not a PNG, JPEG, GIF, BMP, WebP or TIFF image (its page is scored without a picture)',
    ]);
    const run = jsonl([
      { id: 'page_001', pred_bboxes: [[0, 0, 500, 250]] },
      { id: 'page_002', pred_bboxes: [[0, 0, 500, 250]] },
    ]);
    await session.addPredictions({ source: new MemorySource('p', { 'r.jsonl': run }), path: 'r.jsonl', name: 'r' });
    const protocol = session.resolveProtocol(undefined, { coords: 'rel1000' });
    const [r] = await session.score(protocol);
    expect(r.warnings).toEqual([
      'coordinate space: 1 pages have rel1000 boxes but no usable page size (image_size_px missing or not two positive numbers, and no readable image header): their boxes cannot be placed and count as predictions that match nothing (error no_page_size) — page_001',
    ]);
    // page_002 is scored in pixels ([0,0,100,100]: a TP); page_001's box counts as an FP.
    expect(r.metrics).toMatchObject({ 'iou0.5/tp': 1, 'iou0.5/fp': 1, 'iou0.5/fn': 1, pred: 2, gt: 2 });
    const c1 = r.cases.find((c) => c.case_id === 'page_001')!;
    expect(c1.errors).toEqual(['no_page_size']);
    expect(c1.pred).toMatchObject([{ state: 'fp', attrs: { box_rel1000: [0, 0, 500, 250] } }]);
    expect(c1.pred[0].shape).toBeUndefined();
  });
});

// ------------------------------------------------------------------ Chronicles-OCR

const isUnk = (c: string) => c === '' || /^(\[unk\]|<unk>|unk)$/i.test(c.trim()) || /^[□■▢◻◼]+$/.test(c.trim());

/** The exact answer for one (row, task), in the prompt formats the official extractor reads. */
function chroniclesAnswer(row: ChroniclesDataset['rows'][number], task: TaskId, target?: number): string {
  switch (task) {
    case 'classification':
      return `字体分类：${row.font_type}`;
    case 'parsing':
      return `提取文本：${String(row.raw.annotation)}`;
    case 'recognition':
      return `汉字：${row.chars.find((c) => c.index === target)!.char}`;
    case 'spotting': {
      const sx = 1000 / row.width;
      const sy = 1000 / row.height;
      return JSON.stringify(row.chars.map((c) => ({ bbox: [c.bbox[0] * sx, c.bbox[1] * sy, c.bbox[2] * sx, c.bbox[3] * sy].map(Math.round), char: c.char })));
    }
  }
}
const targetOf = (row: ChroniclesDataset['rows'][number]) => row.chars.find((c) => !isUnk(c.char))?.index;

describe.skipIf(!HAS_SHARED)('Chronicles-OCR answers from VLM pipelines (shared/data/chronicles-mini)', () => {
  let ds: ChroniclesDataset;
  beforeAll(async () => {
    ds = await chroniclesAdapter.loadDataset(nodeFolderSource(shared('data', 'chronicles-mini')));
  });
  const batch = (cid: (image: string, task: TaskId, target?: number) => string, line: (c: string, a: string, i: number) => unknown = openaiLine) => {
    const out: unknown[] = [];
    for (const row of ds.rows)
      for (const task of row.tasks) {
        const target = task === 'recognition' ? targetOf(row) : undefined;
        out.push(line(cid(row.image_path, task, target), chroniclesAnswer(row, task, target), out.length));
      }
    return out;
  };
  // Rows whose spotting GT is all UNK (or absent) cannot score 1 for anyone (TP = 0 → F1 0).
  const perfectKeys = (r: ModelResult) => Object.entries(r.metrics).filter(([k]) => !k.endsWith('/n') && !k.includes('detection'));

  const formats: [string, () => string][] = [
    ['an OpenAI batch, custom_id = "<image_path>#<task>" (recognition "#recognition#<index>")', () => jsonl(batch((im, t, x) => `${im}#${t}${x === undefined ? '' : `#${x}`}`))],
    ['a vLLM batch, custom_id = "<task key>|data/<image_path>"', () => jsonl(batch((im, t, x) => `${{ classification: '字体分类', parsing: '字符提取', spotting: '字符检测', recognition: '单字识别' }[t]}|data/${im}${x === undefined ? '' : `|${x}`}`, vllmLine))],
    ['Anthropic batch results, custom_id a JSON object', () => jsonl(batch((im, t, x) => JSON.stringify({ image_path: im, task: t, target_index: x }), (c, a) => anthropicLine(c, a)))],
  ];
  for (const [name, build] of formats) {
    it(`reads ${name} fully and scores an exact answer perfectly`, async () => {
      const { result } = await run('chronicles-mini', 'batch_output.jsonl', build());
      expect(result.warnings).toEqual([]);
      expect(result.counts).toMatchObject({ images: ds.rows.length, errors: 0, malformed_lines: 0, skipped: 0 });
      for (const [k, v] of perfectKeys(result)) expect(v, k).toBe(1);
    });
  }

  it('refuses a batch whose custom_id names no image and task, saying what it must hold', async () => {
    const msg = await refusal('chronicles-mini', 'batch.jsonl', jsonl(batch((_im, _t, _x) => 'request-1')));
    expect(msg).toMatch(/^prediction preds\/batch\.jsonl: none of its \d+ batch custom_id values names an image and task of the ground truth \(first: "request-1"\); custom_id must hold the image path and the task/);
  });

  it('judges recognition answers that name no target against the target infer.py picks (recomputed), and says so; recognition_target=stored gives the official 0', async () => {
    // The answers name the character infer.py's red box holds (recomputed: recognitionTarget.ts).
    const picked = (im: string) => pickTarget(ds.byPath.get(im)!.referring!).index;
    const lines = batch((im, t) => `${im}#${t}`).map((l, i) => {
      const o = l as { custom_id: string };
      if (!o.custom_id.endsWith('#recognition')) return l;
      const im = o.custom_id.slice(0, -'#recognition'.length);
      return openaiLine(o.custom_id, chroniclesAnswer(ds.byPath.get(im)!, 'recognition', picked(im)), i);
    });
    const { result } = await run('chronicles-mini', 'batch.jsonl', jsonl(lines));
    const nRec = ds.rows.filter((r) => r.tasks.includes('recognition')).length;
    expect(result.warnings).toEqual([
      `${nRec} recognition answers carry no target character (gt_char): judged against the target infer.py picks, recomputed from the GT (prompts/referring.py, seed 42 unless the record names one); --option recognition_target=stored scores them 0 (no_gt), as the official judge does (preds/batch.jsonl)`,
    ]);
    expect(result.metrics['all/recognition']).toBe(1);
    expect(result.metrics['all/classification']).toBe(1);
    const stored = await run('chronicles-mini', 'batch.jsonl', jsonl(lines), { recognition_target: 'stored' });
    expect(stored.result.metrics['all/recognition']).toBe(0);
  });

  it('says how many raw answers have no stored extract and that reextract=true judges them; the default stays the official 0', async () => {
    // A results.jsonl another tool wrote: the GT row plus raw answers, no extract.
    const lines = ds.rows.map((row) => {
      const infer: Record<string, unknown> = {};
      const keys = { classification: '字体分类', parsing: '字符提取', spotting: '字符检测', recognition: '单字识别' } as const;
      for (const task of row.tasks) {
        const target = task === 'recognition' ? targetOf(row) : undefined;
        const ch = row.chars.find((c) => c.index === target);
        infer[keys[task]] = { answer: chroniclesAnswer(row, task, target), ...(ch ? { gt_char: ch.char } : {}) };
      }
      return { ...row.raw, infer_results: infer };
    });
    const n = ds.rows.reduce((k, r) => k + r.tasks.length, 0);
    const def = await run('chronicles-mini', 'results.jsonl', jsonl(lines));
    expect(def.result.warnings).toEqual([
      `${n} of ${n} answers without a stored extract can be read by the official extractor now: the official default judges every answer without an extract 0 (no_extract); --option reextract=true judges them`,
    ]);
    expect(def.result.metrics['all/average']).toBe(0);
    expect(def.result.counts).toMatchObject({ no_extract: n, images: ds.rows.length });
    const re = await run('chronicles-mini', 'results.jsonl', jsonl(lines), { reextract: 'true' });
    expect(re.result.warnings).toEqual([]);
    for (const [k, v] of perfectKeys(re.result)) expect(v, k).toBe(1);
  });
});

// ------------------------------------------------------------------ sizes and spaces the numbers cannot settle

describe('TABench without image sizes (an in-memory set whose images are absent)', () => {
  const line = (space: 'abs' | 'rel1000') => ({
    image_path: 'Receipt/r.jpg',
    category: 'Receipt',
    task_type: 'T2R',
    question: 'Where is "TOTAL"?',
    bbox: [[100, 100, 300, 200]],
    GT: { bbox: [100, 100, 300, 200], text: 'TOTAL' },
    coord_type: space,
  });
  async function score(space: 'abs' | 'rel1000', prediction: string, options: Record<string, string> = {}) {
    const session = await BenchSession.open(new MemorySource('t', { [`TABench-${space}.jsonl`]: jsonl([line(space)]) }));
    await session.addPredictions({ source: new MemorySource('p', { 'm.jsonl': jsonl([{ ...line(space), prediction }]) }), path: 'm.jsonl', name: 'm' });
    const [r] = await session.score(session.resolveProtocol(undefined, options));
    return r;
  }

  it('scores rel1000 boxes in 0–1000 and says their images have no size (not drawn, not checked)', async () => {
    const r = await score('rel1000', '[[100, 100, 300, 200]]');
    expect(r.metrics['t2r/f1']).toBe(1);
    expect(r.warnings).toEqual([
      'coordinate space: 1 T2R answers are scored in rel1000 on images whose size is unknown or zero (image missing or header unreadable): their boxes are scored in 0–1000 but cannot be drawn or checked against the pixel reading',
    ]);
    expect(r.cases[0].pred[0].shape).toBeUndefined();
  });

  it('never places Qwen2-VL boxes in pixels without the image size: no answer, error no_image_size, said in the warnings', async () => {
    const r = await score('abs', '<|box_start|>(100,100),(300,200)<|box_end|>', { qwen2vl_boxes: 'true' });
    expect(r.metrics['t2r/f1']).toBe(0);
    expect(r.metrics['t2r/fn']).toBe(1);
    expect(r.cases[0].errors).toEqual(['no_image_size']);
    expect(r.warnings).toEqual([
      '1 T2R answers hold Qwen2-VL boxes (0–1000) on images whose size is unknown (missing or unreadable header): they cannot be placed in pixels and count as no answer (error no_image_size)',
    ]);
  });
});

describe.skipIf(!HAS_SHARED)('coordinate spaces the numbers cannot settle (shared mini sets)', () => {
  it('TABench: boxes all within 0–1000 on larger images where GT reaches past 1000 are said, the option offered with an "if"', async () => {
    const text = tabenchLines('abs')
      .filter((l) => l.q.task === 'T2R')
      .map((l) => ({ ...l.raw, prediction: '[[0, 0, 10, 10]]' }));
    const { result } = await run('tabench-mini', 'model.jsonl', jsonl(text));
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^coordinate space: all 20 predicted T2R boxes \(read as abs by coord_type\) lie within 0–1000 although \d+ of their 20 cases are on images larger than 1000 px; read as 0–1000 of the image they reach 0 of 27 GT boxes at IoU ≥ 0\.5, read as pixels \(as scored\) 0, and \d+ GT boxes reach past 1000 — if the model answered in 0–1000 space, score with --option coords=rel1000$/,
    );
    expect(result.metrics['t2r/tp']).toBe(0);
  });

  it('gansulishuzhi: names the lines\' own "coords" field when it, not the option, read rel1000 boxes as pixels', async () => {
    const pages = readFileSync(shared('data', 'gansulishuzhi-mini', 'manifest.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as ManifestPage);
    const text = jsonl(pages.map((p) => ({ id: p.id, pred_bboxes: toRel1000(p), coords: 'abs' })));
    const { result } = await run('gansulishuzhi-mini', 'model.jsonl', text, { coords: 'rel1000' });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      new RegExp(`they look like rel1000 boxes given as absolute: the lines' own "coords": "abs" decides for ${pages.length} pages — drop it and score with --option coords=rel1000$`),
    );
  });

  it('gansulishuzhi: costs a failed batch request its line, and says answers cut at the token limit', async () => {
    const pages = readFileSync(shared('data', 'gansulishuzhi-mini', 'manifest.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as ManifestPage);
    const lines = pages.map((p, i) => {
      if (i === 0) return vllmErrorLine(p.id, i);
      const l = openaiLine(p.id, JSON.stringify(p.gt_bboxes), i);
      if (i === 1) l.response.body.choices[0].finish_reason = 'length';
      return l;
    });
    const { result } = await run('gansulishuzhi-mini', 'batch.jsonl', jsonl(lines));
    expect(result.warnings).toEqual([
      `line 1: custom_id "${pages[0].id}": request failed (This model's maximum context length is 32768 tokens) — no answer for this page`,
      `1 of ${pages.length - 1} batch answers stopped at the token limit (finish_reason "length"): they may be cut short`,
    ]);
    expect(result.counts).toMatchObject({ missing_pages: 1, failed_requests: 1, truncated_answers: 1, batch_lines: pages.length, malformed_lines: 0 });
    expect(result.metrics['iou0.7/precision']).toBe(1);
    expect(result.metrics['iou0.7/fn']).toBe(pages[0].gt_bboxes.length);
  });
});
