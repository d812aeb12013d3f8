/**
 * Every GT instance and prediction of the case with the same facts as the canvas tooltip, linked
 * both ways: clicking a row selects and zooms to its shape; selecting a shape scrolls to its row.
 * A windowed list of fixed-height rows: an image with 5,000 instances mounts only the few dozen
 * rows on screen (mounting them all took seconds).
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { PaneView, Side } from '../canvas/scene';
import { explain } from '../canvas/explain';
import { styleFor } from '../canvas/style';
import { roleOf, selectedOf } from '../canvas/scene';
import { GlyphText } from './GlyphText';
import { flattenSections, LINE_HEIGHT, ONE_LINE_CHARS, panelSections, rowHeight, visibleRange, type FlatEntry } from './rows';

export interface InstancePanelProps {
  pane: readonly PaneView[];
  /** instanceKey(view, side, id) of the selected instance, or null. */
  selected: string | null;
  /** Side by side: the model whose matching the GT rows' states come from (named in the GT heading). */
  gtStatesOf?: string;
  onSelect(view: number, side: Side, id: number): void;
}

const ellipsis = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
/** At most `n` wrapped lines, the last cut with an ellipsis (the row's tooltip has the full text). */
const clamp = (n: number) => ({ display: '-webkit-box', WebkitLineClamp: n, WebkitBoxOrient: 'vertical', overflow: 'hidden', lineHeight: `${LINE_HEIGHT}px`, overflowWrap: 'anywhere' }) as const;

export const InstancePanel = memo(function InstancePanel({ pane, selected, gtStatesOf, onSelect }: InstancePanelProps) {
  const multi = pane.length > 1;
  // From the instance itself, not explain(): 5,000 rows are measured on every case change.
  // (explain lists an error fact exactly when `error` is set, and its reason is `reason`.)
  const flat = useMemo(() => flattenSections(panelSections(pane, gtStatesOf), (r) => rowHeight(!!r.inst.error, r.inst.reason ?? null)), [pane, gtStatesOf]);
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });

  // Selecting a shape on the canvas brings its row into view.
  useEffect(() => {
    const el = box.current;
    if (!selected || !el) return;
    const e = flat.entries.find((x) => x.row?.key === selected);
    if (!e) return;
    if (e.top < el.scrollTop) el.scrollTop = e.top;
    else if (e.top + e.height > el.scrollTop + el.clientHeight) el.scrollTop = e.top + e.height - el.clientHeight;
  }, [selected, flat]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setScroll((s) => ({ ...s, height: el.clientHeight })));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const [from, to] = visibleRange(flat.entries, scroll.top, scroll.height, 6);
  return (
    <div
      ref={box}
      className="bl-instance-panel"
      data-testid="instance-panel"
      onScroll={(e) => setScroll({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
      style={{ overflow: 'auto', flex: 1, minHeight: 0, fontSize: 12, position: 'relative' }}
    >
      <div style={{ height: flat.total, position: 'relative' }}>
        {flat.entries.slice(from, to).map((e) => (
          <Entry key={e.key} entry={e} multi={multi} selected={selected} onSelect={onSelect} />
        ))}
      </div>
    </div>
  );
});

function Entry({ entry, multi, selected, onSelect }: { entry: FlatEntry; multi: boolean; selected: string | null; onSelect: InstancePanelProps['onSelect'] }) {
  const pos = { position: 'absolute', top: entry.top, height: entry.height, left: 0, right: 0, boxSizing: 'border-box' } as const;
  const r = entry.row;
  if (!r)
    return (
      <h4 title={entry.title} style={{ ...pos, margin: 0, padding: '6px 4px', background: '#1c1c1c', ...ellipsis }}>
        {entry.title}
      </h4>
    );
  const e = explain(r.side, r.inst, multi ? r.model : undefined);
  const st = styleFor(r.side, r.inst.state, roleOf(r.inst), selectedOf(r.inst));
  const isSel = selected === r.key;
  // The error class on lines of its own (it is the row's point), the other facts on one line.
  const error = e.facts.find((f) => f.label === 'error');
  const facts = e.facts
    .filter((f) => f !== error)
    .map((f) => `${f.label}: ${f.value}`)
    .join(' · ');
  return (
    <div
      role="option"
      data-key={r.key}
      data-state={r.inst.state}
      data-error={r.inst.error}
      aria-selected={isSel}
      title={[e.title, ...e.facts.map((f) => `${f.label}: ${f.value}`), ...(e.reason ? [e.reason] : [])].join('\n')}
      onClick={() => onSelect(r.view, r.side, r.inst.id)}
      style={{
        ...pos,
        cursor: 'pointer',
        padding: '3px 6px',
        borderLeft: `4px ${st.dash.length ? 'dashed' : 'solid'} ${st.stroke}`,
        background: isSel ? '#35506b' : 'transparent',
        opacity: st.alpha < 1 ? 0.75 : 1,
        borderBottom: '1px solid #2a2a2a',
      }}
    >
      <div style={{ fontWeight: 600, ...ellipsis }}>
        {e.title}
        {!r.hasShape && <span style={{ fontWeight: 400, opacity: 0.7 }}> (no shape)</span>}
      </div>
      {error && (
        <div data-testid="row-error" style={clamp(2)}>
          <GlyphText text={`${error.label}: ${error.value}`} />
        </div>
      )}
      <div style={ellipsis}>
        <GlyphText text={facts} />
      </div>
      <div style={{ fontStyle: 'italic', ...(e.reason && e.reason.length > ONE_LINE_CHARS ? clamp(2) : ellipsis) }}>{e.reason && <GlyphText text={e.reason} />}</div>
    </div>
  );
}
