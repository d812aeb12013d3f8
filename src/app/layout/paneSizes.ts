/**
 * The workspace's pane widths: the case list on the left, the instance panel on the right, the
 * canvas takes the rest. Defaults depend on the window so that at 1366×768 the canvas still gets
 * about half the screen; a width the user set with a splitter is kept (localStorage) for next time.
 */
import { useCallback, useState } from 'react';

export interface PaneSizes {
  list: number;
  panel: number;
}

export const LIMITS = { list: { min: 260, max: 900 }, panel: { min: 180, max: 560 } } as const;

/** Default widths for a window `vw` CSS pixels wide. */
export function defaultPaneSizes(vw: number): PaneSizes {
  // Below 1500 px the list keeps one column of rows (filters fold behind a button); wider
  // windows give it room for the filter sidebar beside the rows.
  const list = vw < 1500 ? 340 : Math.round(Math.min(600, vw * 0.3));
  const panel = vw < 1500 ? 220 : 260;
  return { list, panel };
}

const KEY = 'benchlens.paneSizes';

function stored(): Partial<PaneSizes> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<PaneSizes>;
    return typeof v === 'object' && v ? v : {};
  } catch {
    return {};
  }
}

const clampTo = (v: unknown, lim: { min: number; max: number }, fallback: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(lim.max, Math.max(lim.min, v)) : fallback;

export function usePaneSizes(): [PaneSizes, (k: keyof PaneSizes, px: number) => void] {
  const [sizes, setSizes] = useState<PaneSizes>(() => {
    const d = defaultPaneSizes(typeof window === 'undefined' ? 1366 : window.innerWidth);
    const s = stored();
    return { list: clampTo(s.list, LIMITS.list, d.list), panel: clampTo(s.panel, LIMITS.panel, d.panel) };
  });
  const set = useCallback((k: keyof PaneSizes, px: number) => {
    setSizes((cur) => {
      const next = { ...cur, [k]: px };
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // Storage full or blocked: the size simply is not remembered.
      }
      return next;
    });
  }, []);
  return [sizes, set];
}
