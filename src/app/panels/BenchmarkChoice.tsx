/**
 * A folder that holds several benchmarks: say which one was opened (the most confident
 * detection) and ask — every candidate with the reason its detector gave, one click to open the
 * folder as another. Nothing is chosen silently.
 */
import { openAs } from '../store/actions';
import { useBench } from '../store';

export function BenchmarkChoice() {
  const ds = useBench((s) => s.dataset);
  const opening = useBench((s) => s.status === 'opening');
  const candidates = ds?.candidates ?? [];
  if (!ds || candidates.length < 2) return null;
  return (
    <aside className="link-needs" role="group" aria-label="Which benchmark" data-testid="benchmark-choice">
      <strong>“{ds.label}” holds {candidates.length} benchmarks — which one?</strong>{' '}
      {candidates.map((c) => (
        <label key={c.benchmark} className="choice" title={c.reason}>
          <input type="radio" name="benchmark-choice" value={c.benchmark} checked={ds.benchmark === c.benchmark} disabled={opening} onChange={() => void openAs(c.benchmark)} />{' '}
          {c.title} <span className="muted small">({c.reason}; confidence {c.confidence})</span>
        </label>
      ))}
    </aside>
  );
}
