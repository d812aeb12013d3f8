/**
 * ReviewPanel — the review of one (model, case), and of the selected GT instance / prediction.
 *
 * Props:
 *   fingerprint       DatasetInfo.fingerprint of the open dataset (reviews are keyed by it).
 *   model             the model whose case is shown.
 *   caseId            the case's case_id.
 *   selectedInstance  the instance picked in the viewer ({ side: 'gt' | 'pred', id }) or null.
 *   onNextUnreviewed  optional: go to the next unreviewed case (the shell computes it with
 *                     reviewFilters.nextUnreviewed over the case list's filtered order).
 *   keys              optional, default true: listen to the review shortcuts on the whole page
 *                     (see reviewKeys.ts: Shift+1…6 case status, Alt+Shift+1…6 instance status,
 *                     n next unreviewed, Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo).
 *
 * Every change is written to IndexedDB at once as its own transaction; the note is saved 400 ms
 * after the last keystroke, on Enter (Shift+Enter for a new line) and on blur, and says "saved"
 * only once the write has committed. Storage failures show in a banner (never swallowed).
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { REVIEW_STATUSES, type ReviewStatus } from '../../core/qa';
import { putInstanceReview, putReview, redo, undo } from '../../db/reviewsRepo';
import type { ReviewRow } from '../../db/schema';
import { onStorageError, type StorageError } from '../../db/storageErrors';
import { isTypingTarget, reviewActionFor, type ReviewKeyAction } from './reviewKeys';
import { useReview } from './useReviews';

export interface SelectedInstance {
  side: 'gt' | 'pred';
  id: number;
}

export interface ReviewPanelProps {
  fingerprint: string;
  model: string;
  caseId: string;
  selectedInstance?: SelectedInstance | null;
  onNextUnreviewed?: () => void;
  keys?: boolean;
}

export const STATUS_LABELS: Record<ReviewStatus, string> = {
  unreviewed: 'Unreviewed',
  ok: 'OK',
  model_error: 'Model error',
  gt_wrong: 'GT wrong',
  gt_missing: 'GT missing',
  ambiguous: 'Ambiguous',
};

/** Calls `onAction` for review shortcuts pressed anywhere on the page (not in text fields). */
export function useReviewKeys(onAction: (a: ReviewKeyAction) => void, enabled = true): void {
  const ref = useRef(onAction);
  useEffect(() => {
    ref.current = onAction;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented || isTypingTarget(e.target)) return;
      const a = reviewActionFor(e);
      if (!a) return;
      e.preventDefault();
      ref.current(a);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/** The latest storage failure (null once dismissed). */
export function useStorageError(): [StorageError | null, () => void] {
  const [err, setErr] = useState<StorageError | null>(null);
  useEffect(() => onStorageError(setErr), []);
  return [err, useCallback(() => setErr(null), [])];
}

function StatusButtons({ value, onPick, label, shortcut }: { value: ReviewStatus; onPick: (s: ReviewStatus) => void; label: string; shortcut: string }) {
  return (
    <div role="group" aria-label={label} className="qa-status" style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
      {REVIEW_STATUSES.map((s, i) => (
        <button
          key={s}
          type="button"
          data-status={s}
          aria-pressed={value === s}
          title={`${STATUS_LABELS[s]} (${shortcut}+${i + 1})`}
          onClick={() => onPick(s)}
          style={{ fontWeight: value === s ? 700 : 400, outline: value === s ? '2px solid currentColor' : undefined }}
        >
          {STATUS_LABELS[s]}
        </button>
      ))}
    </div>
  );
}

type SaveState = 'idle' | 'dirty' | 'saving' | 'saved' | 'error';

const SAVE_TEXT: Record<SaveState, string> = { idle: '', dirty: 'editing…', saving: 'saving…', saved: 'saved', error: 'not saved' };

/** A note saved 400 ms after typing stops, on Enter and on blur; shows whether it is saved. */
function NoteEditor({ value, onSave, label, testId }: { value: string; onSave: (text: string) => Promise<unknown>; label: string; testId: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const draftRef = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveRef = useRef(onSave);
  useEffect(() => {
    saveRef.current = onSave;
  });

  const save = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const text = draftRef.current;
    if (text === null) return;
    setState('saving');
    try {
      await saveRef.current(text);
      if (draftRef.current === text) {
        draftRef.current = null;
        setDraft(null);
        setState('saved');
      }
    } catch {
      setState('error');
    }
  }, []);

  // Leaving the case (unmount) still saves what was typed.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        if (draftRef.current !== null) void saveRef.current(draftRef.current).catch(() => undefined);
      }
    },
    [],
  );

  const onChange = (text: string) => {
    draftRef.current = text;
    setDraft(text);
    setState('dirty');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), 400);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void save();
    }
  };
  return (
    <div className="qa-note">
      <textarea
        aria-label={label}
        data-testid={testId}
        rows={2}
        value={draft ?? value}
        placeholder="Note (Enter saves, Shift+Enter new line)"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => void save()}
        style={{ width: '100%', boxSizing: 'border-box' }}
      />
      <span data-testid={`${testId}-state`} data-state={state} aria-live="polite" style={{ fontSize: '0.8em', opacity: 0.8 }}>
        {SAVE_TEXT[state]}
      </span>
    </div>
  );
}

/** Free tags as chips: type and press Enter (or comma) to add, × to remove. */
function TagEditor({ tags, onChange, label, testId }: { tags: readonly string[]; onChange: (t: string[]) => void; label: string; testId: string }) {
  const [text, setText] = useState('');
  const add = () => {
    const t = text.trim().replace(/,$/, '').trim();
    if (t && !tags.includes(t)) onChange([...tags, t]);
    setText('');
  };
  return (
    <div className="qa-tags" data-testid={testId} style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
      {tags.map((t) => (
        <span key={t} className="qa-chip" data-tag={t} style={{ border: '1px solid currentColor', borderRadius: 10, padding: '0 6px' }}>
          {t}
          <button type="button" aria-label={`remove tag ${t}`} onClick={() => onChange(tags.filter((x) => x !== t))} style={{ marginLeft: 4, border: 0, background: 'none', cursor: 'pointer' }}>
            ×
          </button>
        </span>
      ))}
      <input
        aria-label={label}
        value={text}
        placeholder="add tag"
        size={10}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          }
        }}
        onBlur={() => text.trim() && add()}
      />
    </div>
  );
}

export function ReviewPanel({ fingerprint, model, caseId, selectedInstance = null, onNextUnreviewed, keys = true }: ReviewPanelProps) {
  const { review, loading, accept } = useReview(fingerprint, model, caseId);
  const [error, dismiss] = useStorageError();
  const inst = selectedInstance ? review?.instances?.find((r) => r.side === selectedInstance.side && r.id === selectedInstance.id) : undefined;

  // Each handler stores one confirmed edit and shows the stored row at once.
  const edit = useCallback(
    async (write: () => Promise<ReviewRow | undefined>) => {
      const row = await write();
      accept(row);
      return row;
    },
    [accept],
  );
  const setCase = (patch: Parameters<typeof putReview>[3]) => edit(() => putReview(fingerprint, model, caseId, patch));
  const setInst = (patch: Omit<Parameters<typeof putInstanceReview>[3], 'side' | 'id'>) =>
    selectedInstance ? edit(() => putInstanceReview(fingerprint, model, caseId, { ...selectedInstance, ...patch })) : Promise.resolve(undefined);

  useReviewKeys((a) => {
    const quiet = (p: Promise<unknown>) => void p.catch(() => undefined); // failures reach the banner
    if (a.kind === 'caseStatus') quiet(setCase({ status: a.status }));
    else if (a.kind === 'instanceStatus') quiet(setInst({ status: a.status }));
    else if (a.kind === 'nextUnreviewed') onNextUnreviewed?.();
    else if (a.kind === 'undo') quiet(undo(fingerprint));
    else if (a.kind === 'redo') quiet(redo(fingerprint));
  }, keys);

  const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);
  return (
    <section className="qa-panel" data-testid="review-panel" data-loading={loading} aria-label="Review" style={{ display: 'grid', gap: 6 }}>
      {error && (
        <div role="alert" data-testid="storage-error" style={{ background: '#fdd', color: '#600', padding: 4 }}>
          {error.message}{' '}
          <button type="button" onClick={dismiss}>
            dismiss
          </button>
        </div>
      )}
      <header style={{ display: 'flex', gap: 6, alignItems: 'center', justifyContent: 'space-between' }}>
        <strong>Review</strong>
        <span>
          <button type="button" title="Undo (Ctrl+Z)" onClick={() => quiet(undo(fingerprint))}>
            Undo
          </button>
          <button type="button" title="Redo (Ctrl+Shift+Z)" onClick={() => quiet(redo(fingerprint))}>
            Redo
          </button>
          {onNextUnreviewed && (
            <button type="button" title="Next unreviewed case (n)" onClick={onNextUnreviewed} data-testid="next-unreviewed">
              Next unreviewed
            </button>
          )}
        </span>
      </header>
      <StatusButtons label="Case status" shortcut="Shift" value={review?.status ?? 'unreviewed'} onPick={(s) => quiet(setCase({ status: s }))} />
      <TagEditor label="Case tag" testId="case-tags" tags={review?.tags ?? []} onChange={(tags) => quiet(setCase({ tags }))} />
      <NoteEditor key={`${fingerprint}|${model}|${caseId}`} label="Case note" testId="case-note" value={review?.note ?? ''} onSave={(note) => setCase({ note })} />
      {review?.updated_at && (
        <small data-testid="review-updated" style={{ opacity: 0.7 }}>
          last change {review.updated_at}
        </small>
      )}
      {selectedInstance && (
        <fieldset data-testid="instance-review" style={{ display: 'grid', gap: 6 }}>
          <legend>
            {selectedInstance.side === 'gt' ? 'GT' : 'Prediction'} {selectedInstance.id}
          </legend>
          <StatusButtons label="Instance status" shortcut="Alt+Shift" value={inst?.status ?? 'unreviewed'} onPick={(s) => quiet(setInst({ status: s }))} />
          <TagEditor label="Instance tag" testId="instance-tags" tags={inst?.tags ?? []} onChange={(tags) => quiet(setInst({ tags }))} />
          <NoteEditor
            key={`${fingerprint}|${model}|${caseId}|${selectedInstance.side}|${selectedInstance.id}`}
            label="Instance note"
            testId="instance-note"
            value={inst?.note ?? ''}
            onSave={(note) => setInst({ note })}
          />
        </fieldset>
      )}
    </section>
  );
}
