/**
 * The outcome of the last prediction files added, above both views (report and workspace): every
 * file of the selection that was not added, each with its reason, verdict first — and the last
 * model operation's error. It stays until dismissed or the next add, so a refusal is never shown
 * only in a sidebar of the other view.
 */
import { useShallow } from 'zustand/react/shallow';
import { VerdictText } from '../messages/VerdictText';
import { useBench } from '../store';

export function ModelNotice() {
  const refusals = useBench(useShallow((s) => s.refusals));
  const added = useBench(useShallow((s) => s.lastAdded));
  const error = useBench((s) => s.modelError);
  const dismiss = useBench((s) => s.dismissModelNotice);
  if (refusals.length === 0 && !error) return null;
  const n = refusals.length;
  // Without refusals the notice carries a failed rename / removal / read (modelError).
  const heading = n === 0 ? 'The models were not changed' : n === 1 ? '1 prediction file not added' : `${n} prediction files not added`;
  return (
    <section className="model-notice" role="alert" aria-label={n > 0 ? 'Prediction files not added' : 'Models not changed'}>
      <div className="model-notice-head">
        <h3>{heading}</h3>
        <button type="button" className="icon" aria-label="Dismiss" title="Dismiss" onClick={dismiss}>
          ×
        </button>
      </div>
      <ul>
        {refusals.map((r, i) => (
          <li key={`${i}:${r.file}`} data-file={r.file}>
            <VerdictText message={r.message} />
          </li>
        ))}
        {n > 0 && added.length > 0 && (
          <li className="notice-added">
            Added from the same selection: <bdi>{added.join(', ')}</bdi>
          </li>
        )}
        {error && (
          <li>
            <VerdictText message={error} />
          </li>
        )}
      </ul>
    </section>
  );
}
