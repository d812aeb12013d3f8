/**
 * spawn.ts for the self-contained benchlens.html: the workers' code is bundled into the page
 * and started from blob: URLs (a page opened from file:// may not load a worker file).
 */
import ScoringWorker from './scoring.worker.ts?worker&inline';
import ThumbnailWorker from '../app/thumbnails/thumbs.worker.ts?worker&inline';
import RasterWorker from '../app/canvas/raster.worker.ts?worker&inline';
import MipLevelWorker from '../app/canvas/mipLevels.worker.ts?worker&inline';

export function scoringWorker(): Worker {
  return new ScoringWorker({ name: 'benchlens-scoring' });
}

export function thumbnailWorker(): Worker {
  return new ThumbnailWorker({ name: 'thumbnails' });
}

export function rasterWorker(n: number): Worker {
  return new RasterWorker({ name: `raster-${n}` });
}

export function mipLevelWorker(): Worker {
  return new MipLevelWorker({ name: 'mip-levels' });
}
