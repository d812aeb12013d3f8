/**
 * Plays a pane's glides (glide.ts) on its stage's wrapper, whose CSS transform (`motion`, set by
 * React) is the glide's end: a Web Animation of that transform from the view on screen, which the
 * compositor runs on its own thread. Nothing is drawn for it.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { GLIDE_EASING, glideFrames, nextGlide, type Glide } from './glide';
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
    // The time on the glide's clock the screen is at: its animation's own where it has one (it
    // starts at the frame after it was made, up to a frame behind ours).
    const clock = s.anim?.currentTime;
    const shown = s.glide && typeof clock === 'number' ? s.glide.t0 + clock : now;
    if (!same(before, live)) {
      s.glide = enabled && !reducedMotion() ? nextGlide(s.glide, before, live, byWheelNotch(), now, shown) : null;
      // Read by the viewer bench from a DevTools trace: frames within a glide have something to show.
      if (s.glide && s.glide.t0 === now) console.timeStamp('benchlens:glide');
    }
    s.anim?.cancel();
    s.anim = null;
    const node = el.current;
    const g = s.glide;
    if (!g || !node || typeof node.animate !== 'function') return;
    const at = g.t0 === now ? 0 : shown - g.t0;
    if (at >= g.ms) return;
    // A glide under way restarted at the time it has reached (a new basis: a drawing shown during
    // it; or moved along by a pan): the same motion on screen.
    s.anim = node.animate(glideFrames(g, drawn), { duration: g.ms, easing: GLIDE_EASING });
    s.anim.currentTime = at;
  }, [el, drawn, live, enabled]);
  useLayoutEffect(() => () => state.current.anim?.cancel(), []);
}
