/**
 * case_analysis.jsonl written by the worker as a Blob, reviews merged in the worker, must be byte
 * for byte the file the previous path gave: the worker's lines joined into one string, split in
 * the page and the stored reviews spliced in by `mergeQaIntoLines` (kept below verbatim as the
 * oracle). The unreviewed lines of the oracle come from BenchSession.eachCaseLine — the CLI's
 * writer — on the same dataset and predictions, scored independently of the worker.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../cli/nodeSource';
import { fileListing, folderListing } from '../../test/listings';
import { HAS_SHARED, shared } from '../../test/shared';
import { buildQa, serializeQa } from '../app/qa/caseIo';
import { exportQa } from '../app/qa/qaIo';
import { makeDemo } from '../core/benchmarks/ltb/demo';
import { singleFileSource } from '../core/io/fileSource';
import { BenchSession } from '../core/session';
import { closeChannel } from '../db/changes';
import { addCorrection, listCorrections } from '../db/correctionsRepo';
import { setClock } from '../db/history';
import { combineReview } from '../db/reviewShape';
import { listByDataset, putInstanceReview, putReview, setCaseStatus } from '../db/reviewsRepo';
import { GT_SUBJECT, predSubject } from '../db/subjects';
import { BenchlensDB, type CorrectionRow, type ReviewRow } from '../db/schema';
import { caseAnalysisBlob, CASE_ANALYSIS_TYPE } from './caseAnalysisBlob';
import { resetScoringApi, scoringApi } from './scoringApi';

// ---- the previous path, verbatim (src/app/qa/caseIo.ts mergeQaIntoLines + Exports.tsx) -------

function reviewMapKey(subject: string, caseId: string): string {
  return `${subject}\u0000${caseId}`;
}

/** Per line: the case's GT review with the review of that line's model's prediction content. */
function mergeQaIntoLines(lines: readonly string[], reviews: readonly ReviewRow[], corrections: readonly CorrectionRow[], contents: Record<string, string>): string[] {
  const byKey = new Map(reviews.map((r) => [reviewMapKey(r.subject, r.case_id), r]));
  const byCase = new Map<string, CorrectionRow[]>();
  for (const c of corrections) {
    const list = byCase.get(c.case_id) ?? [];
    list.push(c);
    byCase.set(c.case_id, list);
  }
  return lines.map((line) => {
    const o = JSON.parse(line) as { model: string; case_id: string; qa?: unknown };
    const gt = byKey.get(reviewMapKey(GT_SUBJECT, o.case_id));
    const pred = byKey.get(reviewMapKey(predSubject(contents[o.model]), o.case_id));
    const qa = buildQa(combineReview(o.model, o.case_id, gt, pred), byCase.get(o.case_id));
    if (!('qa' in o) && line.endsWith('}')) {
      if (!qa) return line;
      return `${line.slice(0, -1)}${line.length > 2 ? ',' : ''}"qa":${serializeQa(qa)}}`;
    }
    delete o.qa;
    if (qa) o.qa = qa;
    return JSON.stringify(o);
  });
}

/** Worker string → page split → merge → join, as the export did before. */
function previousExport(workerLines: readonly string[], reviews: ReviewRow[], corrections: CorrectionRow[], contents: Record<string, string>): string {
  const text = workerLines.length ? workerLines.join('\n') + '\n' : '';
  let lines = text === '' ? [] : text.trimEnd().split('\n');
  lines = mergeQaIntoLines(lines, reviews, corrections, contents);
  return lines.length ? lines.join('\n') + '\n' : '';
}

// ---------------------------------------------------------------------------------------------

const FP = 'ltb:test:caseAnalysisBlob';


let db: BenchlensDB;
let name: string;
let tick = 0;
beforeEach(() => {
  name = `benchlens-export-${Math.random().toString(36).slice(2)}`;
  db = new BenchlensDB(name);
  setClock(() => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString());
});
afterEach(async () => {
  resetScoringApi();
  db.close();
  await Dexie.delete(name);
});
afterAll(() => closeChannel());

/**
 * Reviews and corrections of every kind the export has to carry; returns the (model/case) lines
 * that must get a `qa` field.
 */
async function storeReviews(models: string[], ids: string[], contents: Record<string, string>): Promise<string[]> {
  const [m0, m1] = models;
  const [p0, p1] = [predSubject(contents[m0]), predSubject(contents[m1])];
  const [c0, c1, c2, c3, c4, c5] = ids;
  // Full review: unicode, quotes, newline and tab in the note; tags to normalise; author; instances.
  await setCaseStatus(FP, p0, c0, 'gt_wrong', db);
  await putReview(FP, GT_SUBJECT, c0, { note: 'accent é, "quoted", 𠀀\nsecond line\tand a tab', tags: ['z', ' crop ', 'z', ''], author: 'ann' }, db);
  await putInstanceReview(FP, p0, c0, { side: 'pred', id: 0, status: 'model_error', note: 'l/I confusion' }, db);
  await putInstanceReview(FP, p0, c0, { side: 'gt', id: 1, status: 'ok', tags: ['t'] }, db);
  await putReview(FP, p1, c0, { status: 'ok' }, db, { model: m1 });
  await putReview(FP, p1, c2, { status: 'ambiguous' }, db, { model: m1 });
  // Rows as another version might have stored them: keys in another order, a review that says
  // nothing (no qa unless its case has corrections), a prediction file not loaded.
  await db.subjectReviews.put({ updated_at: '2025-01-01T00:00:00.000Z', note: 'n', status: 'ok', case_id: c1, subject: p1, fingerprint: FP, tags: ['b', 'a'] } as ReviewRow);
  await db.subjectReviews.put({ fingerprint: FP, subject: p0, case_id: c3, status: 'unreviewed', updated_at: '2025-01-01T00:00:00.000Z' });
  await db.subjectReviews.put({ fingerprint: FP, subject: p0, case_id: c4, status: 'unreviewed', updated_at: '2025-01-01T00:00:00.000Z' });
  await db.subjectReviews.put({ fingerprint: FP, subject: predSubject('0000000000000000'), case_id: c0, status: 'ok', updated_at: '2025-01-01T00:00:00.000Z' });
  // Corrections: two on c0 (reviewed for both models), one on c3 (an empty review), one on c5
  // (nobody reviewed it), one on a case the dataset does not have.
  await addCorrection(FP, { case_id: c0, gt_id: null, shape: { type: 'box', box: [1, 2, 30, 40.5] }, text: 'NEW', care: true }, db);
  await addCorrection(FP, { case_id: c0, gt_id: 1, care: false }, db);
  await addCorrection(FP, { case_id: c3, gt_id: 0, shape: { type: 'polygon', points: [0, 0, 11, 0, 11, 5.25, 0, 5] } }, db);
  await addCorrection(FP, { case_id: c5, gt_id: 0, text: 'EXIT', deleted: false }, db);
  await addCorrection(FP, { case_id: 'not-a-case', gt_id: 0, text: 'x' }, db);
  return [`${m0}/${c0}`, `${m1}/${c0}`, `${m1}/${c1}`, `${m1}/${c2}`, `${m0}/${c3}`, `${m1}/${c3}`, `${m0}/${c5}`, `${m1}/${c5}`].sort();
}

/** The qa map as the page posts it to the worker (a structured clone, like postMessage). */
async function postedQa() {
  return structuredClone(await exportQa(FP, await scoringApi.modelContents(), db));
}

function linesWithQa(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.includes('"qa":'))
    .map((l) => {
      const o = JSON.parse(l) as { model: string; case_id: string };
      return `${o.model}/${o.case_id}`;
    })
    .sort();
}

async function compare(workerLines: string[], models: string[], contents: Record<string, string>) {
  const ids = [...new Set(workerLines.map((l) => (JSON.parse(l) as { case_id: string }).case_id))];
  expect(ids.length).toBeGreaterThanOrEqual(6);
  // The worker names each prediction file by its content as the independent session does.
  expect(await scoringApi.modelContents()).toEqual(contents);
  expect(new Set(Object.values(contents)).size).toBe(models.length);
  const expectedQa = await storeReviews(models, ids, contents);
  const before = previousExport(workerLines, await listByDataset(FP, db), await listCorrections(FP, undefined, db), contents);

  const blob = structuredClone(await scoringApi.exportCaseAnalysis(await postedQa()));
  expect(blob.type).toBe(CASE_ANALYSIS_TYPE);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const want = new TextEncoder().encode(before);
  expect(bytes.byteLength).toBe(want.byteLength);
  expect(Buffer.compare(Buffer.from(bytes), Buffer.from(want))).toBe(0);
  // Not a vacuous comparison: the reviews are there, on exactly the lines they belong to.
  expect(linesWithQa(before)).toEqual(expectedQa);
  expect(before).toContain('"gt":{"status":"gt_wrong","note":"accent é, \\"quoted\\", 𠀀\\nsecond line\\tand a tab","tags":["z","crop"],"updated_at":');
  expect(before).toContain('"qa":{"status":"gt_wrong","instances":[{"side":"gt","id":1,"status":"ok","tags":["t"]},{"side":"pred","id":0,"status":"model_error","note":"l/I confusion"}],"corrections":[');
  return { before, workerLines };
}

describe('the worker export is byte-identical to the previous string path', () => {
  it('on the LTB demo with reviews and corrections', async () => {
    const opened = await scoringApi.openDataset({ demo: 'ltb' });
    await scoringApi.score(opened.protocol.name, opened.protocol.options);

    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, 'ltb');
    for (const p of bundle.predictions) await session.addPredictions(p);
    const results = await session.score(opened.protocol);
    const workerLines = [...session.eachCaseLine(results)];
    expect(session.modelNames).toEqual(opened.models);

    const { before } = await compare(workerLines, opened.models, session.modelContents);

    // Where the parts of the Blob end changes nothing: 16 bytes puts every line in a part of its
    // own, the others pack several lines per part and flush between them.
    for (const partBytes of [16, 16384, 65536]) {
      const again = await caseAnalysisBlob('ltb', results, await postedQa(), partBytes).text();
      expect(again === before, `partBytes ${partBytes}`).toBe(true);
    }
  });

  it('without any review the file is the CLI writer output exactly, and empty when nothing was scored', async () => {
    const opened = await scoringApi.openDataset({ demo: 'ltb' });
    expect((await scoringApi.exportCaseAnalysis()).size).toBe(0);
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, 'ltb');
    for (const p of bundle.predictions) await session.addPredictions(p);
    const results = await session.score(opened.protocol);
    expect(await (await scoringApi.exportCaseAnalysis(await postedQa())).text()).toBe([...session.eachCaseLine(results)].map((l) => l + '\n').join(''));
  });
});

describe.skipIf(!HAS_SHARED)('the same on ltb-mini with the reference predictions', () => {
  it('is byte-identical with reviews and corrections', async () => {
    const preds = ['ltbmini-object.json', 'ltbmini-mmocr.jsonl'];
    await scoringApi.openDataset(folderListing(shared('data/ltb-mini'), 'ltb-mini'));
    const { added } = await scoringApi.addPredictions(fileListing(preds.map((f) => shared('reference/ltb', f))));
    await scoringApi.score('mmocr-1.0.1', {});

    const session = await BenchSession.open(nodeFolderSource(shared('data/ltb-mini')));
    await session.addBundledPredictions();
    const refs = nodeFolderSource(shared('reference/ltb'));
    for (const f of preds) await session.addPredictions({ source: singleFileSource(refs, f), path: f, name: f.replace(/\.[^.]+$/, '') });
    expect(session.modelNames).toEqual(added);
    const results = await session.score(session.resolveProtocol('mmocr-1.0.1', {}));
    await compare([...session.eachCaseLine(results)], added, session.modelContents);
  });
});
