/**
 * Small SVG plots of the report. Bars are buttons: clicking one filters the case list to that
 * facet value (the store's setFacetFilter; the case list applies it).
 *
 * Hand-made SVG rather than a plotting library: the plots are bars, lines and histograms whose
 * every mark is a button carrying data attributes the case list and the tests use; a library
 * (recharts ≈ 100 kB gzipped with d3, Plotly ≈ 1 MB) would add more bytes than this whole file
 * while its clicks would still need wiring by hand.
 */
import { formatMetric } from './format';

/**
 * Okabe & Ito's colour-blind-safe palette (Color Universal Design), in an order where the first
 * five stay apart under deuteranopia, protanopia and tritanopia; lines also differ by dash.
 */
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const DASHES = ['', '6 3', '2 2', '8 3 2 3', '4 4', '1 3', '10 2', '3 6'];
export const seriesColor = (i: number): string => COLORS[i % COLORS.length];
export const seriesDash = (i: number): string => DASHES[i % DASHES.length];

export interface BarGroup {
  label: string;
  /** Facet filter a click applies; absent = the bar is not clickable. */
  facet?: { key: string; value: string };
}

export interface Series {
  name: string;
  /** One value per group (or per x for lines); undefined = no value. */
  values: (number | undefined)[];
  /** Bars only: per group, why it has no data ("gt 0, pred 0"), drawn as a "no data" mark. */
  noData?: (string | undefined)[];
  /** Bars: per group, the value's interval, drawn as a whisker; undefined = none. */
  intervals?: (readonly [number, number] | undefined)[];
  /** How an interval reads in a bar's tooltip (e.g. "95 % interval"). */
  intervalLabel?: string;
}

export function BarChart({
  title,
  metric,
  groups,
  series,
  onSelect,
  note,
  height = 180,
}: {
  title: string;
  /** A metric key of the plotted kind, for formatting (e.g. 'x/hmean'). */
  metric: string;
  groups: BarGroup[];
  series: Series[];
  onSelect?: (facet: { key: string; value: string }) => void;
  /** A line under the plot (e.g. which groups have fewer than 30 units). */
  note?: string;
  height?: number;
}) {
  const max = scaleMax(series.map((s) => ({ values: [...s.values, ...(s.intervals ?? []).map((ci) => ci?.[1])] })), metric);
  const groupW = Math.max(24, series.length * 12 + 10);
  // Group names are drawn slanted 40° up to the right, ending under their bars: room on the left
  // for the first one and below for the longest, so none is cut ("acro_precision", issue #42).
  const labelW = (t: string) => [...t].length * 6.4;
  const left = Math.max(34, Math.ceil(0.77 * labelW(groups[0]?.label ?? '') - 5 - (series.length * 12) / 2 + 6));
  const bottom = Math.max(58, Math.ceil(0.64 * Math.max(0, ...groups.map((g) => labelW(g.label))) + 22));
  const width = left + groups.length * groupW + 10;
  const plotH = height - bottom - 10;
  const y = (v: number) => 10 + plotH - (v / max) * plotH;
  return (
    <figure className="plot">
      <figcaption>{title}</figcaption>
      <svg width={width} height={height} role="img" aria-label={title}>
        <YGrid left={left} right={width - 5} y={y} max={max} metric={metric} />
        {groups.map((g, gi) => {
          const x0 = left + gi * groupW + 5;
          const facet = g.facet;
          return (
            <g key={g.label}>
              {series.every((s) => s.noData?.[gi] !== undefined) && (
                <text x={x0 + (series.length * 12) / 2} y={10 + plotH - 6} className="tick no-data" textAnchor="start" transform={`rotate(-90 ${x0 + (series.length * 12) / 2} ${10 + plotH - 6})`}>
                  no data
                </text>
              )}
              {series.map((s, si) => {
                const v = s.values[gi];
                const why = s.noData?.[gi];
                if (why !== undefined) {
                  const label = `${s.name} · ${g.label}: no data (${why})`;
                  return (
                    <rect key={s.name} x={x0 + si * 12} y={10 + plotH - 3} width={10} height={3} className="bar no-data" fill="#d1d5db" data-no-data="true" aria-label={label}>
                      <title>{label}</title>
                    </rect>
                  );
                }
                if (v === undefined) return null;
                const ci = s.intervals?.[gi];
                const ciText = ci ? ` (${s.intervalLabel ?? 'interval'} ${formatMetric(metric, ci[0])} – ${formatMetric(metric, ci[1])})` : '';
                const label = `${s.name} · ${g.label}: ${formatMetric(metric, v)}${ciText}${facet && onSelect ? ' — click to list these cases' : ''}`;
                const bar = (
                  <rect
                    key={s.name}
                    x={x0 + si * 12}
                    y={y(v)}
                    width={10}
                    height={Math.max(0, 10 + plotH - y(v))}
                    fill={seriesColor(si)}
                    className={facet && onSelect ? 'bar clickable' : 'bar'}
                    data-facet-value={facet?.value}
                    role={facet && onSelect ? 'button' : undefined}
                    aria-label={label}
                    onClick={facet && onSelect ? () => onSelect(facet) : undefined}
                  >
                    <title>{label}</title>
                  </rect>
                );
                return ci ? (
                  <g key={s.name}>
                    {bar}
                    <Whisker x={x0 + si * 12 + 5} top={y(ci[1])} bottom={y(ci[0])} />
                  </g>
                ) : (
                  bar
                );
              })}
              <text x={x0 + (series.length * 12) / 2} y={height - bottom + 14} className="tick" textAnchor="end" transform={`rotate(-40 ${x0 + (series.length * 12) / 2} ${height - bottom + 14})`}>
                {g.label}
              </text>
            </g>
          );
        })}
      </svg>
      <Legend names={series.map((s) => s.name)} />
      {note && <p className="plot-note small-n">{note}</p>}
    </figure>
  );
}

/** An interval drawn over a bar: a vertical line with caps (not clickable: clicks reach the bar). */
function Whisker({ x, top, bottom }: { x: number; top: number; bottom: number }) {
  return (
    <g className="whisker" data-testid="whisker" pointerEvents="none">
      <line x1={x} x2={x} y1={top} y2={bottom} />
      <line x1={x - 3} x2={x + 3} y1={top} y2={top} />
      <line x1={x - 3} x2={x + 3} y1={bottom} y2={bottom} />
    </g>
  );
}

export function LineChart({
  title,
  metric,
  xs,
  series,
  marks,
  onPoint,
  pointHint = 'click to list these cases',
  width = 320,
  height = 180,
}: {
  title: string;
  metric: string;
  xs: number[];
  series: Series[];
  /** Per series, the x index to mark (e.g. the best threshold). */
  marks?: (number | undefined)[];
  /** Makes every point a button: (series index, x index). */
  onPoint?: (series: number, x: number) => void;
  pointHint?: string;
  width?: number;
  height?: number;
}) {
  const left = 34;
  const bottom = 24;
  const plotW = width - left - 10;
  const plotH = height - bottom - 10;
  const max = scaleMax(series, metric);
  const x = (i: number) => left + (xs.length <= 1 ? 0 : (i / (xs.length - 1)) * plotW);
  const y = (v: number) => 10 + plotH - (v / max) * plotH;
  return (
    <figure className="plot">
      <figcaption>{title}</figcaption>
      <svg width={width} height={height} role="img" aria-label={title}>
        <YGrid left={left} right={width - 5} y={y} max={max} metric={metric} />
        {xs.map((xv, i) => (
          <text key={i} x={x(i)} y={height - 6} textAnchor="middle" className="tick">
            {xv.toFixed(1)}
          </text>
        ))}
        {series.map((s, si) => {
          const pts = s.values.map((v, i) => (v === undefined ? null : `${x(i)},${y(v)}`)).filter(Boolean);
          const mark = marks?.[si];
          return (
            <g key={s.name}>
              <polyline points={pts.join(' ')} fill="none" stroke={seriesColor(si)} strokeWidth={2} strokeDasharray={seriesDash(si)} />
              {s.values.map((v, i) => {
                if (v === undefined) return null;
                const label = `${s.name} @ ${xs[i].toFixed(1)}: ${formatMetric(metric, v)}${i === mark ? ' (best)' : ''}${onPoint ? ` — ${pointHint}` : ''}`;
                return (
                  <circle
                    key={i}
                    cx={x(i)}
                    cy={y(v)}
                    r={i === mark ? 5 : onPoint ? 4 : 2.5}
                    fill={i === mark ? 'white' : seriesColor(si)}
                    stroke={seriesColor(si)}
                    strokeWidth={2}
                    className={onPoint ? 'point clickable' : 'point'}
                    data-series={s.name}
                    data-x={xs[i]}
                    role={onPoint ? 'button' : undefined}
                    aria-label={onPoint ? label : undefined}
                    onClick={onPoint ? () => onPoint(si, i) : undefined}
                  >
                    <title>{label}</title>
                  </circle>
                );
              })}
            </g>
          );
        })}
      </svg>
      <Legend names={series.map((s) => s.name)} />
    </figure>
  );
}

export function Legend({ names }: { names: string[] }) {
  return (
    <div className="legend">
      {names.map((n, i) => (
        <span key={n}>
          <span className="swatch" style={{ background: seriesColor(i) }} />
          {n}
        </span>
      ))}
    </div>
  );
}

/** Rates are plotted on a 0–100 % axis even when every value is small. */
function metricMax(metric: string): number {
  return /(hmean|precision|recall|f1|accuracy|overall|average|iou)/.test(metric) ? 1 : 0;
}

/** The top of the value axis: the metric's natural maximum, or the largest value if above it. */
function scaleMax(series: readonly { values: readonly (number | undefined)[] }[], metric: string): number {
  return Math.max(1e-9, metricMax(metric), ...series.flatMap((s) => s.values.filter((v): v is number => v !== undefined)));
}

/** Horizontal grid lines with labels at 0, ½ and the top of the value axis. */
export function YGrid({ left, right, y, max, metric }: { left: number; right: number; y: (v: number) => number; max: number; metric: string }) {
  return (
    <>
      {[0, 0.5, 1].map((t) => (
        <g key={t}>
          <line x1={left} x2={right} y1={y(t * max)} y2={y(t * max)} className="grid" />
          <text x={left - 4} y={y(t * max) + 4} textAnchor="end" className="tick">
            {formatMetric(metric, t * max, 0)}
          </text>
        </g>
      ))}
    </>
  );
}
