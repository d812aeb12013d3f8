/**
 * Asks the worker for the uncertainty block of the report on screen, after the report is shown.
 * The latest request wins: a block or progress from an older one (the report changed since) is
 * dropped, never shown against numbers it was not computed from.
 */
import { scoringClient } from '../../worker/client';
import { useBench } from './index';

let run = 0;

const isAbort = (e: unknown): boolean => (e as Error)?.name === 'AbortError' || /cancel|abort/i.test((e as Error)?.message ?? '');

/** Forgets the block (the report it belonged to is gone or replaced) and ignores any request in flight. */
export function dropIntervals(): void {
  run++;
  useBench.setState({ uncertainty: null, intervals: { state: 'none' } });
}

/** Computes the intervals of the current report in the worker; progress goes to the status line. */
export async function computeIntervals(): Promise<void> {
  const id = ++run;
  useBench.setState({ uncertainty: null, intervals: { state: 'computing', done: 0, total: 0 } });
  // Progress comes on its own message channel, so its last tick can arrive after the result.
  let settled = false;
  try {
    const block = await scoringClient().uncertainty((done, total) => {
      if (id === run && !settled) useBench.setState({ intervals: { state: 'computing', done, total } });
    });
    settled = true;
    if (id !== run) return;
    performance.mark('benchlens:intervals-received');
    useBench.setState(block ? { uncertainty: block, intervals: { state: 'done' } } : { uncertainty: null, intervals: { state: 'off' } });
  } catch (e) {
    settled = true;
    if (id !== run) return;
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    useBench.setState({ uncertainty: null, intervals: isAbort(e) ? { state: 'stopped' } : { state: 'failed', message } });
  }
}

/** Stops the intervals being computed (the report stays; "Compute them" starts them again). */
export async function stopIntervals(): Promise<void> {
  if (useBench.getState().intervals.state !== 'computing') return;
  // The client's cancel stops every cancellable call in the worker; while the status line shows
  // "computing" no score or prediction read is running (they would show their own progress).
  await scoringClient().cancel();
}
