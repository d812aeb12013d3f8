/** Progress of the running score, with cancel; and why the last score did not finish. */
import { cancelScoring } from '../store/actions';
import { useBench } from '../store';

export function ScoringStatus() {
  const scoring = useBench((s) => s.scoring);
  const cancelling = useBench((s) => s.cancelling);
  const progress = useBench((s) => s.progress);
  const error = useBench((s) => s.scoreError);
  if (!scoring) {
    return error ? (
      <p role="alert" className="error score-error">
        {error}
      </p>
    ) : null;
  }
  const pct = progress && progress.total > 0 ? progress.done / progress.total : undefined;
  return (
    <div className="scoring" role="status" aria-label="Scoring">
      <span>
        {cancelling ? 'Cancelling…' : 'Scoring'}
        {progress ? ` — ${progress.phase}${progress.label ? ` ${progress.label}` : ''} ${progress.done}/${progress.total}` : '…'}
      </span>
      <progress max={1} value={pct} aria-label="Scoring progress" />
      <button type="button" onClick={() => void cancelScoring()} disabled={cancelling}>
        Cancel
      </button>
    </div>
  );
}
