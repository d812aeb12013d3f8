/**
 * ReviewPanel — the review of one (model, case), and of the selected GT instance / prediction.
 *
 * Props:
 *   fingerprint       DatasetInfo.fingerprint of the open dataset (reviews are keyed by it).
 *   model             the model whose case is shown (its name: a label only).
 *   content           optional: the model's prediction-content fingerprint (default: the app
 *                     store's modelContent[model]). Reviews of predictions are stored under it;
 *                     GT statuses, GT notes and GT-instance reviews under the dataset.
 *   caseId            the case's case_id.
 *   selectedInstance  the instance picked in the viewer ({ side: 'gt' | 'pred', id }) or null.
 *   onNextUnreviewed  optional: go to the next unreviewed case (the shell computes it with
 *                     reviewFilters.nextUnreviewed over the case list's filtered order).
 *   gtOnly            optional: no model is loaded (a dataset opened on its GT alone). The case
 *                     status offers the GT's statuses (GT wrong, GT missing), the notes are the
 *                     GT note and GT-instance notes, all stored under the dataset's GT review.
 *   keys              optional, default true: listen to the review shortcuts on the whole page
 *                     (see reviewKeys.ts: Shift+1…6 case status, Alt+Shift+1…6 instance status,
 *                     n next unreviewed, Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo).
 *
 * Every change is written to IndexedDB at once as its own transaction; the note is saved 400 ms
 * after the last keystroke, on Enter (Shift+Enter for a new line) and on blur, and says "saved"
 * only once the write has committed. Storage failures show in a banner (never swallowed); an
 * edit that could not be written stays on screen marked "not saved yet" and is retried.
 *
 * Two tabs: every edit carries the value it was made from; when another tab confirmed a different
 * value meanwhile, nothing is overwritten: both versions are shown ("keep theirs" / "use mine" /
 * for notes "keep both"), and a note draft stays in its box until the user chooses.
 */
import { Timestamp } from '../Timestamp';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { REVIEW_STATUSES, type ReviewStatus } from '../../core/qa';
import { isGtStatus } from '../../core/qa';
import { onUnsavedChange, retryUnsaved, unsavedCount } from '../../db/pendingReviews';
import { putInstanceReview, putReview, redo, ReviewConflictError, setCaseStatus, statusRev, undo, type EditBase } from '../../db/reviewsRepo';
import { GT_SUBJECT, predSubject } from '../../db/subjects';
import { onStorageError, type StorageError } from '../../db/storageErrors';
import { useBench } from '../store';
import { isTypingTarget, reviewActionFor, type ReviewKeyAction } from './reviewKeys';
import { useReview } from './useReviews';

export interface SelectedInstance {
  side: 'gt' | 'pred';
  id: number;
}

export interface ReviewPanelProps {
  fingerprint: string;
  model: string;
  content?: string;
  caseId: string;
  selectedInstance?: SelectedInstance | null;
  onNextUnreviewed?: () => void;
  keys?: boolean;
  gtOnly?: boolean;
}

/** The statuses a GT-only review offers: about the GT, nothing about a model. */
const GT_ONLY_STATUSES: readonly ReviewStatus[] = ['unreviewed', 'gt_wrong', 'gt_missing'];

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

function StatusButtons({
  value,
  onPick,
  label,
  shortcut,
  only,
}: {
  value: ReviewStatus;
  onPick: (s: ReviewStatus) => void;
  label: string;
  shortcut: string;
  only?: readonly ReviewStatus[];
}) {
  return (
    <div role="group" aria-label={label} className="qa-status" style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
      {REVIEW_STATUSES.map((s, i) => (only && !only.includes(s) ? null : (
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
      )))}
    </div>
  );
}

type SaveState = 'idle' | 'dirty' | 'saving' | 'saved' | 'unsaved' | 'error' | 'conflict';

const SAVE_TEXT: Record<SaveState, string> = {
  idle: '',
  dirty: 'editing…',
  saving: 'saving…',
  saved: 'saved',
  unsaved: 'kept here, not saved yet (retrying)',
  error: 'not saved',
  conflict: 'changed in another tab',
};

/** Number of edits this tab holds in memory because they could not be written yet. */
export function useUnsavedCount(): number {
  const [n, setN] = useState(unsavedCount);
  useEffect(() => onUnsavedChange(setN), []);
  return n;
}

/** Joins two notes so both are kept in full. */
export function bothNotes(theirs: string, mine: string): string {
  return theirs && mine && theirs !== mine ? `${theirs}\n---\n${mine}` : mine || theirs;
}

/**
 * A note saved 400 ms after typing stops, on Enter and on blur; shows whether it is saved. The
 * draft remembers the stored value (and its rev) it started from: a save is refused when another
 * tab confirmed a different note since, and then both are shown and the draft is kept.
 */
function NoteEditor({
  value,
  rev,
  unsaved = false,
  onSave,
  label,
  caption,
  testId,
}: {
  /** Shown above the box: whose note it is (two boxes side by side looked the same, issue #42 item 10). */
  caption?: string;
  value: string;
  rev: string | null;
  /** The stored value is only in memory (storage full): "saved" would be a lie. */
  unsaved?: boolean;
  onSave: (text: string, base: EditBase) => Promise<unknown>;
  label: string;
  testId: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const [conflict, setConflict] = useState<{ theirs: string; rev: string | null } | null>(null);
  const draftRef = useRef<string | null>(null);
  const baseRef = useRef<EditBase | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveRef = useRef(onSave);
  const shown = useRef({ value, rev });
  useEffect(() => {
    saveRef.current = onSave;
    shown.current = { value, rev };
  });

  const save = useCallback(async (force?: EditBase) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const text = draftRef.current;
    if (text === null) return;
    const base = force ?? baseRef.current ?? { rev: shown.current.rev, value: shown.current.value };
    setState('saving');
    try {
      const saved = (await saveRef.current(text, base)) as { rev?: string } | undefined;
      if (draftRef.current === text) {
        draftRef.current = null;
        baseRef.current = null;
        setDraft(null);
        setConflict(null);
        setState('saved');
      } else {
        // Typing went on: the next save is based on what was just stored (not on a re-read that
        // may not have arrived yet, which would look like another tab's change).
        baseRef.current = { rev: saved?.rev ?? null, value: text };
      }
    } catch (e) {
      if (e instanceof ReviewConflictError) {
        setConflict({ theirs: String(e.theirs ?? ''), rev: e.row?.rev ?? null });
        setState('conflict');
      } else setState('error');
    }
  }, []);

  // Leaving the case (unmount) still saves what was typed; a conflict then keeps both notes.
  useEffect(
    () => () => {
      const text = draftRef.current;
      if (text === null || (!timer.current && !baseRef.current)) return;
      if (timer.current) clearTimeout(timer.current);
      const base = baseRef.current ?? { rev: shown.current.rev, value: shown.current.value };
      void saveRef.current(text, base).catch((e: unknown) => {
        if (e instanceof ReviewConflictError) void saveRef.current(bothNotes(String(e.theirs ?? ''), text), { rev: e.row?.rev ?? null, value: e.theirs }).catch(() => undefined);
      });
    },
    [],
  );

  const onChange = (text: string) => {
    if (draftRef.current === null && !baseRef.current) baseRef.current = { rev: shown.current.rev, value: shown.current.value };
    draftRef.current = text;
    setDraft(text);
    if (state !== 'conflict') setState('dirty');
    if (timer.current) clearTimeout(timer.current);
    if (!conflict) timer.current = setTimeout(() => void save(), 400);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      if (!conflict) void save();
    }
  };
  const resolve = (how: 'theirs' | 'mine' | 'both') => {
    if (!conflict) return;
    const base = { rev: conflict.rev, value: conflict.theirs };
    if (how === 'theirs') {
      draftRef.current = null;
      baseRef.current = null;
      setDraft(null);
      setConflict(null);
      setState('idle');
      return;
    }
    const text = how === 'mine' ? (draftRef.current ?? '') : bothNotes(conflict.theirs, draftRef.current ?? '');
    draftRef.current = text;
    setDraft(text);
    setConflict(null);
    void save(base);
  };
  return (
    <div className="qa-note">
      {caption && (
        <div data-testid={`${testId}-caption`} style={{ fontSize: '0.85em', fontWeight: 600, marginTop: 4 }}>
          {caption}
        </div>
      )}
      <textarea
        aria-label={label}
        data-testid={testId}
        rows={2}
        value={draft ?? value}
        placeholder="Enter saves, Shift+Enter new line"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => !conflict && void save()}
        style={{ width: '100%', boxSizing: 'border-box' }}
      />
      <span data-testid={`${testId}-state`} data-state={state === 'saved' && unsaved ? 'unsaved' : state} aria-live="polite" style={{ fontSize: '0.8em', opacity: 0.8 }}>
        {SAVE_TEXT[state === 'saved' && unsaved ? 'unsaved' : state]}
      </span>
      {conflict && (
        <div role="alert" data-testid={`${testId}-conflict`} style={{ border: '1px solid #c60', padding: 4, marginTop: 4 }}>
          <div>Another tab saved a different note while you were typing. Both are kept until you choose:</div>
          <div>
            <i>theirs (saved):</i> <span data-testid={`${testId}-theirs`} style={{ whiteSpace: 'pre-wrap' }}>{conflict.theirs || '(empty)'}</span>
          </div>
          <div>
            <i>yours (not saved):</i> <span data-testid={`${testId}-mine`} style={{ whiteSpace: 'pre-wrap' }}>{draft ?? ''}</span>
          </div>
          <button type="button" data-testid={`${testId}-keep-theirs`} onClick={() => resolve('theirs')}>
            keep theirs
          </button>{' '}
          <button type="button" data-testid={`${testId}-use-mine`} onClick={() => resolve('mine')}>
            use mine
          </button>{' '}
          <button type="button" data-testid={`${testId}-keep-both`} onClick={() => resolve('both')}>
            keep both
          </button>
        </div>
      )}
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

interface FieldConflict {
  what: string;
  theirs: string;
  mine: string;
  /** Writes mine over theirs (based on the value now stored). */
  useMine: () => Promise<unknown>;
}

function show(v: unknown): string {
  return Array.isArray(v) ? v.join(', ') || '(none)' : v === undefined || v === null || v === '' ? '(none)' : String(v);
}

export function ReviewPanel({ fingerprint, model, content, caseId, selectedInstance = null, onNextUnreviewed, keys = true, gtOnly = false }: ReviewPanelProps) {
  const stored = useBench((s) => s.modelContent[model]);
  const contentKey = gtOnly ? undefined : (content ?? stored);
  const pred = contentKey ? predSubject(contentKey) : null;
  const live = useReview(fingerprint, model, pred, caseId);
  const { review, loading, refresh } = live;
  const [error, dismiss] = useStorageError();
  const unsavedAll = useUnsavedCount();
  const [conflict, setConflict] = useState<FieldConflict | null>(null);
  const inst = selectedInstance ? review?.instances?.find((r) => r.side === selectedInstance.side && r.id === selectedInstance.id) : undefined;
  const instRow = selectedInstance?.side === 'gt' ? live.gt : live.pred;

  // Each handler stores one confirmed edit (based on what is shown) and re-reads at once.
  const edit = useCallback(
    async (what: string, mine: unknown, write: () => Promise<unknown>, again: (theirsRev: EditBase) => Promise<unknown>) => {
      try {
        const out = await write();
        setConflict(null);
        return out;
      } catch (e) {
        if (e instanceof ReviewConflictError) {
          const base: EditBase = { rev: e.row?.rev ?? null, value: e.theirs };
          setConflict({ what, theirs: show(e.theirs), mine: show(mine), useMine: () => again(base).then(() => setConflict(null)) });
        }
        throw e;
      } finally {
        refresh();
      }
    },
    [refresh],
  );
  const opts = (base: EditBase) => ({ base, model });
  const shownStatus = review?.status ?? 'unreviewed';
  const setStatus = (status: ReviewStatus) => {
    if (gtOnly) {
      if (!GT_ONLY_STATUSES.includes(status)) return Promise.resolve();
      const base = { rev: live.gt?.rev ?? null, value: live.gt?.status ?? 'unreviewed' };
      return edit(
        'case status',
        status,
        () => putReview(fingerprint, GT_SUBJECT, caseId, { status }, undefined, { base }),
        (b) => putReview(fingerprint, GT_SUBJECT, caseId, { status }, undefined, { base: b }),
      );
    }
    if (!pred) return Promise.resolve();
    const base = { rev: statusRev(live.gt, live.pred), value: shownStatus };
    return edit(
      'case status',
      status,
      () => setCaseStatus(fingerprint, pred, caseId, status, undefined, opts(base)),
      () => setCaseStatus(fingerprint, pred, caseId, status, undefined, { model }),
    );
  };
  const setPredField = (patch: { note?: string; tags?: string[] }, base: EditBase) =>
    pred
      ? edit(
          patch.note !== undefined ? 'note' : 'tags',
          patch.note ?? patch.tags,
          () => putReview(fingerprint, pred, caseId, patch, undefined, opts(base)),
          (b) => putReview(fingerprint, pred, caseId, patch, undefined, opts(b)),
        )
      : Promise.resolve();
  const setGtNote = (note: string, base: EditBase) => putReview(fingerprint, GT_SUBJECT, caseId, { note }, undefined, { base }).finally(refresh);
  const setInst = (patch: { status?: ReviewStatus; note?: string; tags?: string[] }, base?: EditBase) => {
    // GT instances are reviewed under the dataset's GT review (putInstanceReview picks it by side).
    const subject = pred ?? (gtOnly && selectedInstance?.side === 'gt' ? GT_SUBJECT : null);
    if (!selectedInstance || !subject) return Promise.resolve();
    const field = patch.status !== undefined ? 'status' : patch.note !== undefined ? 'note' : 'tags';
    const b = base ?? { rev: instRow?.rev ?? null, value: field === 'status' ? (inst?.status ?? 'unreviewed') : field === 'tags' ? (inst?.tags ?? []) : (inst?.note ?? '') };
    return edit(
      `${selectedInstance.side === 'gt' ? 'GT' : 'prediction'} ${selectedInstance.id} ${field}`,
      patch[field],
      () => putInstanceReview(fingerprint, subject, caseId, { ...selectedInstance, ...patch }, undefined, opts(b)),
      (again) => putInstanceReview(fingerprint, subject, caseId, { ...selectedInstance, ...patch }, undefined, opts(again)),
    );
  };

  useReviewKeys((a) => {
    const quiet = (p: Promise<unknown>) => void p.catch(() => undefined); // failures reach the banner
    if (a.kind === 'caseStatus') quiet(setStatus(a.status));
    else if (a.kind === 'instanceStatus') quiet(setInst({ status: a.status }));
    else if (a.kind === 'nextUnreviewed') onNextUnreviewed?.();
    else if (a.kind === 'undo') quiet(undo(fingerprint));
    else if (a.kind === 'redo') quiet(redo(fingerprint));
  }, keys);

  const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);
  const tagsBase = { rev: live.pred?.rev ?? null, value: review?.tags ?? [] };
  return (
    <section
      className="qa-panel"
      data-testid="review-panel"
      data-loading={loading}
      data-unsaved={live.unsaved}
      data-prediction={contentKey ?? ''}
      aria-label="Review"
      style={{ display: 'grid', gap: 6 }}
    >
      {error && (
        <div role="alert" data-testid="storage-error" style={{ background: '#fdd', color: '#600', padding: 4 }}>
          {error.message}{' '}
          <button type="button" onClick={dismiss}>
            dismiss
          </button>
        </div>
      )}
      {unsavedAll > 0 && (
        <div role="status" data-testid="review-unsaved" data-count={unsavedAll} style={{ background: '#ffe9b3', color: '#4a3300', padding: 4 }}>
          {unsavedAll} review edit{unsavedAll === 1 ? '' : 's'} not saved yet{live.unsaved ? ' (this case among them)' : ''}: kept here and in every export, retried
          automatically.{' '}
          <button type="button" data-testid="retry-save" onClick={() => void retryUnsaved()}>
            Retry now
          </button>
        </div>
      )}
      {conflict && (
        <div role="alert" data-testid="review-conflict" style={{ border: '1px solid #c60', padding: 4 }}>
          Another tab changed the {conflict.what} meanwhile: theirs <b data-testid="review-conflict-theirs">{conflict.theirs}</b>, yours{' '}
          <b data-testid="review-conflict-mine">{conflict.mine}</b>.{' '}
          <button type="button" data-testid="review-conflict-keep-theirs" onClick={() => setConflict(null)}>
            keep theirs
          </button>{' '}
          <button type="button" data-testid="review-conflict-use-mine" onClick={() => quiet(conflict.useMine())}>
            use mine
          </button>
        </div>
      )}
      {!pred && !gtOnly && <div data-testid="review-waiting">Reading the prediction file’s content key…</div>}
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
      <StatusButtons label="Case status" shortcut="Shift" value={shownStatus} onPick={(s) => quiet(setStatus(s))} only={gtOnly ? GT_ONLY_STATUSES : undefined} />
      <small data-testid="status-owner" style={{ opacity: 0.7 }}>
        {gtOnly
          ? 'A GT review of this dataset: it stays when predictions are added, shown for every model.'
          : isGtStatus(shownStatus)
            ? 'A GT review: shown for every model of this dataset.'
            : shownStatus === 'unreviewed'
              ? ''
              : `This model’s prediction file (${model}).`}
      </small>
      {!gtOnly && (
        <>
          <TagEditor label="Case tag" testId="case-tags" tags={review?.tags ?? []} onChange={(tags) => quiet(setPredField({ tags }, tagsBase))} />
          <NoteEditor
            key={`${fingerprint}|${pred}|${caseId}`}
            label="Case note"
            caption={`Note on ${model}’s answer (this model only)`}
            testId="case-note"
            value={review?.note ?? ''}
            rev={live.pred?.rev ?? null}
            unsaved={live.unsaved}
            onSave={(note, base) => setPredField({ note }, base)}
          />
        </>
      )}
      <NoteEditor key={`${fingerprint}|gt|${caseId}`} label="GT note (every model)" caption="Note on the GT (every model)" testId="gt-note" value={live.gt?.note ?? ''} rev={live.gt?.rev ?? null} unsaved={live.unsaved} onSave={setGtNote} />
      {review?.updated_at && (
        <small data-testid="review-updated" style={{ opacity: 0.7 }}>
          last change <Timestamp value={review.updated_at} />
        </small>
      )}
      {selectedInstance && (
        <fieldset data-testid="instance-review" style={{ display: 'grid', gap: 6 }}>
          <legend>
            {selectedInstance.side === 'gt' ? 'GT' : 'Prediction'} {selectedInstance.id}
          </legend>
          <StatusButtons
            label="Instance status"
            shortcut="Alt+Shift"
            value={inst?.status ?? 'unreviewed'}
            onPick={(s) => quiet(setInst({ status: s }))}
            only={gtOnly ? GT_ONLY_STATUSES : undefined}
          />
          <TagEditor label="Instance tag" testId="instance-tags" tags={inst?.tags ?? []} onChange={(tags) => quiet(setInst({ tags }))} />
          <NoteEditor
            key={`${fingerprint}|${pred}|${caseId}|${selectedInstance.side}|${selectedInstance.id}`}
            label="Instance note"
            caption={`Note on this ${selectedInstance.side === 'gt' ? 'GT instance' : 'prediction'}`}
            testId="instance-note"
            value={inst?.note ?? ''}
            rev={instRow?.rev ?? null}
            onSave={(note, base) => setInst({ note }, base)}
          />
        </fieldset>
      )}
    </section>
  );
}
