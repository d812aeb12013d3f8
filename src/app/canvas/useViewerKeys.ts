/** Keyboard-first viewing: dispatches KEY_BINDINGS to handlers; keys typed into fields are left alone. */
import { useEffect, useRef } from 'react';
import { actionFor, isTypingTarget, type ViewerAction } from './keys';

export type ViewerKeyHandlers = Partial<Record<ViewerAction, () => void>>;

export function useViewerKeys(handlers: ViewerKeyHandlers, enabled = true): void {
  // The latest handlers, read at key time, so the listener is attached once.
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTypingTarget(e.target as HTMLElement | null)) return;
      const action = actionFor(e);
      const fn = action ? ref.current[action] : undefined;
      if (!fn) return;
      e.preventDefault();
      fn();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
