/**
 * Everything that was dropped or looked wrong: dataset warnings and, per model, the malformed
 * lines ("line 17: not valid JSON"). Shown as text, never as HTML.
 */
import { useBench } from '../store';
import { showBidiControls } from '../bidiText';

const SHOWN = 200;

export function WarningsPanel() {
  const datasetWarnings = useBench((s) => s.dataset?.info.warnings);
  const report = useBench((s) => s.report);
  const perModel = report ? Object.entries(report.models).filter(([, m]) => m.warnings.length > 0) : [];
  const total = (datasetWarnings?.length ?? 0) + perModel.reduce((n, [, m]) => n + m.warnings.length, 0);
  return (
    <section className="panel warnings" aria-label="Warnings">
      <h3>Warnings ({total})</h3>
      {total === 0 && <p className="muted">None.</p>}
      {datasetWarnings && datasetWarnings.length > 0 && <WarningList title="dataset" items={datasetWarnings} />}
      {perModel.map(([name, m]) => (
        <WarningList key={name} title={name} items={m.warnings} malformed={m.counts.malformed_lines} />
      ))}
    </section>
  );
}

function WarningList({ title, items, malformed }: { title: string; items: string[]; malformed?: number }) {
  return (
    <details open={items.length <= 5}>
      <summary>
        <bdi>{title}</bdi>: {items.length} warning{items.length === 1 ? '' : 's'}
        {malformed ? `, ${malformed} malformed line${malformed === 1 ? '' : 's'}` : ''}
      </summary>
      <ul>
        {items.slice(0, SHOWN).map((w, i) => (
          <li key={i}>{showBidiControls(w)}</li>
        ))}
        {items.length > SHOWN && <li className="muted">…and {items.length - SHOWN} more (all of them are in report.json)</li>}
      </ul>
    </details>
  );
}
