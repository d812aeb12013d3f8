/**
 * ScoringClient's cancel for prediction reads (issue 6): over a real Comlink channel to a fake
 * worker API, a cancelled add rejects with an AbortError, and when the worker has to be replaced
 * the replay brings back the dataset and the finished adds but never the cancelled one.
 */
import { expose } from 'comlink';
import { describe, expect, it } from 'vitest';
import type { Listing } from '../io/listing';
import { ScoringClient } from './client';

type Call = string;

/** A fake worker: records calls; "stuck" never answers, "slow" waits for cancel. */
function fakeWorkerFactory() {
  const workers: Call[][] = [];
  const make = () => {
    const calls: Call[] = [];
    workers.push(calls);
    let cancel: (() => void) | null = null;
    const api = {
      openDataset: async () => {
        calls.push('open');
        return { models: [] };
      },
      addPredictions: async (listing: Listing, onProgress?: (p: unknown) => void) => {
        calls.push(`add ${listing.label}`);
        await onProgress?.({ phase: 'read', done: 1, total: 2, unit: 'bytes' });
        if (listing.label === 'stuck') return new Promise(() => undefined);
        if (listing.label === 'slow') {
          return new Promise((_, reject) => (cancel = () => reject(new DOMException('cancelled', 'AbortError'))));
        }
        return { added: [listing.label], models: [listing.label] };
      },
      cancel: async () => {
        calls.push('cancel');
        cancel?.();
      },
    };
    const { port1, port2 } = new MessageChannel();
    expose(api, port2);
    return Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker;
  };
  return { make, workers };
}

const listing = (label: string) => ({ kind: 'files', label, files: [] }) as unknown as Listing;

describe('ScoringClient cancel of addPredictions', () => {
  it('a worker that stops on its own: the add rejects as aborted and the worker is kept', async () => {
    const f = fakeWorkerFactory();
    const client = new ScoringClient(f.make);
    await client.open(listing('ds'));
    const seen: unknown[] = [];
    const add = client.addPredictions(listing('slow'), (p) => seen.push(p));
    await expect.poll(() => seen.length).toBe(1);
    await client.cancel();
    await expect(add).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.workers).toHaveLength(1);
    expect(f.workers[0]).toEqual(['open', 'add slow', 'cancel']);
    client.dispose();
  });

  it('a stuck worker is replaced; the replay has the finished add but not the cancelled one', async () => {
    const f = fakeWorkerFactory();
    const client = new ScoringClient(f.make);
    await client.open(listing('ds'));
    expect(await client.addPredictions(listing('a'))).toEqual({ added: ['a'], models: ['a'] });
    const stuck = client.addPredictions(listing('stuck'));
    stuck.catch(() => undefined);
    await expect.poll(() => f.workers[0].includes('add stuck')).toBe(true);
    await client.cancel();
    await expect(stuck).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.workers).toHaveLength(2);
    expect(f.workers[1]).toEqual(['open', 'add a']);
    // The user can add again on the new worker.
    expect(await client.addPredictions(listing('b'))).toEqual({ added: ['b'], models: ['b'] });
    expect(f.workers[1]).toEqual(['open', 'add a', 'add b']);
    client.dispose();
  });

  it('a call made while a stuck worker is being replaced waits for the new worker (and is answered there)', async () => {
    const f = fakeWorkerFactory();
    const client = new ScoringClient(f.make);
    await client.open(listing('ds'));
    const stuck = client.addPredictions(listing('stuck'));
    stuck.catch(() => undefined);
    await expect.poll(() => f.workers[0].includes('add stuck')).toBe(true);
    const cancelling = client.cancel();
    // The user acts at once (e.g. picks another protocol): before, this reached the old worker,
    // which was then terminated, and never settled.
    const next = client.addPredictions(listing('c'));
    await cancelling;
    await expect(stuck).rejects.toMatchObject({ name: 'AbortError' });
    expect(await next).toEqual({ added: ['c'], models: ['c'] });
    expect(f.workers[0]).not.toContain('add c');
    expect(f.workers[1]).toEqual(['open', 'add c']);
    client.dispose();
  });
});
