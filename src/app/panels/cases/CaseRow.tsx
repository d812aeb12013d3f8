/**
 * One case in the list (a fixed-height row of two lines: the case name — shortened in the middle,
 * full on hover — its task and one outcome badge per shown model in that model's colour; then
 * chips of the facets that differ between cases, and A's miss counts) and in the grid (a
 * thumbnail tile). Everything is read from the table's columns by row index; dataset strings are
 * rendered as text only.
 */
import { memo } from 'react';
import type { CaseTable } from '../../../core/caseTable';
import type { ThumbnailLoader } from '../../thumbnails/thumbnailLoader';
import { useThumbnail } from '../../thumbnails/useThumbnail';
import { modelColor } from '../../canvas/style';
import { chipsThatFit, chipText, facetName, formatScore, hasDetectionCounts, middleEllipsis, outcomeName, rowErrors, rowFacets, rowTask, textWidth } from './format';
import type { ReviewStatus } from '../../../core/qa';

export interface CaseItemProps {
  table: CaseTable;
  row: number;
  /** Models with a column (badge) on the row, in table order. */
  models: string[];
  selected: boolean;
  onClick: (row: number) => void;
  /** The compared pair, labelled A and B on their badges. */
  pair?: { a: string | null; b: string | null };
  /** Characters the case name may take before it is shortened in the middle. */
  nameChars?: number;
  /** Facets worth a chip (those that differ between cases); default: all. */
  chipFacets?: readonly string[];
  /** The row's width in px (chips are fitted whole into what the name leaves). */
  width?: number;
  /** Model A's review of the case, when it has one (shown on the row). */
  review?: RowReview;
}

/** What a row shows of a review: its status, tags and note (db/reviewShape.ts CaseReview). */
export interface RowReview {
  status: ReviewStatus;
  tags?: string[];
  note?: string;
}

/** The mark of a review status on a row: a symbol and a word (colour is never the only cue). */
export const REVIEW_MARKS: Record<ReviewStatus, string> = {
  unreviewed: '',
  ok: '✓ OK',
  model_error: '✗ model error',
  gt_wrong: '⚠ GT wrong',
  gt_missing: '⚠ GT missing',
  ambiguous: '? ambiguous',
};

/** Models other than A and B are labelled by a short form of their name. */
function shortName(model: string): string {
  return model.length <= 8 ? model : `${model.slice(0, 7)}…`;
}

function OutcomeBadge({ table, row, model, slot, compact }: { table: CaseTable; row: number; model: string; slot?: string; compact?: boolean }) {
  const cols = table.perModel[model];
  if (!cols) return null;
  const outcome = outcomeName(cols.outcome[row]);
  const color = modelColor(table.models.indexOf(model));
  return (
    <span
      className={`cb-badge cb-outcome-${outcome}`}
      title={`${model}${slot ? ` (${slot})` : ''}: ${outcome === 'none' ? 'no prediction for this case' : outcome}, score ${formatScore(cols.score[row])}`}
      data-model={model}
      data-outcome={outcome}
      style={{ borderLeft: `4px solid ${color}` }}
    >
      {slot && <b>{slot} </b>}
      {compact ? null : (slot ? '' : `${shortName(model)} `) + outcome + ' '}
      <span className="cb-score">{formatScore(cols.score[row])}</span>
    </span>
  );
}

/**
 * One line of chips: as many as fit whole in `width` px, each named when its value alone says
 * nothing ("has care GT: no"), then "+N" for the rest with their names in its tooltip — never a
 * second line that would spill into the next fixed-height row, nor chips cut to "or…".
 */
function RowChips({ chips, width }: { chips: { key: string; value: string; error: boolean }[]; width: number }) {
  const texts = chips.map((c) => (c.error ? c.value : chipText(c.key, c.value)));
  const n = chipsThatFit(texts, width);
  const rest = chips.slice(n);
  return (
    <span className="cb-row-chips" data-testid="row-chips">
      {chips.slice(0, n).map((c, k) => (
        <span key={k} className={`cb-facet-chip${c.error ? ' cb-error' : ''}`} title={`${c.error ? 'error' : facetName(c.key)}: ${c.value}`}>
          {texts[k]}
        </span>
      ))}
      {rest.length > 0 && (
        <span className="cb-facet-chip cb-more" title={rest.map((c) => `${c.error ? 'error' : facetName(c.key)}: ${c.value}`).join('\n')} data-testid="row-chips-more">
          +{rest.length}
        </span>
      )}
    </span>
  );
}

/** Model A's review on its row: the status mark, then its tags; the note in the tooltip. */
function ReviewMark({ review, model }: { review: RowReview; model: string }) {
  const mark = REVIEW_MARKS[review.status];
  const tags = review.tags ?? [];
  if (!mark && tags.length === 0 && !review.note) return null;
  const title = [`review of ${model}: ${review.status.replace('_', ' ')}`, ...(tags.length ? [`tags: ${tags.join(', ')}`] : []), ...(review.note ? [`note: ${review.note}`] : [])].join('\n');
  return (
    <span className={`cb-review cb-review-${review.status}`} data-testid="row-review" data-status={review.status} title={title}>
      {mark}
      {tags.length > 0 && <bdi className="cb-review-tags">{tags.map((t) => `#${t}`).join(' ')}</bdi>}
      {review.note ? <span aria-label="has a note"> ✎</span> : null}
    </span>
  );
}

/**
 * A value repeated (one challenge on two words of an image, or a split and a challenge of the
 * same name) is one chip, its tooltip naming every facet it stands for.
 */
function distinct(chips: { key: string; value: string }[]): { key: string; value: string }[] {
  const byValue = new Map<string, { key: string; value: string }>();
  for (const c of chips) {
    const had = byValue.get(c.value);
    if (!had) byValue.set(c.value, { ...c });
    else if (!had.key.split(', ').includes(c.key)) had.key = `${had.key}, ${c.key}`;
  }
  return [...byValue.values()];
}

const slotOf = (pair: CaseItemProps['pair'], m: string) => (pair?.a === m ? 'A' : pair?.b === m ? 'B' : undefined);

export const CaseRow = memo(function CaseRow({ table, row, models, selected, onClick, pair, nameChars = 48, chipFacets, width = 400, review }: CaseItemProps) {
  const aName = pair?.a ?? models[0];
  const a = aName ? table.perModel[aName] : undefined;
  const errors = a ? rowErrors(a.errorKinds, a.errorMask[row]) : [];
  const id = table.caseIds[row];
  const task = rowTask(table, row);
  // More than two columns: outcome by colour only (its name is in the tooltip), so five fit.
  const compact = models.length > 2;
  const name = middleEllipsis(id, nameChars);
  const showTask = !!task && !id.endsWith(task);
  // What the name (12-px monospace, ~7.2 px a character, wide ones double) and the task leave for chips.
  const nameWidth = [...name].reduce((w, ch) => w + ((ch.codePointAt(0) ?? 0) >= 0x2e80 ? 14.4 : 7.2), 0);
  const chipRoom = width - 24 - nameWidth - (showTask ? textWidth(task!) + 16 : 0);
  return (
    <div
      className={`cb-row${selected ? ' cb-selected' : ''}`}
      role="option"
      aria-selected={selected}
      data-case-id={table.caseIds[row]}
      data-testid="case-row"
      onClick={() => onClick(row)}
    >
      <div className="cb-row-top">
        <bdi className="cb-id" data-testid="case-name" title={table.imagePaths[row] && table.imagePaths[row] !== id ? `${id}\nimage: ${table.imagePaths[row]}` : id}>
          {name}
        </bdi>
        {showTask && <span className="cb-task" title="task">{task}</span>}
        <RowChips width={chipRoom} chips={[...distinct(rowFacets(table, row, Infinity, chipFacets)).map((f) => ({ ...f, error: false })), ...errors.map((e) => ({ key: 'error', value: e, error: true }))]} />
      </div>
      <div className="cb-row-bottom">
        {/* One fixed-width badge per shown model, so they line up as columns down the list. */}
        <span className="cb-row-models">
          {models.map((m) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={slotOf(pair, m)} compact={compact} />
          ))}
        </span>
        {review && aName && <ReviewMark review={review} model={aName} />}
        {/* Model A's counts, said as A's; only where FN / FP mean something (not classification, parsing, R2T). */}
        {a && a.outcome[row] < 3 && hasDetectionCounts(table)(row) && (
          <span className="cb-misses" data-testid="row-counts" title={`${aName} (A): ${a.misses[row]} missed ground truth (FN), ${a.falsePositives[row]} false positives (FP)`}>
            {pair?.a ? 'A: ' : ''}
            {a.misses[row]} FN · {a.falsePositives[row]} FP
          </span>
        )}
      </div>
    </div>
  );
});

export const CaseTile = memo(function CaseTile({ table, row, models, selected, onClick, loader, pair }: CaseItemProps & { loader: ThumbnailLoader }) {
  const file = table.imageFiles[row];
  const thumb = useThumbnail(loader, file);
  const missing = !file || thumb?.kind === 'missing';
  return (
    <div
      className={`cb-tile${selected ? ' cb-selected' : ''}`}
      role="option"
      aria-selected={selected}
      data-case-id={table.caseIds[row]}
      data-testid="case-tile"
      onClick={() => onClick(row)}
    >
      <div className="cb-thumb">
        {missing ? (
          <div className="cb-missing" data-testid="thumb-missing">
            <b>missing</b>
            <span>{table.imagePaths[row] ?? 'no image path'}</span>
          </div>
        ) : thumb?.kind === 'ok' ? (
          <img src={thumb.url} alt={table.caseIds[row]} draggable={false} />
        ) : thumb?.kind === 'error' ? (
          <div className="cb-missing" title={thumb.message}>
            <b>unreadable</b>
            <span>{table.imagePaths[row]}</span>
          </div>
        ) : (
          <div className="cb-thumb-wait" />
        )}
      </div>
      <div className="cb-tile-caption">
        <bdi className="cb-id" title={table.caseIds[row]}>
          {middleEllipsis(table.caseIds[row], 22)}
        </bdi>
        <span>
          {models.map((m) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={slotOf(pair, m)} compact />
          ))}
        </span>
      </div>
    </div>
  );
});
