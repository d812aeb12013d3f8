/**
 * The workspace's model legend and chooser: every loaded model in its colour, ticked when it is
 * shown (on the canvas in overlay / side by side, and as a column of the case list), with the
 * number of cases it has no prediction for — counted and said, not only drawn as "none".
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CaseTable } from '../../core/caseTable';
import { modelColor } from '../canvas/style';
import { shownModelsOf } from '../store/casesSlice';
import { useBench } from '../store';
import { AddPredictionsButtons } from './FolderInputs';

/** Error kinds by which the adapters mark a case the model gave no prediction for. */
export const NO_PREDICTION_KINDS = ['no_predictions', 'no_prediction', 'missing_prediction'] as const;

/** Cases of the table the model has no prediction for (no record at all, or one marked so). */
export function casesWithoutPrediction(table: CaseTable, model: string): { count: number; kind: string | null } {
  const cols = table.perModel[model];
  if (!cols) return { count: table.caseIds.length, kind: null };
  let mask = 0;
  let kind: string | null = null;
  cols.errorKinds.forEach((k, bit) => {
    if ((NO_PREDICTION_KINDS as readonly string[]).includes(k) && bit < 32) {
      mask |= 1 << bit;
      kind ??= k;
    }
  });
  let count = 0;
  for (let i = 0; i < table.caseIds.length; i++) if (cols.outcome[i] === 4 || (cols.errorMask[i] & mask) !== 0) count++;
  return { count, kind };
}

export function ModelStrip() {
  const table = useBench((s) => s.caseTable);
  const shownSetting = useBench((s) => s.shownModels);
  const models = useBench(useShallow((s) => s.caseTable?.models ?? []));
  const toggle = useBench((s) => s.toggleShownModel);
  const shown = shownModelsOf(table, shownSetting);
  const duplicateOf = useBench((s) => s.duplicateOf);
  const missing = useMemo(() => (table ? Object.fromEntries(models.map((m) => [m, casesWithoutPrediction(table, m)])) : {}), [table, models]);
  if (!table) return null;
  if (models.length === 0) return <GtOnlyStrip />;
  const showMissing = (model: string, kind: string | null) => {
    const s = useBench.getState();
    const { b } = s.caseQuery.models;
    s.setModels(model, b === model ? null : b);
    if (kind) s.setErrorFilter('a', [kind]);
    else s.setOutcomeFilter('a', ['none']);
  };
  return (
    <div className="model-strip" role="group" aria-label="Shown models" data-testid="model-strip">
      <span className="muted">Models ({models.length}):</span>
      {models.map((m, i) => {
        const on = shown.includes(m);
        const gap = missing[m];
        return (
          <span key={m} className={`model-chip${on ? ' on' : ''}`} data-model={m} data-testid="model-chip">
            <label title={on ? `Hide ${m} from the canvas and the list` : `Show ${m}`}>
              <input type="checkbox" checked={on} onChange={() => toggle(m)} aria-label={`Show ${m}`} />
              <span className="swatch" style={{ background: modelColor(i) }} aria-hidden="true" />
              {m}
            </label>
            {duplicateOf[m] && <DuplicateNote model={m} of={duplicateOf[m]} />}
            {gap && gap.count > 0 && (
              <button type="button" className="no-pred" data-testid="no-prediction-count" title={`List the ${gap.count} case(s) ${m} has no prediction for`} onClick={() => showMissing(m, gap.kind)}>
                ⚠ no prediction for {gap.count} case{gap.count === 1 ? '' : 's'}
              </button>
            )}
          </span>
        );
      })}
      <CompareTools models={models.length} />
    </div>
  );
}

/** The workspace on the GT alone: said, with the way to add predictions right there. */
function GtOnlyStrip() {
  const loaded = useBench((s) => s.models.length);
  return (
    <div className="model-strip gt-only" role="group" aria-label="Predictions" data-testid="gt-only-strip">
      <span>
        <strong>Ground truth only</strong>{' '}
        <span className="muted">
          {loaded === 0
            ? '— no predictions loaded: cases are listed and drawn unscored.'
            : `— ${loaded} prediction set${loaded === 1 ? '' : 's'} loaded, not scored yet (see the report): cases are drawn with their GT.`}
        </span>
      </span>
      <AddPredictionsButtons where="workspace" inline />
    </div>
  );
}

/** "Same file content as X": said wherever the model is listed. */
export function DuplicateNote({ model, of }: { model: string; of: { sameAs: string } }) {
  return (
    <span className="no-pred" role="note" data-testid="duplicate-model" title={`${model} has the content of ${of.sameAs} (a 64-bit hash of the bytes, taken as they were read)`}>
      = identical to {of.sameAs}
    </span>
  );
}

/** How the shown models are drawn: model A alone, a pane each, or all in one pane. */
function CompareTools({ models }: { models: number }) {
  const compare = useBench((s) => s.compareMode);
  const setCompare = useBench((s) => s.setCompareMode);
  return (
    <span role="group" aria-label="Compare models" className="compare-tools">
      {(['single', 'side-by-side', 'overlay'] as const).map((m) => (
        <label key={m} title={m === 'single' ? 'model A alone' : m === 'side-by-side' ? 'one pane per shown model, zoom and pan linked' : 'every shown model in one pane, each in its colour'}>
          <input type="radio" name="compare" value={m} checked={compare === m} onChange={() => setCompare(m)} disabled={m !== 'single' && models < 2} /> {m === 'side-by-side' ? 'side by side' : m}
        </label>
      ))}
    </span>
  );
}
