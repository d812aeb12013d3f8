/**
 * An isolated page for the case viewer's e2e tests and benchmark: renders CaseViewer with a
 * generated case chosen by the hash (`#case=dense5000`, `#case=ltb`, … ; `&compare=2` for two
 * models side by side, `&compare=overlay` for them overlaid; `&raster=main` to draw without the
 * raster workers; `&parts=transfer` for the workers to send their parts by transfer, their
 * fallback; `&redraw=rest` to draw nothing until the view has been still for 300 ms) and exposes
 * `window.__viewer`.
 * Images are drawn in the page (OffscreenCanvas), encoded as PNG and decoded with the app's
 * decodeImage (`&image=late` holds the image back until `releaseImage()`, `&image=canvas` gives
 * the canvas's own bitmap, `&image=missing` none); nothing is fetched.
 */
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CaseViewer, type CaseViewerHandle, type CompareMode } from '../src/app/canvas/CaseViewer';
import { decodeImage, mipLevelsAsked, mipWork } from '../src/app/canvas/decode';
import { shapePoints } from '../src/app/canvas/geometry';
import { drawOnMainThreadOnly, PARTS, partsByTransfer, rasterPool, WARM_ROUNDS } from '../src/app/canvas/rasterPool';
import { fixture, FIXTURE_NAMES, type Fixture } from './fixtures';
import { probeRasterAbort, probeSnapshots } from './rasterProbe';
import { redrawOnlyAtRest } from '../src/app/canvas/useSettledView';
import type { HarnessHash } from './hooks';

type HashState = HarnessHash;

const rasterStats = () => {
  const p = rasterPool();
  // warmUpParts: the parts one warm-up draws (RasterPool.warm).
  // contents: how often a pane's shapes were packed and sent to the workers.
  return p && { drawn: p.drawn, aborted: p.aborted, warmed: p.warmed, warmUpParts: WARM_ROUNDS * PARTS, inProgress: p.inProgress, contents: p.sent };
};

/** The page's hash as parameters (`#case=…&compare=…`). */
const hashParams = () => new URLSearchParams(location.hash.replace(/^#/, ''));

function readHash(): HashState {
  const p = hashParams();
  const c = p.get('compare');
  const compare: CompareMode = c === 'overlay' ? 'overlay' : c === '2' || c === 'side-by-side' ? 'side-by-side' : 'single';
  return { name: p.get('case') ?? 'ltb', compare, models: compare === 'single' ? 1 : 2, image: (['missing', 'late', 'canvas'] as const).find((v) => v === p.get('image')) ?? 'ok' };
}

/**
 * A page-like image: a gradient, faint "text lines" and, for the overlay, the GT in red — encoded
 * and decoded again with the app's decodeImage, so the viewer gets the kind of ImageBitmap an
 * image file in a folder gives it. (It used to get the OffscreenCanvas's own bitmap: in software
 * raster that kind costs 15–17 ms of main-thread CPU on its first draw at full resolution, which
 * a decoded file's does not — the viewer bench's first notch into it dropped a frame it never
 * would with a real image.)
 */
async function drawImage(f: Fixture, overlay: boolean, decode = true): Promise<ImageBitmap> {
  const c = new OffscreenCanvas(f.width, f.height);
  const g = c.getContext('2d')!;
  const grad = g.createLinearGradient(0, 0, f.width, f.height);
  grad.addColorStop(0, '#3b3f46');
  grad.addColorStop(1, '#5b5246');
  g.fillStyle = grad;
  g.fillRect(0, 0, f.width, f.height);
  g.fillStyle = 'rgba(230,230,220,0.18)';
  for (const inst of f.views[0].record.gt) {
    const pts = shapePoints(inst.shape);
    if (pts.length < 6) continue;
    g.beginPath();
    g.moveTo(pts[0], pts[1]);
    for (let i = 2; i < pts.length; i += 2) g.lineTo(pts[i], pts[i + 1]);
    g.closePath();
    g.fill();
    if (overlay) {
      g.strokeStyle = '#ff0000';
      g.lineWidth = 6;
      g.stroke();
    }
  }
  return decode ? decodeImage(await c.convertToBlob({ type: 'image/png' })) : c.transferToImageBitmap();
}

function Harness() {
  const [hash, setHash] = useState(readHash);
  const [fx, setFx] = useState(() => fixture(hash.name, hash.models));
  const [images, setImages] = useState<{ fx: Fixture | null; image: ImageBitmap | null; overlay: ImageBitmap | null }>({ fx: null, image: null, overlay: null });
  const handle = useRef<CaseViewerHandle | null>(null);
  const moves = useRef<number[]>([]);

  useEffect(() => {
    const on = () => {
      const h = readHash();
      setHash(h);
      setFx(fixture(h.name, h.models));
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);

  const [released, setReleased] = useState(false);
  useEffect(() => {
    let alive = true;
    void Promise.all([hash.image !== 'missing' ? drawImage(fx, false, hash.image !== 'canvas') : null, fx.overlay ? drawImage(fx, true) : null]).then(([image, overlay]) => {
      if (alive) setImages({ fx, image, overlay });
    });
    return () => {
      alive = false;
    };
  }, [fx, hash.image]);

  // The images of another case (still decoding this one's) are never shown with this case's shapes.
  const current = images.fx === fx && (hash.image !== 'late' || released) ? images : { image: null, overlay: null };

  useEffect(() => {
    window.__viewer = { handle: handle.current, fixture: fx, hash, caseMoves: moves.current, names: FIXTURE_NAMES, ready: images.fx === fx, releaseImage: () => setReleased(true), workerLevels: async () => (current.image ? ((await mipLevelsAsked(current.image))?.length ?? null) : null), mipWork: () => ({ ...mipWork }), probeRasterAbort: () => probeRasterAbort(fx), probeSnapshots: () => probeSnapshots(fx), rasterStats };
  });

  const go = (d: number) => {
    moves.current.push(d);
    // Read the case from the URL, not from state: a key pressed right after a hash change must
    // step from the case the URL already names, even before React has re-rendered.
    const i = FIXTURE_NAMES.indexOf(readHash().name as (typeof FIXTURE_NAMES)[number]);
    const next = FIXTURE_NAMES[(i + d + FIXTURE_NAMES.length) % FIXTURE_NAMES.length];
    const p = hashParams();
    p.set('case', next);
    location.hash = p.toString();
  };

  return (
    <div style={{ height: '100vh' }}>
      <CaseViewer
        ref={(h) => {
          handle.current = h;
          if (window.__viewer) window.__viewer.handle = h;
        }}
        benchmark={fx.benchmark}
        views={fx.views}
        image={current.image}
        imageStatus={hash.image === 'missing' ? 'missing' : current.image ? 'ok' : 'loading'}
        imagePath={fx.views[0].record.image_path ?? undefined}
        overlayImage={current.overlay}
        compare={hash.compare}
        onNextCase={() => go(1)}
        onPrevCase={() => go(-1)}
      />
    </div>
  );
}

// `&raster=main`: no raster workers, every full-detail drawing on the main thread (the fallback
// for browsers without OffscreenCanvas in workers), for the e2e tests of that path.
const atLoad = hashParams();
if (atLoad.get('raster') === 'main') drawOnMainThreadOnly();
// `&parts=transfer`: the raster workers send their parts by transfer, their fallback where a
// snapshot of a canvas fails (raster.worker.ts partBitmap), for the e2e test of that path.
if (atLoad.get('parts') === 'transfer') partsByTransfer();
// `&redraw=rest`: no full-detail drawing until the view has been still for 300 ms (the viewer
// bench's floor: a motion with nothing drawn while it lasts).
if (atLoad.get('redraw') === 'rest') redrawOnlyAtRest(300);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
