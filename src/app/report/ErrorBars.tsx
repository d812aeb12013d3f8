/**
 * Why the errors happened (shared/specs/errors.md), TIDE-style: for the selected unit, one row
 * per error class with a bar per model — its length the hmean gained by fixing that class alone
 * (dHmean), its label the FN and FP counts. A bar is a button: it lists that model's cases with
 * that class (model A of the case list, error filter "FN <class>" / "FP <class>").
 *
 * The cases carry the classes of one unit only (LTB: the case split; gansulishuzhi: IoU 0.5):
 * for another unit a click first switches the case view to it when the protocol has the option
 * (LTB case_split), or adds the unit's facet when the unit is a part of the case unit (a
 * Chronicles script within all scripts); else the bar is not clickable and says why.
 */
import type { OptionValue, Report, ReportLayout } from '../../core';
import { errorClassKinds } from '../../core/errorClassKinds';
import { caseUnitOf } from '../../core/reportLayout';
import { setOptions } from './setOptions';
import { useBench } from '../store';
import { classRows, maxGain, unitErrors } from './diagnostics';
import { useFacetLookup, useListCases } from './facets';
import { Legend, seriesColor } from './plots';

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)}`);

export function ErrorBars({ report, layout, unit, unitLabel }: { report: Report; layout: ReportLayout; unit: string; unitLabel: string }) {
  const models = Object.keys(report.models);
  const setModels = useBench((s) => s.setModels);
  const setErrorFilter = useBench((s) => s.setErrorFilter);
  const clearCaseFilters = useBench((s) => s.clearCaseFilters);
  const caseB = useBench((s) => s.caseQuery.models.b);
  const setFacetFilter = useBench((s) => s.setFacetFilter);
  const lookup = useFacetLookup();
  const listCases = useListCases();
  const rows = classRows(report, models, unit);
  const totals = models.map((m) => unitErrors(report, m, unit));
  if (totals.every((t) => t === undefined)) return null;
  const max = maxGain(rows, totals);
  const caseUnit = caseUnitOf(layout, report);
  const option = layout.units?.caseOption;
  // A unit inside the case unit (a Chronicles script) is its cases' facet value.
  const item = layout.units?.units.find((u) => u.key === unit);
  const facet =
    unit !== caseUnit && layout.units?.unitFacets && item
      ? [unit, unit.split('/')[0], ...(item.facetValues ?? [])].map((v) => lookup(layout.units!.unitFacets!, v)).find(Boolean)
      : undefined;
  const clickable = unit === caseUnit || option !== undefined || facet !== undefined;
  const list = (model: string, cls: string) => {
    const apply = () =>
      listCases(() => {
        // The other filters are cleared, so the list holds exactly the cases with this class.
        clearCaseFilters();
        setModels(model, caseB !== model ? caseB : null);
        setErrorFilter('a', errorClassKinds(cls));
        if (facet) setFacetFilter(facet.key, facet.value);
      });
    // The bars are at each model's best threshold: cases pinned to another one are first put back.
    const thrOption = layout.units?.caseThresholdOption;
    const pinned = thrOption !== undefined && report.protocol.options[thrOption] !== undefined;
    const change: Record<string, OptionValue | null> = {};
    if (option && unit !== caseUnit && !facet) change[option] = unit;
    if (pinned) change[thrOption] = null;
    if (Object.keys(change).length === 0) apply();
    else void setOptions(change).then(apply);
  };
  const thresholds = totals.map((t, i) => (t && t.threshold !== null ? `${models[i]} ${t.threshold.toFixed(2)}` : null)).filter(Boolean);
  return (
    <figure className="plot error-bars" data-testid="error-bars" data-unit={unit}>
      <figcaption>
        Why the errors happened — {unitLabel}: {item?.label ?? unit}
        {thresholds.length > 0 ? ` (score threshold ${thresholds.join(', ')})` : ''}: hmean gained by fixing each class alone (dHmean × 100), FN / FP
        counts
        {clickable ? ' — click a bar to list those cases' : ` — the cases show ${caseUnit ?? 'another unit'}`}
      </figcaption>
      <table className="error-table">
        <tbody>
          {rows.map((r) => (
            <tr key={r.cls} data-class={r.cls}>
              <th scope="row">{r.cls}</th>
              <td>
                {r.cells.map((c, mi) =>
                  c ? (
                    <button
                      key={models[mi]}
                      type="button"
                      className="error-bar"
                      disabled={!clickable || c.fn + c.fp === 0}
                      data-model={models[mi]}
                      data-class={r.cls}
                      data-fn={c.fn}
                      data-fp={c.fp}
                      aria-label={`${models[mi]} · ${r.cls}: FN ${c.fn}, FP ${c.fp}, dHmean ${pct(c.dhmean)}${clickable ? ' — list these cases' : ''}`}
                      title={`${models[mi]} · ${r.cls}: ${c.fn} FN, ${c.fp} FP; fixing them alone: hmean ${pct(c.dhmean)}`}
                      onClick={() => list(models[mi], r.cls)}
                    >
                      <span className="error-fill" style={{ width: `${Math.max(0, ((c.dhmean ?? 0) / max) * 160)}px`, background: seriesColor(mi) }} />
                      <span className="error-label">
                        {pct(c.dhmean)} · FN {c.fn} · FP {c.fp}
                      </span>
                    </button>
                  ) : null,
                )}
              </td>
            </tr>
          ))}
          {(['all_fn', 'all_fp'] as const).map((k) => (
            <tr key={k} className="summary-row">
              <th scope="row" title={k === 'all_fn' ? 'every FN fixed' : 'every FP removed'}>
                {k === 'all_fn' ? 'all FN' : 'all FP'}
              </th>
              <td>
                {totals.map((t, mi) =>
                  t ? (
                    <span key={models[mi]} className="error-bar total" data-model={models[mi]} data-total={k}>
                      <span className="error-fill" style={{ width: `${Math.max(0, ((t.dhmean[k] ?? 0) / max) * 160)}px`, background: seriesColor(mi) }} />
                      <span className="error-label">{pct(t.dhmean[k])}</span>
                    </span>
                  ) : null,
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Legend names={models} />
    </figure>
  );
}
