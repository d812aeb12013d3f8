/**
 * The page's side of the intervals, with the worker client replaced by a controllable fake: the
 * latest request wins, a progress tick that arrives after the block (it travels on its own
 * message channel) does not put "computing" back, and an abort reads as "stopped".
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UncertaintyBlock } from '../../core';

type Progress = (done: number, total: number) => void;
const calls: { progress?: Progress; resolve(b: UncertaintyBlock | null): void; reject(e: Error): void }[] = [];

vi.mock('../../worker/client', () => ({
  scoringClient: () => ({
    uncertainty: (progress?: Progress) =>
      new Promise<UncertaintyBlock | null>((resolve, reject) => {
        calls.push({ progress, resolve, reject });
      }),
  }),
}));

const { useBench } = await import('./index');
const { computeIntervals, dropIntervals } = await import('./uncertaintyActions');

const block = (seed: number): UncertaintyBlock => ({
  schema: 1,
  method: 'm',
  level: 0.95,
  replicates: 10,
  permutations: 10,
  seed,
  groups: [{ id: 'all', units: 3 }],
  intervals: {},
  pairs: [],
});

beforeEach(() => {
  calls.length = 0;
  dropIntervals();
});

describe('computeIntervals', () => {
  it('shows progress, then the block; a tick arriving after the block is ignored', async () => {
    const done = computeIntervals();
    expect(useBench.getState().intervals).toEqual({ state: 'computing', done: 0, total: 0 });
    calls[0].progress!(4, 10);
    expect(useBench.getState().intervals).toEqual({ state: 'computing', done: 4, total: 10 });
    calls[0].resolve(block(1));
    await done;
    calls[0].progress!(10, 10);
    expect(useBench.getState().intervals).toEqual({ state: 'done' });
    expect(useBench.getState().uncertainty?.seed).toBe(1);
  });

  it('drops the answer to an older request (the report changed since)', async () => {
    const first = computeIntervals();
    const second = computeIntervals();
    calls[1].resolve(block(2));
    await second;
    calls[0].resolve(block(1));
    calls[0].progress!(1, 10);
    await first;
    expect(useBench.getState().uncertainty?.seed).toBe(2);
    expect(useBench.getState().intervals).toEqual({ state: 'done' });
  });

  it('says off for ci=off, stopped for an abort, and the message of a failure', async () => {
    let p = computeIntervals();
    calls[0].resolve(null);
    await p;
    expect(useBench.getState().intervals).toEqual({ state: 'off' });
    p = computeIntervals();
    calls[1].reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    await p;
    expect(useBench.getState().intervals).toEqual({ state: 'stopped' });
    expect(useBench.getState().uncertainty).toBeNull();
    p = computeIntervals();
    calls[2].reject(new Error('uncertainty: not yet available for x\nsecond line'));
    await p;
    expect(useBench.getState().intervals).toEqual({ state: 'failed', message: 'uncertainty: not yet available for x' });
  });

  it('forgets the block when the report goes (dropIntervals), and a late answer stays dropped', async () => {
    const p = computeIntervals();
    dropIntervals();
    calls[0].resolve(block(3));
    await p;
    expect(useBench.getState().uncertainty).toBeNull();
    expect(useBench.getState().intervals).toEqual({ state: 'none' });
  });
});
