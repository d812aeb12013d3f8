/**
 * Change notices for reviews and corrections, so every view of a dataset stays current: the
 * same tab gets them through a local listener set, other tabs (and workers) through a
 * BroadcastChannel named `benchlens-reviews`. A notice says what changed; listeners re-read it
 * from IndexedDB (the notice never carries the data, so it can never be stale or partial).
 */
export const REVIEWS_CHANNEL = 'benchlens-reviews';

export interface ChangeNotice {
  fingerprint: string;
  table: 'reviews' | 'corrections';
  /** The rows that changed; absent means "many changed, reload everything" (import, clear). */
  keys?: { subject?: string; case_id: string; id?: string }[];
  /** Set on notices about this tab's unsaved (in-memory) reviews; never sent to other tabs. */
  local?: true;
}

type Listener = (n: ChangeNotice) => void;
const local = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(REVIEWS_CHANNEL) : null;
    channel?.addEventListener('message', (ev: MessageEvent<ChangeNotice>) => {
      for (const fn of [...local]) fn(ev.data);
    });
  }
  return channel;
}

/** Called after a write has committed. */
export function announce(n: ChangeNotice): void {
  for (const fn of [...local]) fn(n);
  try {
    getChannel()?.postMessage(n);
  } catch {
    // A closed channel (page unloading) only costs other tabs a live update; the data is saved.
  }
}

/** A change only this tab can see (its unsaved reviews): not broadcast. */
export function announceLocal(n: ChangeNotice): void {
  for (const fn of [...local]) fn({ ...n, local: true });
}

/** Listen to changes from this tab and from others; returns the unsubscribe function. */
export function onChange(fn: Listener): () => void {
  getChannel();
  local.add(fn);
  return () => local.delete(fn);
}

/** Tests close the channel so Node can exit. */
export function closeChannel(): void {
  channel?.close();
  channel = undefined;
}
