import { afterEach, describe, expect, it, vi } from 'vitest';
import { idleSteps } from './idle';

afterEach(() => vi.useRealTimers());

describe('idleSteps', () => {
  it('runs one step per idle period while the step says there is more, and stops when cancelled', () => {
    // No requestIdleCallback here (Node): an idle period is a 50-ms timer.
    vi.useFakeTimers();
    let left = 3;
    const step = vi.fn(() => --left > 0);
    idleSteps(step);
    expect(step).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(50);
    expect(step).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(step).toHaveBeenCalledTimes(3);

    const more = vi.fn(() => true);
    const cancel = idleSteps(more);
    vi.advanceTimersByTime(100);
    expect(more).toHaveBeenCalledTimes(2);
    cancel();
    vi.advanceTimersByTime(500);
    expect(more).toHaveBeenCalledTimes(2);
  });
});
