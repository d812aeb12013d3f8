/**
 * One line under the report's protocol saying where its intervals are: computing (with progress),
 * there (how they were made, how to see them), off, stopped or failed. The report itself never
 * waits for them.
 */
import { useBench } from '../../store';
import { computeIntervals, stopIntervals } from '../../store/uncertaintyActions';
import { levelText, SMALL_GROUP } from './intervals';

export function IntervalsStatus() {
  const status = useBench((s) => s.intervals);
  const block = useBench((s) => s.uncertainty);
  const scoring = useBench((s) => s.scoring);
  switch (status.state) {
    case 'none':
      return null;
    case 'computing': {
      const pct = status.total > 0 ? Math.floor((100 * status.done) / status.total) : 0;
      return (
        <p className="intervals-status" role="status" data-testid="intervals-status" data-state="computing">
          Intervals: computing {pct} %…{' '}
          <progress max={1} value={status.total > 0 ? status.done / status.total : undefined} aria-label="Intervals progress" />{' '}
          <button type="button" className="link" onClick={() => void stopIntervals()}>
            Stop
          </button>
        </p>
      );
    }
    case 'done':
      return block ? (
        <p className="intervals-status muted" role="status" data-testid="intervals-status" data-state="done">
          {levelText(block.level)} intervals ({block.method}, {block.replicates} replicates, {block.permutations} permutations, seed {block.seed}): hover a number; “n &lt; {SMALL_GROUP}” marks a group of fewer than{' '}
          {SMALL_GROUP} units, whose interval is rough.
        </p>
      ) : null;
    case 'off':
      return (
        <p className="intervals-status muted" role="status" data-testid="intervals-status" data-state="off">
          Intervals off (protocol option ci=off).
        </p>
      );
    case 'stopped':
      return (
        <p className="intervals-status muted" role="status" data-testid="intervals-status" data-state="stopped">
          Intervals stopped{scoring ? ' — a new score is running' : ''}.{' '}
          {!scoring && (
            <button type="button" className="link" onClick={() => void computeIntervals()}>
              Compute them
            </button>
          )}
        </p>
      );
    case 'failed':
      return (
        <p className="intervals-status error" role="alert" data-testid="intervals-status" data-state="failed">
          Intervals: {status.message}
        </p>
      );
  }
}
