/**
 * The distribution of per-case scores (case.score: per-image hmean, 1 − NED, per-page F1, …) of
 * every model, from the case table. A bin is a button: it makes that model A of the case list and
 * sets A's score range to the bin, so the list shows exactly the bin's cases.
 */
import { useMemo } from 'react';
import { useBench } from '../store';
import { useListCases } from './facets';
import { scoreHistogram } from './histogram';
import { Legend, seriesColor } from './plots';

export function ScoreHistogram({ title, scoreLabel, bins, height = 170 }: { title: string; scoreLabel: string; bins: number; height?: number }) {
  const table = useBench((s) => s.caseTable);
  const setModels = useBench((s) => s.setModels);
  const setScoreRange = useBench((s) => s.setScoreRange);
  const clearCaseFilters = useBench((s) => s.clearCaseFilters);
  const caseB = useBench((s) => s.caseQuery.models.b);
  const listCases = useListCases();
  const models = table?.models ?? [];
  const hist = useMemo(() => (table ? scoreHistogram(table.models.map((m) => table.perModel[m].score), bins) : []), [table, bins]);
  if (!table || hist.length === 0 || models.length === 0) return null;
  const max = Math.max(1, ...hist.flatMap((b) => b.counts));
  const barW = models.length > 3 ? 6 : 9;
  const groupW = models.length * barW + 6;
  const left = 34;
  const bottom = 30;
  const width = left + hist.length * groupW + 10;
  const plotH = height - bottom - 10;
  const y = (v: number) => 10 + plotH - (v / max) * plotH;
  // Other filters are cleared first, so the list holds exactly the bin's cases.
  const pick = (model: string, range: [number, number]) =>
    listCases(() => {
      clearCaseFilters();
      setModels(model, caseB !== model ? caseB : null);
      setScoreRange('a', range);
    });
  return (
    <figure className="plot" data-testid="score-histogram">
      <figcaption>
        {title} — cases per bin of {scoreLabel} (click a bar to list them)
      </figcaption>
      <svg width={width} height={height} role="img" aria-label={title}>
        {[...new Set([0, Math.round(max / 2), max])].map((v) => (
          <g key={v}>
            <line x1={left} x2={width - 5} y1={y(v)} y2={y(v)} className="grid" />
            <text x={left - 4} y={y(v) + 4} textAnchor="end" className="tick">
              {v}
            </text>
          </g>
        ))}
        {hist.map((b, bi) => {
          const x0 = left + bi * groupW + 3;
          return (
            <g key={bi}>
              {models.map((m, mi) => {
                const n = b.counts[mi];
                const label = `${m} · ${scoreLabel} ${b.from.toFixed(2)}–${b.to.toFixed(2)}: ${n} case${n === 1 ? '' : 's'} — click to list them`;
                return (
                  <rect
                    key={m}
                    x={x0 + mi * barW}
                    y={y(n)}
                    width={barW - 1}
                    height={Math.max(n > 0 ? 1 : 0, 10 + plotH - y(n))}
                    fill={seriesColor(mi)}
                    className="bar clickable"
                    role="button"
                    aria-label={label}
                    data-model={m}
                    data-bin={bi}
                    data-count={n}
                    onClick={() => pick(m, b.range)}
                  >
                    <title>{label}</title>
                  </rect>
                );
              })}
              {bi % 2 === 0 && (
                <text x={x0} y={height - bottom + 14} className="tick">
                  {b.from.toFixed(1)}
                </text>
              )}
            </g>
          );
        })}
        <text x={left + hist.length * groupW} y={height - bottom + 14} className="tick" textAnchor="end">
          {hist.at(-1)!.to.toFixed(1)}
        </text>
      </svg>
      <Legend names={models} />
    </figure>
  );
}
