/**
 * An isolated page for the review (QA) e2e tests: the real ReviewPanel, useReviews counts,
 * QaImportExport + ConflictDialog and GtEditorOverlay over six generated cases, all on the real
 * IndexedDB of the page. `#fp=<fingerprint>&model=<name>` choose the dataset key and the model;
 * `content=<fingerprint>` the content key of the model's prediction file (what its reviews are
 * keyed by; default: one fixed key), so a test can rename a model and keep its content.
 * Nothing is fetched; the export is the worker's own case_analysis writer (caseAnalysisBlob).
 */
import { StrictMode, useCallback, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { CaseRecord } from '../src/core/model';
import { REVIEW_STATUSES } from '../src/core/qa';
import { ReviewPanel, STATUS_LABELS, type SelectedInstance } from '../src/app/qa/ReviewPanel';
import { QaImportExport } from '../src/app/qa/QaImportExport';
import { GtEditorOverlay } from '../src/app/qa/GtEditor';
import { commitCorrection, effectiveGt, useCorrections } from '../src/app/qa/corrections';
import { clearDataset } from '../src/app/qa/qaIo';
import { countStatuses, nextUnreviewed, statusOf } from '../src/app/qa/reviewFilters';
import { useReviews } from '../src/app/qa/useReviews';
import { caseAnalysisBlob } from '../src/worker/caseAnalysisBlob';

const params = new URLSearchParams(location.hash.replace(/^#/, ''));
const FP = params.get('fp') ?? 'ltb:6:harness0000000000';
const MODEL = params.get('model') ?? 'model-a';
/** Loaded models → content fingerprint of their prediction files (the app gets them from the worker). */
const CONTENTS: Record<string, string> = { [MODEL]: params.get('content') ?? 'harness0content0a', 'model-b': 'harness0content0b' };
const W = 400;
const H = 300;

function makeCase(i: number): CaseRecord {
  const x = 40 + i * 10;
  return {
    case_id: `case-${i}`,
    image_path: `imgs/case-${i}.jpg`,
    facets: { split: i % 2 ? 'hard' : 'easy' },
    score: i % 3 === 0 ? 1 : 0.5,
    outcome: i % 3 === 0 ? 'pass' : 'partial',
    gt: [
      { id: 0, state: 'tp', text: 'EXIT', shape: { type: 'polygon', points: [x, 50, x + 120, 50, x + 120, 100, x, 100] } },
      { id: 1, state: 'fn', text: 'OPEN', shape: { type: 'box', box: [60, 160, 200, 210] } },
    ],
    pred: [{ id: 0, state: 'tp', text: 'EXlT', shape: { type: 'polygon', points: [x + 2, 52, x + 118, 52, x + 118, 98, x + 2, 98] }, partner: 0, iou: 0.9 }],
    matches: [{ gt: 0, pred: 0, iou: 0.9 }],
    errors: [],
    width: W,
    height: H,
  };
}

const CASES = Array.from({ length: 6 }, (_, i) => makeCase(i + 1));
const ORDER = CASES.map((c) => c.case_id);
const KNOWN = new Set(ORDER);
const RESULTS = [MODEL, 'model-b'].map((model) => ({ model, cases: CASES }));

function Harness() {
  const [caseId, setCaseId] = useState(ORDER[0]);
  const [selected, setSelected] = useState<SelectedInstance | null>(null);
  const { reviews, loading } = useReviews(FP, CONTENTS);
  const counts = useMemo(() => countStatuses(reviews, MODEL, ORDER), [reviews]);
  const rec = CASES.find((c) => c.case_id === caseId)!;
  const corrections = useCorrections(FP, caseId);
  const editable = useMemo(() => effectiveGt(rec.gt, corrections), [rec, corrections]);
  const onCommit = useCallback((edit: Parameters<typeof commitCorrection>[1]) => void commitCorrection(FP, edit).catch(() => undefined), []);
  const goNext = () => {
    const n = nextUnreviewed(ORDER, caseId, MODEL, reviews);
    if (n) {
      setCaseId(n);
      setSelected(null);
    }
  };

  return (
    <div style={{ display: 'grid', gridTemplateColumns: '220px 420px 1fr', gap: 12, padding: 8, fontFamily: 'sans-serif', fontSize: 14 }}>
      <nav aria-label="cases">
        <div data-testid="counts" data-loading={loading}>
          {REVIEW_STATUSES.map((s) => (
            <span key={s} data-count={s} style={{ marginRight: 6 }}>
              {STATUS_LABELS[s]}: {counts[s]}
            </span>
          ))}
        </div>
        <ul style={{ listStyle: 'none', padding: 0 }}>
          {ORDER.map((id) => (
            <li key={id}>
              <button
                type="button"
                data-case={id}
                data-status={statusOf(reviews, MODEL, id)}
                aria-current={id === caseId}
                onClick={() => {
                  setCaseId(id);
                  setSelected(null);
                }}
              >
                {id} — {statusOf(reviews, MODEL, id)}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" data-testid="clear" onClick={() => void clearDataset(FP)}>
          Clear reviews
        </button>
      </nav>
      <div>
        <div data-testid="current-case">{caseId}</div>
        <div style={{ display: 'flex', gap: 4 }}>
          <button type="button" data-select="gt-0" onClick={() => setSelected({ side: 'gt', id: 0 })}>
            select GT 0
          </button>
          <button type="button" data-select="pred-0" onClick={() => setSelected({ side: 'pred', id: 0 })}>
            select pred 0
          </button>
        </div>
        <div style={{ position: 'relative', width: W, height: H + 40, marginTop: 36, background: '#ddd' }}>
          <GtEditorOverlay instances={editable} caseId={caseId} transform={{ scale: 1, x: 0, y: 0 }} width={W} height={H} imageWidth={W} imageHeight={H} onCommit={onCommit} />
        </div>
        <pre data-testid="corrections" style={{ whiteSpace: 'pre-wrap', fontSize: 11 }}>
          {JSON.stringify(corrections.map((r) => r.correction))}
        </pre>
        <pre data-testid="original-gt" style={{ whiteSpace: 'pre-wrap', fontSize: 11 }}>
          {JSON.stringify(rec.gt.map((g) => g.shape))}
        </pre>
      </div>
      <div>
        <ReviewPanel fingerprint={FP} model={MODEL} content={CONTENTS[MODEL]} caseId={caseId} selectedInstance={selected} onNextUnreviewed={goNext} />
        <QaImportExport fingerprint={FP} benchmark="ltb" knownCaseIds={KNOWN} contents={CONTENTS} exportCases={async (qa) => caseAnalysisBlob('ltb', RESULTS, qa)} />
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
