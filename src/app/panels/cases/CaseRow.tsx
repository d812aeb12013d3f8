/**
 * One case in the list (a fixed-height row) and in the grid (a thumbnail tile). Everything is
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
      <div className="cb-row-main">
        <span className="cb-id" title={table.imagePaths[row] ?? table.caseIds[row]}>
          {table.caseIds[row]}
        </span>
        <span className="cb-chips">
          {rowFacets(table, row).map((f, k) => (
            <span key={k} className="cb-facet-chip" title={f.key}>
              {f.value}
            </span>
          ))}
          {errors.map((e) => (
            <span key={e} className="cb-facet-chip cb-error">
              {e}
            </span>
          ))}
        </span>
      </div>
      <div className="cb-row-side">
        {models.map((m, k) => (
          <OutcomeBadge key={m} table={table} row={row} model={m} slot={k === 0 ? 'A' : k === 1 ? 'B' : undefined} />
        ))}
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
        <span className="cb-id">{table.caseIds[row]}</span>
        <span>
          {models.slice(0, 2).map((m, k) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={k === 0 ? 'A' : 'B'} />
          ))}
        </span>
      </div>
    </div>
  );
});
