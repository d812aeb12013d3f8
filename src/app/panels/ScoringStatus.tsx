/**
 * Progress of the running score or of prediction files being read (MiB of a big JSONL), with
 * Cancel; and why the last one did not finish.
 */
import { cancelScoring } from '../store/actions';
import { useBench } from '../store';

export function ScoringStatus() {
  const scoring = useBench((s) => s.scoring);
  const adding = useBench((s) => s.adding);
  const cancelling = useBench((s) => s.cancelling);
  const progress = useBench((s) => s.progress);
  const error = useBench((s) => s.scoreError);
  if (!scoring && !adding) {
    return error ? (
      <p role="alert" className="error score-error">
        {error}
      </p>
    ) : null;
  }
  const pct = progress && progress.total > 0 ? progress.done / progress.total : undefined;
  const what = adding && !scoring ? 'Adding predictions' : 'Scoring';
  return (
    <div className="scoring" role="status" aria-label={what}>
      <span>
        {cancelling ? 'Cancelling…' : what}
        {progress ? ` — ${progress.phase}${progress.label ? ` ${progress.label}` : ''} ${amount(progress.done, progress.total, progress.unit)}` : '…'}
      </span>
      <progress max={1} value={pct} aria-label={`${what} progress`} />
      <button type="button" onClick={() => void cancelScoring()} disabled={cancelling}>
        Cancel
      </button>
    </div>
  );
}

const MIB = 2 ** 20;

/** "412/1,022 MiB" while a big file streams in, "1,200/20,000" for files or cases. */
function amount(done: number, total: number, unit: 'bytes' | undefined): string {
  if (unit !== 'bytes') return `${done.toLocaleString('en')}/${total.toLocaleString('en')}`;
  const mib = (v: number) => Math.round(v / MIB).toLocaleString('en');
  return total > 0 ? `${mib(done)}/${mib(total)} MiB` : `${mib(done)} MiB`;
}
