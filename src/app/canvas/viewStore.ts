/**
 * The live view transform of one CaseViewer, outside React state: a pan or zoom step re-renders
 * only what shows the transform (the panes, the zoom level, a tooltip pinned to a shape, the GT
 * editor's frame), not the whole viewer with its toolbar and instance panel.
 *
 * Measured with `npm run bench -- viewer` (5,000 polygons, displayed frames from a DevTools
 * trace): with the transform in the viewer's state, every step re-rendered the viewer, about
 * 6.6–7.6 ms of main-thread CPU per displayed frame.
 *
 * The view belongs to one case: it is stored with the case key and reads as the fit view once
 * the case changes (a new case opens fitted, whatever the last one was zoomed to).
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { ViewTransform } from './transform';

interface Stored {
  caseKey: string;
  t: ViewTransform;
}

export class ViewStore {
  private value: Stored | null = null;
  private listeners = new Set<() => void>();
  private frame = 0;

  /** The stored view of `caseKey`, or `fallback` (the fit view) when none is stored for it. */
  get(caseKey: string, fallback: ViewTransform): ViewTransform {
    const v = this.value;
    return v && v.caseKey === caseKey ? v.t : fallback;
  }

  /** What subscribers compare (stable until the next change). */
  snapshot = (): Stored | null => this.value;

  /**
   * Sets the view of `caseKey`. `deferred`: tell the subscribers at the next animation frame
   * (wheel events can arrive several per frame; `get` is current at once either way).
   */
  set(caseKey: string, t: ViewTransform, deferred = false): void {
    this.value = { caseKey, t };
    if (!deferred) {
      if (this.frame) cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.notify();
    } else if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.notify();
      });
    }
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private notify(): void {
    for (const fn of [...this.listeners]) fn();
  }
}

/** The live transform of `caseKey` (the fit view until one is set); re-renders on every change. */
export function useLiveTransform(store: ViewStore, caseKey: string, fit: ViewTransform): ViewTransform {
  useSyncExternalStore(store.subscribe, store.snapshot);
  return store.get(caseKey, fit);
}

/** A stable `(fn) => void` that applies a view change to the live transform of `caseKey`. */
export function useTransformUpdater(store: ViewStore, caseKey: string, fit: ViewTransform) {
  return useCallback(
    (fn: (t: ViewTransform) => ViewTransform, deferred = false) => store.set(caseKey, fn(store.get(caseKey, fit)), deferred),
    [store, caseKey, fit],
  );
}
