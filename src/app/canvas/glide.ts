/**
 * A wheel notch's zoom shown as a short glide from the view on screen to the notch's view,
 * animated by the compositor (a Web Animation of the stage's CSS transform, useGlide.ts),
 * instead of a jump.
 *
 * Why: an ordinary wheel turned briskly gives 25 notches a second, so with jumps the view moved
 * in 40-ms steps — in the viewer bench (`x11`) 11–15 frames over 33 ms per run "waited for input",
 * and 51–53 displayed frames a second over the whole gesture. A glide gives every vsync in between
 * a new frame: 57.2–59.9 displayed fps, 47 frames over 33 ms in 72 runs (bench/README.md). A transform
 * animation runs on the compositor thread, so a busy main thread does not hold its frames back
 * (the compositor's threads still need a core), and nothing is drawn for it: the finished drawing
 * is moved, as for any motion.
 *
 * The view itself (ViewStore) is the notch's at once: the full-detail drawing is asked for it as
 * before, and the glide, shorter than that drawing, has ended when it is shown. A drawing shown
 * before the glide ends (the drawing on show moved, at the zoom it had) changes the CSS transform's
 * basis: the same glide is then restarted in the new basis at the time it had reached, which
 * continues it exactly — in one basis the CSS matrix is affine in the view, so interpolating
 * matrices interpolates views.
 */
import { cssAt, type ViewTransform } from './transform';

/** How long a notch's glide lasts: over one notch interval at 25 a second, under the redraw after the last (~80 ms). */
export const GLIDE_MS = 60;
/** CSS `ease-out`: most of the way in the first frames, so a notch is answered at once. */
export const GLIDE_EASING = 'ease-out';

export interface Glide {
  from: ViewTransform;
  to: ViewTransform;
  /** Start, performance.now() ms. */
  t0: number;
  ms: number;
}

/** CSS cubic-bezier(x1, y1, x2, y2) as a function of progress 0…1 (bisection on x: exact enough for a few pixels). */
function cubicBezier(x1: number, y1: number, x2: number, y2: number): (p: number) => number {
  const at = (a: number, b: number, t: number) => 3 * a * t * (1 - t) ** 2 + 3 * b * t * t * (1 - t) + t ** 3;
  return (p) => {
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 30; i++) {
      const mid = (lo + hi) / 2;
      if (at(x1, x2, mid) < p) lo = mid;
      else hi = mid;
    }
    return at(y1, y2, (lo + hi) / 2);
  };
}
/** GLIDE_EASING's curve (CSS ease-out is cubic-bezier(0, 0, 0.58, 1)). */
export const easeOut = cubicBezier(0, 0, 0.58, 1);

/** Whether `g` is still under way at `now`. */
export const gliding = (g: Glide | null, now: number): g is Glide => !!g && now < g.t0 + g.ms;

/**
 * The view `g` shows at `now`. Scale and offset move by the same eased fraction, which keeps the
 * point under the cursor fixed all the way (it is fixed in `from` and `to`, and the map from view
 * to screen point is affine).
 */
export function glideView(g: Glide, now: number): ViewTransform {
  const e = easeOut((now - g.t0) / g.ms);
  const mix = (a: number, b: number) => a + (b - a) * e;
  return { scale: mix(g.from.scale, g.to.scale), x: mix(g.from.x, g.to.x), y: mix(g.from.y, g.to.y) };
}

/**
 * The glide after the live view changed from `before` to `after` at `now`: a new one from what
 * is on screen when a wheel notch made the change; the one under way moved along when the change
 * only moved the view (a drag during a glide, the whole-pixel snap of a view at rest), so the pan
 * shows at once and the rest of the zoom still glides; otherwise none (a jump: zoom keys, fit).
 * `shown`: the time on `g`'s clock the screen is at (its animation's, which starts a frame after
 * it was made); `now` by default.
 */
export function nextGlide(g: Glide | null, before: ViewTransform, after: ViewTransform, byNotch: boolean, now: number, shown = now): Glide | null {
  const running = gliding(g, shown) ? g : null;
  if (byNotch) return { from: running ? glideView(running, shown) : before, to: after, t0: now, ms: GLIDE_MS };
  if (!running || after.scale !== before.scale) return null;
  const dx = after.x - before.x;
  const dy = after.y - before.y;
  const move = (t: ViewTransform) => ({ scale: t.scale, x: t.x + dx, y: t.y + dy });
  return { ...running, from: move(running.from), to: move(running.to) };
}

/** The keyframes of `g` for a drawing made at `drawn`. */
export const glideFrames = (g: Glide, drawn: ViewTransform): Keyframe[] => [{ transform: cssAt(drawn, g.from) }, { transform: cssAt(drawn, g.to) }];
