/**
 * The filter sidebar: per-model outcome and error chips, a score range, and one checkbox list per
 * facet, each value with the number of cases it would give under the other filters. The compared
 * pair (A, B) comes first; every other shown model (or one still filtered) gets a collapsible group
 * of the same filters in its colour, AND-ed with the rest (issue 13).
 */
import { useState } from 'react';
import { useStore, type StoreApi } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { modelColor } from '../../canvas/style';
import { OUTCOME_CODES, type CaseTable } from '../../../core/caseTable';
import { parseErrorClassKind } from '../../../core/errorClassKinds';
import { REVIEW_STATUSES } from '../../../core/qa';
import { shownModelsOf, type CasesSlice } from '../../store/casesSlice';
import { facetLabel, orderFacetValues } from './format';
import { countsOf, filterOf, isActiveFilter, type FilterTarget, type OutcomeName } from './query';
import { ErrorClassChips } from './ErrorClassChips';
import { SuspectQueue } from './SuspectQueue';

const SHOWN_VALUES = 12;
const isErrorClassKind = (k: string) => parseErrorClassKind(k) !== null;
const OUTCOMES = OUTCOME_CODES.filter((o) => o !== 'none') as OutcomeName[];

export function FacetSidebar({ store, table }: { store: StoreApi<CasesSlice>; table: CaseTable }) {
  const models = useStore(store, (s) => s.caseQuery.models);
  // Shown models outside the pair, plus any model still filtered (hidden or not), in table order.
  const others = useStore(
    store,
    useShallow((s) => {
      const shown = shownModelsOf(table, s.shownModels);
      const byModel = s.caseQuery.byModel ?? {};
      const pair = [s.caseQuery.models.a, s.caseQuery.models.b];
      return table.models.filter((m) => (shown.includes(m) && !pair.includes(m)) || (byModel[m] && isActiveFilter(byModel[m])));
    }),
  );
  return (
    <aside className="cb-sidebar" aria-label="Case filters">
      {(['a', 'b'] as const).map((slot) => (models[slot] ? <ModelFilters key={slot} store={store} table={table} slot={slot} model={models[slot]!} /> : null))}
      {others.map((m) => (
        <details key={m} className="cb-facet cb-model-group" data-testid="model-filter" data-model={m} style={{ borderLeftColor: modelColor(table.models.indexOf(m)) }} open>
          <summary>
            <span className="swatch" style={{ background: modelColor(table.models.indexOf(m)) }} aria-hidden="true" />
            {m}
          </summary>
          <ModelFilters store={store} table={table} slot={{ model: m }} model={m} />
        </details>
      ))}
      {models.a && <ReviewSection store={store} />}
      <SuspectQueue store={store} />
      {table.facets.map((col) => (
        <FacetSection key={col.key} store={store} facetKey={col.key} values={col.values} />
      ))}
    </aside>
  );
}

/** One model's filters: a slot of the pair (with its A/B heading) or a model by name (inside its group). */
function ModelFilters({ store, table, slot, model }: { store: StoreApi<CasesSlice>; table: CaseTable; slot: FilterTarget; model: string }) {
  const filter = useStore(store, (s) => filterOf(s.caseQuery, slot));
  const outcomeCounts = useStore(store, (s) => (s.caseResult ? countsOf(s.caseResult, slot)?.outcomeCounts : undefined));
  const errorCounts = useStore(store, (s) => (s.caseResult ? countsOf(s.caseResult, slot)?.errorCounts : undefined));
  const named = typeof slot !== 'string';
  const label = named ? model : slot.toUpperCase();
  const id = named ? 'm' : slot;
  const { toggleOutcome, toggleErrorKind } = store.getState();
  const allKinds = table.perModel[model]?.errorKinds ?? [];
  // Error classes (errors.md) get their own chips (ErrorClassChips); the bits stay those of allKinds.
  const kinds = allKinds.filter((k) => !isErrorClassKind(k));
  return (
    <section className={named ? undefined : 'cb-facet'} data-testid={named ? undefined : `model-filter-${slot}`}>
      {!named && (
        <h3>
          <span className={`cb-slot cb-slot-${slot}`}>{label}</span> {model}
        </h3>
      )}
      <div className="cb-chips" role="group" aria-label={`Outcome of ${label}`}>
        {OUTCOMES.map((o) => {
          const on = filter.outcomes.includes(o);
          return (
            <button
              key={o}
              type="button"
              className={`cb-chip cb-outcome-${o}${on ? ' cb-on' : ''}`}
              aria-pressed={on}
              data-testid={`outcome-${id}-${o}`}
              onClick={() => toggleOutcome(slot, o)}
            >
              {o} <span className="cb-count">{outcomeCounts?.[OUTCOME_CODES.indexOf(o)] ?? 0}</span>
            </button>
          );
        })}
      </div>
      {kinds.length > 0 && (
        <div className="cb-chips" role="group" aria-label={`Errors of ${label}`}>
          {kinds.map((k) => {
            const bit = allKinds.indexOf(k);
            const on = filter.errorKinds.includes(k);
            return (
              <button key={k} type="button" className={`cb-chip cb-error${on ? ' cb-on' : ''}`} aria-pressed={on} onClick={() => toggleErrorKind(slot, k)}>
                {k} <span className="cb-count">{errorCounts?.[bit] ?? 0}</span>
              </button>
            );
          })}
        </div>
      )}
      <ErrorClassChips store={store} slot={slot} kinds={allKinds} label={label} />
      <ScoreRange store={store} slot={slot} label={label} range={filter.score} />
    </section>
  );
}

function ScoreRange({ store, slot, label, range }: { store: StoreApi<CasesSlice>; slot: FilterTarget; label: string; range: [number, number] | null }) {
  // Uncontrolled inputs, re-created when the range changes elsewhere (URL, clear): typing "0." must not be fought.
  const apply = (form: HTMLFormElement) => {
    const lo = (form.elements.namedItem('lo') as HTMLInputElement).value.trim();
    const hi = (form.elements.namedItem('hi') as HTMLInputElement).value.trim();
    if (lo === '' && hi === '') return store.getState().setScoreRange(slot, null);
    const l = lo === '' ? -Infinity : Number(lo);
    const h = hi === '' ? Infinity : Number(hi);
    if (!Number.isNaN(l) && !Number.isNaN(h) && l <= h) store.getState().setScoreRange(slot, [l, h]);
  };
  const shown = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '' : String(v));
  return (
    <form
      key={range ? range.join('..') : 'none'}
      className="cb-range"
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      onBlur={(e) => apply(e.currentTarget)}
    >
      <label>
        score ≥ <input name="lo" inputMode="decimal" size={4} defaultValue={shown(range?.[0])} aria-label={`Lowest score of ${label}`} />
      </label>
      <label>
        ≤ <input name="hi" inputMode="decimal" size={4} defaultValue={shown(range?.[1])} aria-label={`Highest score of ${label}`} />
      </label>
    </form>
  );
}

function FacetSection({ store, facetKey, values }: { store: StoreApi<CasesSlice>; facetKey: string; values: string[] }) {
  const selected = useStore(store, (s) => s.caseQuery.facets[facetKey]);
  const counts = useStore(store, (s) => s.caseResult?.facetCounts[facetKey]);
  const [expanded, setExpanded] = useState(false);
  const sel = selected ?? [];
  const order = counts ? orderFacetValues(values, counts, sel) : values.map((_, i) => i);
  const shown = expanded ? order : order.slice(0, SHOWN_VALUES);
  const { toggleFacetValue, setFacetFilter } = store.getState();
  return (
    <section className="cb-facet" data-testid={`facet-${facetKey}`}>
      <h3>
        {facetLabel(facetKey)}
        {sel.length > 0 && (
          <button type="button" className="cb-link" onClick={() => setFacetFilter(facetKey, null)}>
            clear
          </button>
        )}
      </h3>
      <ul>
        {shown.map((c) => {
          const v = values[c];
          const n = counts?.[c] ?? 0;
          return (
            <li key={v} className={n === 0 ? 'cb-zero' : undefined}>
              <label>
                <input type="checkbox" checked={sel.includes(v)} onChange={() => toggleFacetValue(facetKey, v)} data-facet-value={v} />
                <span className="cb-value">{v}</span>
                <span className="cb-count" data-testid="facet-count">
                  {n}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {order.length > SHOWN_VALUES && (
        <button type="button" className="cb-link" onClick={() => setExpanded(!expanded)}>
          {expanded ? 'show fewer' : `show all ${order.length}`}
        </button>
      )}
    </section>
  );
}

const STATUS_LABEL: Record<(typeof REVIEW_STATUSES)[number], string> = {
  unreviewed: 'unreviewed',
  ok: 'OK',
  model_error: 'model error',
  gt_wrong: 'GT wrong',
  gt_missing: 'GT missing',
  ambiguous: 'ambiguous',
};

/** Review status of model A's result on each case (issue 8), with counts under the other filters. */
function ReviewSection({ store }: { store: StoreApi<CasesSlice> }) {
  const selected = useStore(store, (s) => s.caseQuery.review);
  const counts = useStore(store, (s) => s.caseResult?.reviewCounts);
  const sel = selected ?? [];
  const { toggleReviewStatus } = store.getState();
  return (
    <section className="cb-facet" data-testid="facet-review">
      <h3>
        Review of <span className="cb-slot cb-slot-a">A</span>
        {sel.length > 0 && (
          <button type="button" className="cb-link" onClick={() => sel.forEach((st) => toggleReviewStatus(st))}>
            clear
          </button>
        )}
      </h3>
      <ul>
        {REVIEW_STATUSES.map((st, c) => {
          const n = counts?.[c] ?? 0;
          return (
            <li key={st} className={n === 0 ? 'cb-zero' : undefined}>
              <label>
                <input type="checkbox" checked={sel.includes(st)} onChange={() => toggleReviewStatus(st)} data-review-status={st} />
                <span className="cb-value">{STATUS_LABEL[st]}</span>
                <span className="cb-count" data-testid="review-count">
                  {n}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
