/** Work put off until the main thread is idle: requestIdleCallback, or a timer where there is none. */
export type IdleHandle = { idle: number } | { timer: ReturnType<typeof setTimeout> };

/** Runs `f` when the main thread is idle. */
export function whenIdle(f: () => void): IdleHandle {
  return typeof requestIdleCallback === 'function' ? { idle: requestIdleCallback(() => f()) } : { timer: setTimeout(f, 50) };
}

/** Cancels work put off by whenIdle (nothing if it has run). */
export function cancelIdle(h: IdleHandle): void {
  if ('idle' in h) cancelIdleCallback(h.idle);
  else clearTimeout(h.timer);
}

/**
 * Runs `step` when the main thread is idle, and again in a later idle period for as long as it
 * returns true (more to do): work cut into steps, so that no idle task is long enough to hold up
 * input that comes during it. Returns a function that cancels the next step.
 */
export function idleSteps(step: () => boolean): () => void {
  let h = whenIdle(function run() {
    if (step()) h = whenIdle(run);
  });
  return () => cancelIdle(h);
}
