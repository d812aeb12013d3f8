/**
 * ConflictDialog — shown when an imported case_analysis.jsonl reviews a case differently from this
 * browser: a model's prediction review, or the case's GT review (one per dataset). (Two tabs
 * editing the same review meet in ReviewPanel instead: both versions are shown there.) Each conflict shows both sides and asks: keep mine / take theirs / merge
 * (notes joined, tags united; see caseIo.resolveConflict). Nothing is written until "Apply".
 *
 * Props: conflicts (ImportPlan.conflicts), onApply(resolutions: one per conflict, same order),
 * onCancel() (the import is dropped, nothing written).
 */
import { Timestamp } from '../Timestamp';
import { useState } from 'react';
import type { CorrectionRow, ReviewRow } from '../../db/schema';
import type { ImportConflict, Resolution } from './caseIo';

export interface ConflictDialogProps {
  conflicts: readonly ImportConflict[];
  onApply: (resolutions: Resolution[]) => void;
  onCancel: () => void;
}

function ReviewSide({ r }: { r: ReviewRow }) {
  return (
    <div>
      <div>
        <b>{r.status}</b> <small>{r.updated_at ? <Timestamp value={r.updated_at} /> : null}</small>
      </div>
      {r.note && <div style={{ whiteSpace: 'pre-wrap' }}>{r.note}</div>}
      {r.tags && <div>tags: {r.tags.join(', ')}</div>}
      {r.instances && <div>{r.instances.length} instance review(s)</div>}
    </div>
  );
}

function CorrectionSide({ r }: { r: CorrectionRow }) {
  return (
    <div>
      <small>{r.updated_at ? <Timestamp value={r.updated_at} /> : null}</small>
      <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(r.correction)}</pre>
    </div>
  );
}

export function ConflictDialog({ conflicts, onApply, onCancel }: ConflictDialogProps) {
  const [choice, setChoice] = useState<Resolution[]>(() => conflicts.map(() => 'mine'));
  const setAll = (r: Resolution) => setChoice(conflicts.map((c) => (r === 'merge' && c.kind === 'correction' ? 'mine' : r)));
  return (
    <div role="dialog" aria-modal="true" aria-labelledby="qa-conflict-title" data-testid="conflict-dialog" style={{ position: 'fixed', inset: 0, background: 'rgba(0,0,0,0.4)', display: 'grid', placeItems: 'center', zIndex: 1000 }}>
      <div style={{ background: 'Canvas', color: 'CanvasText', padding: 16, maxWidth: 900, maxHeight: '85vh', overflow: 'auto', borderRadius: 6 }}>
        <h2 id="qa-conflict-title" style={{ marginTop: 0 }}>
          {conflicts.length} review conflict{conflicts.length === 1 ? '' : 's'}
        </h2>
        <p>The imported file reviews these cases differently. Nothing is overwritten unless you choose so.</p>
        <div style={{ display: 'flex', gap: 6, marginBottom: 8 }}>
          <button type="button" onClick={() => setAll('mine')}>
            Keep all mine
          </button>
          <button type="button" onClick={() => setAll('theirs')}>
            Take all theirs
          </button>
          <button type="button" onClick={() => setAll('merge')}>
            Merge all notes
          </button>
        </div>
        <ol style={{ paddingLeft: 20 }}>
          {conflicts.map((c, i) => (
            <li key={c.kind === 'review' ? `r|${c.subject}|${c.case_id}` : `c|${c.id}`} data-testid="conflict" style={{ marginBottom: 12 }}>
              <div>
                {c.kind === 'review' ? (
                  <>
                    <b><bdi>{c.case_id}</bdi></b> — {c.subject === 'gt' ? 'GT review (every model)' : <>model <bdi>{c.model}</bdi></>}
                  </>
                ) : (
                  <>
                    <b><bdi>{c.case_id}</bdi></b> — GT correction {c.id}
                  </>
                )}
              </div>
              <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
                <div>
                  <i>mine</i>
                  {c.kind === 'review' ? <ReviewSide r={c.mine} /> : <CorrectionSide r={c.mine} />}
                </div>
                <div>
                  <i>theirs</i>
                  {c.kind === 'review' ? <ReviewSide r={c.theirs} /> : <CorrectionSide r={c.theirs} />}
                </div>
              </div>
              <div role="radiogroup" aria-label={`resolution ${i + 1}`}>
                {(['mine', 'theirs', 'merge'] as const)
                  .filter((r) => r !== 'merge' || c.kind === 'review')
                  .map((r) => (
                    <label key={r} style={{ marginRight: 12 }}>
                      <input type="radio" name={`qa-conflict-${i}`} value={r} checked={choice[i] === r} onChange={() => setChoice((cs) => cs.map((x, j) => (j === i ? r : x)))} />{' '}
                      {r === 'mine' ? 'keep mine' : r === 'theirs' ? 'take theirs' : 'merge note'}
                    </label>
                  ))}
              </div>
            </li>
          ))}
        </ol>
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
          <button type="button" onClick={onCancel}>
            Cancel import
          </button>
          <button type="button" onClick={() => onApply(choice)} data-testid="conflict-apply">
            Apply
          </button>
        </div>
      </div>
    </div>
  );
}
