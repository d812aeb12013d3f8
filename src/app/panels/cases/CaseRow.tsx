/**
 * One case in the list (a fixed-height row of two lines: id and outcome badges, then chips and
 * miss counts) and in the grid (a thumbnail tile). Everything is
 * read from the table's columns by row index; dataset strings are rendered as text only.
 */
import { memo } from 'react';
import type { CaseTable } from '../../../core/caseTable';
import type { ThumbnailLoader } from '../../thumbnails/thumbnailLoader';
import { useThumbnail } from '../../thumbnails/useThumbnail';
import { formatScore, outcomeName, rowErrors, rowFacets } from './format';

export interface CaseItemProps {
  table: CaseTable;
  row: number;
  /** Models whose badges are shown, A first. */
  models: string[];
  selected: boolean;
  onClick: (row: number) => void;
}

/** Models other than A and B are labelled by a short form of their name. */
function shortName(model: string): string {
  return model.length <= 8 ? model : `${model.slice(0, 7)}…`;
}

function OutcomeBadge({ table, row, model, slot }: { table: CaseTable; row: number; model: string; slot?: string }) {
  const cols = table.perModel[model];
  if (!cols) return null;
  const outcome = outcomeName(cols.outcome[row]);
  return (
    <span className={`cb-badge cb-outcome-${outcome}`} title={`${model}: ${outcome}, score ${formatScore(cols.score[row])}`} data-model={model} data-outcome={outcome}>
      <b>{slot ?? shortName(model)}</b> {outcome} <span className="cb-score">{formatScore(cols.score[row])}</span>
    </span>
  );
}

/** Chips a row shows before folding the rest into "+N" (the row is one line of chips high). */
const ROW_CHIPS = 3;

/**
 * One line of chips: the first few (each shrinking to an ellipsis when the row is narrow), then
 * "+N" for the rest with their names in its tooltip — never a second line that would spill into
 * the next fixed-height row.
 */
function RowChips({ chips }: { chips: { key: string; value: string; error: boolean }[] }) {
  const shown = chips.slice(0, ROW_CHIPS);
  const rest = chips.slice(ROW_CHIPS);
  return (
    <span className="cb-row-chips" data-testid="row-chips">
      {shown.map((c, k) => (
        <span key={k} className={`cb-facet-chip${c.error ? ' cb-error' : ''}`} title={`${c.key}: ${c.value}`}>
          {c.value}
        </span>
      ))}
      {rest.length > 0 && (
        <span className="cb-facet-chip cb-more" title={rest.map((c) => `${c.key}: ${c.value}`).join('\n')} data-testid="row-chips-more">
          +{rest.length}
        </span>
      )}
    </span>
  );
}

export const CaseRow = memo(function CaseRow({ table, row, models, selected, onClick }: CaseItemProps) {
  const a = models[0] ? table.perModel[models[0]] : undefined;
  const errors = a ? rowErrors(a.errorKinds, a.errorMask[row]) : [];
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
        <bdi className="cb-id" title={table.imagePaths[row] ?? table.caseIds[row]}>
          {table.caseIds[row]}
        </bdi>
        <span className="cb-row-side">
          {models.map((m, k) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={k === 0 ? 'A' : k === 1 ? 'B' : undefined} />
          ))}
        </span>
      </div>
      <div className="cb-row-bottom">
        <RowChips chips={[...rowFacets(table, row, Infinity).map((f) => ({ ...f, error: false })), ...errors.map((e) => ({ key: 'error', value: e, error: true }))]} />
        {a && a.outcome[row] < 3 && (
          <span className="cb-misses" title="model A: missed ground truth / false positives">
            {a.misses[row]} missed · {a.falsePositives[row]} FP
          </span>
        )}
      </div>
    </div>
  );
});

export const CaseTile = memo(function CaseTile({ table, row, models, selected, onClick, loader }: CaseItemProps & { loader: ThumbnailLoader }) {
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
        <bdi className="cb-id">{table.caseIds[row]}</bdi>
        <span>
          {models.slice(0, 2).map((m, k) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={k === 0 ? 'A' : 'B'} />
          ))}
        </span>
      </div>
    </div>
  );
});
