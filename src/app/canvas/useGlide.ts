/**
 * Plays a pane's glides (glide.ts) on its stage's wrapper, whose CSS transform (`motion`, set by
 * React) is the glide's end: a Web Animation of that transform from the view on screen, which the
 * compositor runs on its own thread. Nothing is drawn for it.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { GLIDE_EASING, glideFrames, gliding, nextGlide, type Glide } from './glide';
import { same, byWheelNotch } from './useSettledView';
import type { ViewTransform } from './transform';

// The user's "reduce motion" setting: notches then jump, as they did before glides.
let reduced: MediaQueryList | null | undefined;
const reducedMotion = () => (reduced ??= typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null)?.matches ?? false;

/**
 * `drawn`: the view the canvases were drawn at (the transform's basis); `live`: the view.
 * `enabled` false (an editor laid over the pane, which follows the view without a glide), or the
 * user's reduced-motion setting: jumps.
 */
export function useGlide(el: RefObject<HTMLElement | null>, drawn: ViewTransform, live: ViewTransform, enabled: boolean): void {
  const state = useRef<{ live: ViewTransform; glide: Glide | null; anim: Animation | null }>({ live, glide: null, anim: null });
  useLayoutEffect(() => {
    const s = state.current;
    const now = performance.now();
    const before = s.live;
    s.live = live;
    if (!same(before, live)) {
      s.glide = enabled && !reducedMotion() ? nextGlide(s.glide, before, live, byWheelNotch(), now) : null;
      // Read by the viewer bench from a DevTools trace: frames within a glide have something to show.
      if (s.glide && s.glide.t0 === now) console.timeStamp('benchlens:glide');
    }
    s.anim?.cancel();
    s.anim = null;
    const node = el.current;
    const g = s.glide;
    if (!gliding(g, now) || !node || typeof node.animate !== 'function') return;
    // Restarted at the time the glide has reached: for a new basis (a drawing shown during the
    // glide), the same motion on screen.
    s.anim = node.animate(glideFrames(g, drawn), { duration: g.ms, easing: GLIDE_EASING });
    s.anim.currentTime = now - g.t0;
  }, [el, drawn, live, enabled]);
  useLayoutEffect(() => () => state.current.anim?.cancel(), []);
}
