import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { caseLine, parseCaseAnalysis, serializeCaseLine } from '../../core/caseExport';
import type { CaseRecord } from '../../core/model';
import { BenchlensDB, type CorrectionRow, type ReviewRow } from '../../db/schema';
import { setClock } from '../../db/history';
import { closeChannel } from '../../db/changes';
import { getReview, listByDataset, putInstanceReview, putReview, setCaseStatus, undo } from '../../db/reviewsRepo';
import { GT_SUBJECT } from '../../db/subjects';
import { addCorrection, listCorrections } from '../../db/correctionsRepo';
import { caseAnalysisBlob } from '../../worker/caseAnalysisBlob';
import { buildQa, planImport, qaByKey, resolveConflict, type ReviewConflict } from './caseIo';
import { applyImport, clearDataset, exportQa, prepareImport } from './qaIo';

const FP = 'ltb:3:00000000deadbeef';
const T0 = '2026-01-01T00:00:00.000Z';
/** The two loaded models and the content fingerprints of their prediction files. */
const CONTENTS = { m1: 'c1c1c1c1c1c1c1c1', m2: 'c2c2c2c2c2c2c2c2' };
const P1 = `pred:${CONTENTS.m1}`;
const P2 = `pred:${CONTENTS.m2}`;
const subjectOf = (model: string) => (model === 'm1' ? P1 : model === 'm2' ? P2 : `pred:${model}`);

function caseRec(id: string): CaseRecord {
  return {
    case_id: id,
    image_path: `imgs/${id}.jpg`,
    image_file: `dataset/imgs/${id}.jpg`,
    facets: { split: 'hard' },
    score: 0.5,
    outcome: 'partial',
    gt: [{ id: 0, state: 'tp', text: 'EXIT', shape: { type: 'polygon', points: [0, 0, 10, 0, 10, 5, 0, 5] } }],
    pred: [{ id: 0, state: 'tp', text: 'EXlT', shape: { type: 'box', box: [0, 0, 10, 5] } }],
    matches: [{ gt: 0, pred: 0, iou: 0.8 }],
    errors: [],
  };
}

const workerLines = ['m1', 'm2'].flatMap((m) => ['a', 'b', 'c'].map((id) => serializeCaseLine(caseLine('ltb', m, caseRec(id)))));
const RESULTS = ['m1', 'm2'].map((model) => ({ model, cases: ['a', 'b', 'c'].map(caseRec) }));

/** The file the worker writes for these reviews (src/worker/caseAnalysisBlob.ts). */
async function exportedLines(reviews: ReviewRow[], corrections: CorrectionRow[]): Promise<string[]> {
  return (await caseAnalysisBlob('ltb', RESULTS, qaByKey(reviews, corrections, CONTENTS)).text()).split('\n').slice(0, -1);
}

/** A prediction review of model m1/m2 (by its content), or the GT review with model 'gt'. */
function review(model: string, caseId: string, extra: Partial<ReviewRow>): ReviewRow {
  const subject = model === 'gt' ? GT_SUBJECT : subjectOf(model);
  return { fingerprint: FP, subject, case_id: caseId, status: model === 'gt' ? 'gt_wrong' : 'ok', updated_at: T0, ...(model === 'gt' ? {} : { model }), ...extra };
}

const strip = (rows: ReviewRow[]) => rows.map(({ rev: _rev, ...r }) => r).sort((a, b) => `${a.subject}${a.case_id}`.localeCompare(`${b.subject}${b.case_id}`));

describe('merging reviews into case lines', () => {
  it('adds qa only to reviewed lines and leaves every other byte alone', async () => {
    const out = await exportedLines([review('m1', 'b', { status: 'model_error', note: 'missing accent' })], []);
    expect(out).toHaveLength(workerLines.length);
    out.forEach((l, i) => {
      if (i === 1) expect(l.startsWith(workerLines[i].slice(0, -1))).toBe(true);
      else expect(l).toBe(workerLines[i]);
    });
    const parsed = parseCaseAnalysis(out.join('\n'));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.lines[1].qa).toEqual({ status: 'model_error', note: 'missing accent', updated_at: T0, prediction: CONTENTS.m1 });
  });

  it('puts a GT review on every model line of its case, and a prediction review only on its own model', async () => {
    const rows = [review('gt', 'a', { status: 'gt_missing', note: 'two words unlabelled' }), review('m2', 'a', { status: 'model_error' })];
    const lines = parseCaseAnalysis((await exportedLines(rows, [])).join('\n')).lines.filter((l) => l.qa);
    expect(lines.map((l) => [l.model, l.case_id, l.qa!.status])).toEqual([
      ['m1', 'a', 'gt_missing'],
      ['m2', 'a', 'model_error'],
    ]);
    const gt = { status: 'gt_missing', note: 'two words unlabelled', updated_at: T0 };
    expect(lines[0].qa).toEqual({ status: 'gt_missing', gt });
    expect(lines[1].qa).toEqual({ status: 'model_error', updated_at: T0, gt, prediction: CONTENTS.m2 });
  });

  it('writes qa with a fixed key order whatever order the row had', () => {
    const a = buildQa({ model: 'm', case_id: 'a', status: 'ok', pred: { updated_at: T0, tags: ['x'], note: 'n', status: 'ok', case_id: 'a', subject: 'pred:ff', fingerprint: FP } });
    const b = buildQa({ model: 'm', case_id: 'a', status: 'ok', pred: { fingerprint: FP, subject: 'pred:ff', case_id: 'a', status: 'ok', note: 'n', tags: ['x'], updated_at: T0 } });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).toBe(`{"status":"ok","note":"n","tags":["x"],"updated_at":"${T0}","prediction":"ff"}`);
  });

  it('carries a case correction on every model line of that case', async () => {
    const corr: CorrectionRow = { id: 'c1', fingerprint: FP, case_id: 'c', correction: { case_id: 'c', gt_id: 0, text: 'EXIT!' }, updated_at: T0 };
    const out = parseCaseAnalysis((await exportedLines([], [corr])).join('\n')).lines;
    const withQa = out.filter((l) => l.qa);
    expect(withQa.map((l) => `${l.model}/${l.case_id}`)).toEqual(['m1/c', 'm2/c']);
    expect(withQa[0].qa).toEqual({ status: 'unreviewed', corrections: [{ id: 'c1', case_id: 'c', gt_id: 0, text: 'EXIT!', updated_at: T0 }] });
  });
});

describe('planning an import', () => {
  let file = '';
  beforeAll(async () => {
    const reviews = [review('m1', 'a', { status: 'ok' }), review('m1', 'b', { status: 'model_error', note: 'theirs' }), review('m2', 'c', { status: 'ambiguous' })];
    file = (await exportedLines(reviews, [])).join('\n');
  });

  it('sorts file reviews into new, unchanged and conflicting — nothing overwritten', () => {
    const mine = [review('m1', 'a', { status: 'ok', updated_at: '2025-05-05T00:00:00.000Z' }), review('m1', 'b', { status: 'model_error', note: 'mine' })];
    const plan = planImport({ text: file, fingerprint: FP, mine, myCorrections: [], now: T0, benchmark: 'ltb', contents: CONTENTS });
    expect(plan.lines).toBe(6);
    expect(plan.unchanged).toBe(1); // m1/a: same content, different time
    expect(plan.reviews.map((r) => `${r.subject}/${r.case_id}`)).toEqual([`${P2}/c`]);
    expect(plan.conflicts).toHaveLength(1);
    const c = plan.conflicts[0] as ReviewConflict;
    expect([c.model, c.case_id, c.mine.note, c.theirs.note]).toEqual(['m1', 'b', 'mine', 'theirs']);
    expect(plan.warnings).toEqual([]);
  });

  it('resolves a conflict three ways', () => {
    const c: ReviewConflict = {
      kind: 'review',
      model: 'm1',
      subject: P1,
      case_id: 'b',
      mine: review('m1', 'b', { status: 'model_error', note: 'mine', tags: ['a'] }),
      theirs: review('m1', 'b', { status: 'ok', note: 'theirs', tags: ['b', 'a'], instances: [{ side: 'pred', id: 0, status: 'model_error' }] }),
    };
    expect(resolveConflict(c, 'mine', T0)).toBe(c.mine);
    expect(resolveConflict(c, 'theirs', T0)).toBe(c.theirs);
    expect(resolveConflict(c, 'merge', '2026-02-02T00:00:00.000Z')).toEqual({
      fingerprint: FP,
      subject: P1,
      case_id: 'b',
      status: 'model_error',
      note: 'mine\n---\ntheirs',
      tags: ['a', 'b'],
      instances: [{ side: 'pred', id: 0, status: 'model_error' }],
      updated_at: '2026-02-02T00:00:00.000Z',
      model: 'm1',
    });
  });

  it('costs a bad line that line, and says why', () => {
    const bad = [
      'not json',
      JSON.stringify({ schema: 'other/1' }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm1', case_id: 'a', qa: { status: 'flagged', note: 'GT box misses the last word' } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'tabench', model: 'm1', case_id: 'a', qa: { status: 'ok' } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm1', case_id: 'zzz', qa: { status: 'ok' } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm1', case_id: 'b', qa: { status: 'ok', instances: [{ side: 'x', id: 1, status: 'ok' }, { side: 'gt', id: 1, status: 'ok' }] } }),
    ].join('\n');
    const plan = planImport({ text: bad, fingerprint: FP, mine: [], myCorrections: [], now: T0, benchmark: 'ltb', knownCaseIds: new Set(['a', 'b']), contents: CONTENTS });
    expect(plan.warnings).toEqual([
      'line 1: not valid JSON',
      'line 2: not a benchlens.case/1 line',
      'line 3: qa.status "flagged" is not one of the review statuses; kept as tag "status:flagged"',
      'line 4: benchmark "tabench" is not the open dataset\'s (ltb)',
      'line 5: case "zzz" is not in the open dataset; its review was skipped',
      'line 6: an instance review without a valid side, id and status was dropped',
    ]);
    // A file written before reviews had owners: the GT-side instance review goes to the GT.
    expect(plan.reviews).toEqual([
      { fingerprint: FP, subject: P1, case_id: 'a', status: 'unreviewed', note: 'GT box misses the last word', tags: ['status:flagged'], updated_at: T0, model: 'm1' },
      { fingerprint: FP, subject: GT_SUBJECT, case_id: 'b', status: 'unreviewed', instances: [{ side: 'gt', id: 1, status: 'ok' }], updated_at: T0 },
      { fingerprint: FP, subject: P1, case_id: 'b', status: 'ok', updated_at: T0, model: 'm1' },
    ]);
  });

  it('finds a prediction review by the file content it names, whatever the model is called now', () => {
    const line = JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'old-name', case_id: 'a', qa: { status: 'ok', updated_at: T0, prediction: CONTENTS.m2 } });
    const plan = planImport({ text: line, fingerprint: FP, mine: [], myCorrections: [], now: T0, contents: CONTENTS });
    expect(plan.reviews.map((r) => r.subject)).toEqual([P2]);
    // Without `prediction` and with no loaded model of that name, it waits under the name.
    const old = JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'old-name', case_id: 'a', qa: { status: 'ok' } });
    expect(planImport({ text: old, fingerprint: FP, mine: [], myCorrections: [], now: T0, contents: CONTENTS }).reviews.map((r) => r.subject)).toEqual(['name:old-name']);
  });

  it('reads the GT review once per case and reports a line whose copy differs', () => {
    const gt = { status: 'gt_wrong', updated_at: T0 };
    const text = [
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm1', case_id: 'a', qa: { status: 'gt_wrong', gt } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm2', case_id: 'a', qa: { status: 'gt_wrong', gt } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm2', case_id: 'b', qa: { status: 'gt_missing', gt: { status: 'gt_missing' } } }),
      JSON.stringify({ schema: 'benchlens.case/1', benchmark: 'ltb', model: 'm1', case_id: 'b', qa: { status: 'gt_wrong', gt: { status: 'gt_wrong' } } }),
    ].join('\n');
    const plan = planImport({ text, fingerprint: FP, mine: [], myCorrections: [], now: T0, contents: CONTENTS });
    expect(plan.reviews.map((r) => `${r.subject}/${r.case_id}/${r.status}`)).toEqual(['gt/a/gt_wrong', 'gt/b/gt_missing']);
    expect(plan.warnings).toEqual(["line 4: the GT review of b differs from line 3's; the first was kept"]);
  });
});

describe('export → clear → import through the database', () => {
  let db: BenchlensDB;
  let name: string;
  let tick = 0;
  beforeEach(() => {
    name = `benchlens-io-${Math.random().toString(36).slice(2)}`;
    db = new BenchlensDB(name);
    setClock(() => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString());
  });
  afterEach(async () => {
    db.close();
    await Dexie.delete(name);
  });
  afterAll(() => closeChannel());
  /** What the page downloads: the stored reviews, merged by the worker's writer. */
  const exportFile = async () => caseAnalysisBlob('ltb', RESULTS, await exportQa(FP, CONTENTS, db)).text();

  it('gives back exactly the same reviews and byte-identical qa fields', async () => {
    await setCaseStatus(FP, P1, 'a', 'gt_wrong', db);
    await putReview(FP, GT_SUBJECT, 'a', { note: 'accent: é, 𠀀', tags: ['z', 'crop'] }, db);
    await putInstanceReview(FP, P1, 'a', { side: 'pred', id: 0, status: 'model_error', note: 'l/I confusion' }, db);
    await putInstanceReview(FP, P1, 'a', { side: 'gt', id: 0, status: 'gt_wrong', note: 'EXIT, not EXlT' }, db);
    await putReview(FP, P1, 'a', { note: 'model note', tags: ['m'] }, db, { model: 'm1' });
    await putReview(FP, P2, 'c', { status: 'ambiguous' }, db, { model: 'm2' });
    await addCorrection(FP, { case_id: 'a', gt_id: 0, shape: { type: 'polygon', points: [0, 0, 11, 0, 11, 5, 0, 5] } }, db);
    await addCorrection(FP, { case_id: 'b', gt_id: null, shape: { type: 'box', box: [1, 1, 4, 4] }, text: 'new', care: false }, db);

    const reviewsBefore = await listByDataset(FP, db);
    const correctionsBefore = await listCorrections(FP, undefined, db);
    const exported = await exportFile();

    await clearDataset(FP, db);
    expect(await listByDataset(FP, db)).toEqual([]);
    expect(await listCorrections(FP, undefined, db)).toEqual([]);

    const plan = await prepareImport(FP, exported, { benchmark: 'ltb', contents: CONTENTS }, db);
    expect(plan.conflicts).toEqual([]);
    expect(plan.warnings).toEqual([]);
    await applyImport(FP, plan, [], db);

    expect(reviewsBefore.map((r) => r.subject).sort()).toEqual([GT_SUBJECT, P1, P2]);
    expect(strip(await listByDataset(FP, db))).toEqual(strip(reviewsBefore));
    expect(await listCorrections(FP, undefined, db)).toEqual(correctionsBefore);
    expect(await exportFile()).toBe(exported);

    // Importing the same file again changes nothing.
    const again = await prepareImport(FP, exported, { benchmark: 'ltb', contents: CONTENTS }, db);
    expect([again.reviews.length, again.corrections.length, again.conflicts.length, again.unchanged]).toEqual([0, 0, 0, 5]);
  });

  it('applies the chosen side of a conflict, and an import is undone in one step', async () => {
    await putReview(FP, P1, 'b', { status: 'model_error', note: 'mine' }, db);
    const theirs = (await exportedLines([review('m1', 'b', { status: 'ok', note: 'theirs' }), review('m2', 'a', { status: 'ok' })], [])).join('\n');
    const plan = await prepareImport(FP, theirs, { contents: CONTENTS }, db);
    expect(plan.conflicts).toHaveLength(1);
    await applyImport(FP, plan, ['theirs'], db);
    expect((await getReview(FP, P1, 'b', db))?.note).toBe('theirs');
    expect((await getReview(FP, P2, 'a', db))?.status).toBe('ok');
    await undo(FP, db);
    expect((await getReview(FP, P1, 'b', db))?.note).toBe('mine');
    expect(await getReview(FP, P2, 'a', db)).toBeUndefined();
  });

  it('keeps mine when a conflict is left unresolved', async () => {
    await putReview(FP, P1, 'b', { status: 'model_error', note: 'mine' }, db);
    const theirs = (await exportedLines([review('m1', 'b', { status: 'ok' })], [])).join('\n');
    await applyImport(FP, await prepareImport(FP, theirs, { contents: CONTENTS }, db), new Map(), db);
    expect((await getReview(FP, P1, 'b', db))?.status).toBe('model_error');
  });
});
