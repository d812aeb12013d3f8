/**
 * The page's workers, each a separate file beside the app (the served build). The
 * self-contained benchlens.html build swaps this module for spawn.inline.ts (see
 * vite.config.ts): a page opened from disk cannot load a worker file, so there they are inlined.
 */
export function scoringWorker(): Worker {
  return new Worker(new URL('./scoring.worker.ts', import.meta.url), { type: 'module', name: 'benchlens-scoring' });
}

export function thumbnailWorker(): Worker {
  return new Worker(new URL('../app/thumbnails/thumbs.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' });
}

/** Makes case images' pre-scaled copies (src/app/canvas/mipLevels.worker.ts). */
export function mipLevelWorker(): Worker {
  return new Worker(new URL('../app/canvas/mipLevels.worker.ts', import.meta.url), { type: 'module', name: 'mip-levels' });
}

/** One of the two workers that draw a pane's full-detail shapes (src/app/canvas/rasterPool.ts). */
export function rasterWorker(n: number): Worker {
  return new Worker(new URL('../app/canvas/raster.worker.ts', import.meta.url), { type: 'module', name: `raster-${n}` });
}
