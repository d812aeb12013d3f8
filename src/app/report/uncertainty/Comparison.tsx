/**
 * Comparing two models with the paired results of the uncertainty block: the pair (the case
 * list's A and B, so the cases opened from here compare the same two), each headline difference
 * A − B with its interval and whether it is significant after Holm, and "Where do A and B
 * differ": every group / slice ranked by adjusted p, then |Δ|, each a click away from its cases.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Report, ReportLayout } from '../../../core';
import { caseUnitOf } from '../../../core/reportLayout';
import { useBench } from '../../store';
import { useFacetLookup, useListCases } from '../facets';
import { setOptions } from '../setOptions';
import { differencesOf, familiesOf, formatDelta, formatP, headlineDifferences, rankDifferences, type Difference } from './differences';
import { changesCases, groupCases, type GroupCases } from './groupCases';
import { useIntervals } from './context';
import { levelText, SMALL_GROUP } from './intervals';

export function Comparison({ report, layout }: { report: Report; layout: ReportLayout | undefined }) {
  const block = useIntervals();
  const pair = useBench(useShallow((s) => s.caseQuery.models));
  const setModels = useBench((s) => s.setModels);
  const models = Object.keys(report.models);
  if (!block || models.length < 2) return null;
  const a = pair.a !== null && models.includes(pair.a) ? pair.a : models[0];
  const b = pair.b !== null && models.includes(pair.b) && pair.b !== a ? pair.b : models.find((m) => m !== a)!;
  const diffs = differencesOf(block, a, b);
  const headlines = headlineDifferences(diffs, layout?.headlines ?? []);
  const pick = (slot: 'a' | 'b', m: string) => {
    if (slot === 'a') setModels(m, m === b ? a : b);
    else setModels(m === a ? b : a, m);
  };
  return (
    <section className="comparison" aria-label="Comparison" data-testid="comparison">
      <h3>
        Compare{' '}
        {/* Not labelled "Model A": the case list's selects are (and tests find those by label). */}
        <ModelSelect label="Compare (A)" value={a} models={models} onChange={(m) => pick('a', m)} /> with{' '}
        <ModelSelect label="with (B)" value={b} models={models} onChange={(m) => pick('b', m)} />{' '}
        <button type="button" className="link" onClick={() => setModels(b, a)} title="Swap A and B">
          swap
        </button>
      </h3>
      <p className="muted small">
        Δ = A − B on the same resampled units; {levelText(block.level)} interval of Δ; p of the paired randomization test, adjusted over all groups by Holm.
        <strong className="sig"> significant</strong> = adjusted p &lt; {+(1 - block.level).toFixed(6)}.
      </p>
      {headlines.length > 0 && <DiffTable caption="Headline differences" rows={headlines} level={block.level} />}
      <WhereTheyDiffer report={report} layout={layout} diffs={diffs} a={a} b={b} level={block.level} />
    </section>
  );
}

function ModelSelect({ label, value, models, onChange }: { label: string; value: string; models: string[]; onChange(m: string): void }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {models.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
    </select>
  );
}

function WhereTheyDiffer({ report, layout, diffs, a, b, level }: { report: Report; layout: ReportLayout | undefined; diffs: Difference[]; a: string; b: string; level: number }) {
  const families = familiesOf(diffs);
  const [picked, setPicked] = useState<string | null>(null);
  const lookup = useFacetLookup();
  const listCases = useListCases();
  const benchmark = useBench((s) => s.dataset?.benchmark);
  const family = picked !== null && families.includes(picked) ? picked : families[0];
  if (!family || !benchmark) return null;
  const rows = rankDifferences(diffs, family);
  const open = (plan: GroupCases) => {
    const apply = () =>
      listCases(() => {
        // Every other filter is cleared: the list holds exactly the group's cases, A and B this pair.
        const st = useBench.getState();
        st.clearCaseFilters();
        st.setModels(a, b);
        for (const f of plan.facets) st.setFacetFilter(f.key, f.value);
        if (plan.outcomesA) st.setOutcomeFilter('a', plan.outcomesA);
      });
    const caseOption = layout?.units?.caseOption;
    const caseUnit = caseOption && layout ? { key: caseOption, unit: caseUnitOf(layout, report) } : undefined;
    if (plan.options && changesCases(plan.options, report.protocol.options, caseUnit)) void setOptions(plan.options).then(apply);
    else apply();
  };
  return (
    <div className="where-differ" data-testid="where-differ">
      <h4>
        Where do <bdi>{a}</bdi> and <bdi>{b}</bdi> differ
        {families.length > 1 && (
          <>
            {' '}
            in{' '}
            <select aria-label="Compared metric" value={family} onChange={(e) => setPicked(e.target.value)}>
              {families.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </>
        )}
        {families.length === 1 && <> in {family}</>}
      </h4>
      <DiffTable
        caption={`Every group, most significant first (adjusted p, then |Δ|); click a group to list its cases with ${a} as A and ${b} as B`}
        rows={rows}
        level={level}
        groupCell={(d) => {
          const plan = groupCases(benchmark, d.group, lookup);
          const label = groupLabel(layout, d.group);
          return plan ? (
            <button type="button" className="link" data-testid="differ-cases" data-group={d.group} title={`List the cases of ${d.group} (A = ${a}, B = ${b})`} onClick={() => open(plan)}>
              {label}
            </button>
          ) : (
            <span title="the case list has no filter for exactly this group's cases">{label}</span>
          );
        }}
      />
    </div>
  );
}

/** A group's name as the report's tables write it (LTB's split labels, Chronicles' script names), else its id. */
function groupLabel(layout: ReportLayout | undefined, group: string): string {
  if (group === 'all') return 'all (the whole dataset)';
  const rows = (layout?.sections ?? []).flatMap((s) => (s.kind === 'grid' && Array.isArray(s.rows) ? s.rows : []));
  return layout?.units?.units.find((u) => u.key === group)?.label ?? rows.find((r) => r.key === group)?.label ?? group;
}

function DiffTable({ caption, rows, level, groupCell }: { caption: string; rows: Difference[]; level: number; groupCell?: (d: Difference) => React.ReactNode }) {
  const alpha = 1 - level;
  return (
    <table className="metrics diff-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{groupCell ? 'group' : 'metric'}</th>
          <th scope="col">n</th>
          <th scope="col">Δ (A − B)</th>
          <th scope="col">{levelText(level)} interval</th>
          <th scope="col">p</th>
          <th scope="col">adjusted p</th>
          <th scope="col">
            <span className="sr-only">significance</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={`${d.group}\u0000${d.key}`} data-group={d.group} data-key={d.key} data-significant={d.significant}>
            <th scope="row">{groupCell ? groupCell(d) : d.key}</th>
            <td className="num">
              {d.units ?? '—'}
              {d.units !== undefined && d.units < SMALL_GROUP && <span className="small-n"> n &lt; {SMALL_GROUP}</span>}
            </td>
            <td className="num" title={`${d.key}: A − B = ${String(d.diff)}`}>
              {formatDelta(d.key, d.diff)}
            </td>
            <td className="num" title={`[${String(d.ci[0])}, ${String(d.ci[1])}]`}>
              {formatDelta(d.key, d.ci[0])} … {formatDelta(d.key, d.ci[1])}
            </td>
            <td className="num" title={`p = ${String(d.p)}`}>
              {formatP(d.p)}
            </td>
            <td className="num" title={`Holm-adjusted p = ${String(d.p_holm)}`}>
              {formatP(d.p_holm)}
            </td>
            <td>{d.significant ? <strong className="sig" title={`adjusted p < ${+alpha.toFixed(6)}`}>significant</strong> : <span className="muted">not significant</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
