/**
 * The distribution of per-case scores (case.score: per-image hmean, 1 − NED, per-page F1, …) of
 * every model, from the case table. A bin is a button: it makes that model A of the case list and
 * sets A's score range to the bin, so the list shows exactly the bin's cases.
 */
import { useMemo } from 'react';
import { useBench } from '../store';
import { useListCases } from './facets';
import { countTicks, scoreHistogram } from './histogram';
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
  const ticks = countTicks(Math.max(1, ...hist.flatMap((b) => b.counts)));
  const max = ticks.at(-1)!;
  const barW = models.length > 3 ? 6 : 9;
  const groupW = models.length * barW + 6;
  const left = 34;
  const bottom = 40;
  const width = left + hist.length * groupW + 10;
  const top = 20; // room for the axis's name above its top tick
  const plotH = height - bottom - top;
  const y = (v: number) => top + plotH - (v / max) * plotH;
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
        <text x={4} y={10} className="tick">
          cases
        </text>
        {ticks.map((v) => (
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
                    height={Math.max(n > 0 ? 1 : 0, top + plotH - y(n))}
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
        <text x={left + (hist.length * groupW) / 2} y={height - 6} className="tick" textAnchor="middle">
          {scoreLabel} per case
        </text>
      </svg>
      <Legend names={models} />
    </figure>
  );
}
