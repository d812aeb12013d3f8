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
import { formatScore, middleEllipsis, outcomeName, rowErrors, rowFacets, rowTask } from './format';

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
}

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

export const CaseRow = memo(function CaseRow({ table, row, models, selected, onClick, pair, nameChars = 48, chipFacets }: CaseItemProps) {
  const aName = pair?.a ?? models[0];
  const a = aName ? table.perModel[aName] : undefined;
  const errors = a ? rowErrors(a.errorKinds, a.errorMask[row]) : [];
  const id = table.caseIds[row];
  const task = rowTask(table, row);
  // More than two columns: outcome by colour only (its name is in the tooltip), so five fit.
  const compact = models.length > 2;
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
          {middleEllipsis(id, nameChars)}
        </bdi>
        {task && !id.endsWith(task) && <span className="cb-task">{task}</span>}
        <RowChips chips={[...distinct(rowFacets(table, row, Infinity, chipFacets)).map((f) => ({ ...f, error: false })), ...errors.map((e) => ({ key: 'error', value: e, error: true }))]} />
      </div>
      <div className="cb-row-bottom">
        {/* One fixed-width badge per shown model, so they line up as columns down the list. */}
        <span className="cb-row-models">
          {models.map((m) => (
            <OutcomeBadge key={m} table={table} row={row} model={m} slot={slotOf(pair, m)} compact={compact} />
          ))}
        </span>
        {a && a.outcome[row] < 3 && (
          <span className="cb-misses" title={`${aName} (A): missed ground truth / false positives`}>
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
