/**
 * The case browser alone over a generated table (default 25,000 cases × 3 models; `?n=` to
 * change), for Playwright and for feeling the scroll by hand. Images are drawn on the fly; about
 * 2 % are "missing" so the missing tile shows too.
 */
import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CaseBrowser, createStandaloneCasesStore } from '../src/app/panels/cases/CaseBrowser';
import { syntheticCaseTable } from '../src/app/panels/cases/syntheticTable';

const n = Number(new URLSearchParams(location.search).get('n') ?? 25_000);
const t0 = performance.now();
const table = syntheticCaseTable({ cases: Number.isFinite(n) && n > 0 ? n : 25_000 });
const buildMs = performance.now() - t0;
const store = createStandaloneCasesStore();

/** A 640×480 picture naming the case, so each thumbnail is visibly its own. */
async function drawImage(path: string): Promise<Blob | null> {
  const m = /img_(\d+)/.exec(path);
  if (!m) return null;
  const i = Number(m[1]);
  const canvas = new OffscreenCanvas(640, 480);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = `hsl(${(i * 37) % 360} 45% 75%)`;
  ctx.fillRect(0, 0, 640, 480);
  ctx.fillStyle = '#222';
  ctx.font = 'bold 120px sans-serif';
  ctx.fillText(String(i), 40, 280);
  return canvas.convertToBlob({ type: 'image/png' });
}

function Harness() {
  const [opened, setOpened] = useState<string | null>(null);
  const [loads, setLoads] = useState(0);
  const loadImage = useCallback(async (path: string) => {
    setLoads((k) => k + 1);
    return drawImage(path);
  }, []);
  return (
    <>
      <div style={{ padding: '4px 10px', font: '12px system-ui', background: '#f1f3f5' }}>
        {table.caseIds.length.toLocaleString('en')} cases built in {buildMs.toFixed(0)} ms · images read: <span data-testid="image-loads">{loads}</span> · opened:{' '}
        <span data-testid="opened">{opened ?? '—'}</span>
      </div>
      <div style={{ flex: 1, minHeight: 0 }}>
        <CaseBrowser table={table} loadImage={loadImage} onSelect={setOpened} store={store} syncHash />
      </div>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
