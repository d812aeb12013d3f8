import { describe, expect, it } from 'vitest';
import { canvasSlot, partCanvasSize, ROW_STEP } from './partCanvas';

describe("a raster worker's canvas size for a part", () => {
  it('stays put for the bands of a drawing (a few rows apart), so a canvas\'s buffer serves them all', () => {
    // The bench's pane: 4 bands of 1039 × ~220–270 rows with their spare rows, cut by shape counts.
    let size: [number, number] = [1039, 871];
    const sizes = [270, 232, 251, 219, 266, 240].map((h) => (size = partCanvasSize(size[0], size[1], 1039, h)));
    expect(sizes[0]).toEqual([1039, 320]);
    expect(new Set(sizes.map(String)).size).toBe(1);
    for (const [, h] of sizes) expect(h % ROW_STEP).toBe(0);
  });

  it('grows for a part that does not fit, and shrinks for one that would fill less than half of it', () => {
    expect(partCanvasSize(1039, 320, 1039, 330)).toEqual([1039, 384]);
    expect(partCanvasSize(1039, 320, 1200, 100)).toEqual([1200, 128]);
    // A thin strip a pan exposed: its own size, not a mostly empty band-sized buffer.
    expect(partCanvasSize(1039, 320, 1039, 60)).toEqual([1039, 64]);
    expect(partCanvasSize(1039, 320, 300, 300)).toEqual([300, 320]);
    // Exactly half still fits.
    expect(partCanvasSize(1000, 320, 1000, 160)).toEqual([1000, 320]);
  });
});

describe("which of a raster worker's canvases a part goes on", () => {
  it('takes the bands of a drawing on canvases in turn, so a snapshot the page still holds is never drawn over', () => {
    // A ring of 3: new canvases until there are 3 of the size, then the least recently used.
    expect(canvasSlot([], 1039, 251, 4, 3)).toEqual({ index: 0, size: [1039, 256] });
    expect(canvasSlot([[1039, 256]], 1039, 240, 4, 3)).toEqual({ index: 1, size: [1039, 256] });
    expect(canvasSlot([[1039, 256], [1039, 256]], 1039, 240, 4, 3)).toEqual({ index: 2, size: [1039, 256] });
    const bands: [number, number][] = [[1039, 320], [1039, 320], [1039, 320]];
    expect(canvasSlot(bands, 1039, 251, 4, 3)).toEqual({ index: 0, size: [1039, 320] });
    // A thin strip a pan exposed would fill less than half of a band's canvas: a canvas of its own.
    expect(canvasSlot(bands, 1039, 60, 4, 3)).toEqual({ index: 3, size: [1039, 64] });
    // The strip's canvas is skipped by bands it cannot hold, and serves the next strip of its size once no new canvas may be made.
    const mixed: [number, number][] = [[1039, 64], [1039, 320], [1039, 320], [1039, 320]];
    expect(canvasSlot(mixed, 1039, 240, 4, 3)).toEqual({ index: 1, size: [1039, 320] });
    expect(canvasSlot(mixed, 1039, 50, 4, 3)).toEqual({ index: 0, size: [1039, 64] });
  });

  it('makes a new canvas while there are fewer than the most allowed, then resizes the least recently used', () => {
    expect(canvasSlot([[300, 320]], 1039, 251, 4)).toEqual({ index: 1, size: [1039, 256] });
    const full: [number, number][] = [[300, 320], [1039, 64]];
    expect(canvasSlot(full, 1039, 251, 2)).toEqual({ index: 0, size: [1039, 256] });
    // At the most allowed, a size with fewer canvases than the ring takes the one it has.
    expect(canvasSlot([[1039, 64], [1039, 320]], 1039, 300, 2, 3)).toEqual({ index: 1, size: [1039, 320] });
    // One canvas only (parts transferred): it is resized to each part that it cannot hold.
    expect(canvasSlot([[1039, 320]], 1039, 60, 1)).toEqual({ index: 0, size: [1039, 64] });
    expect(canvasSlot([[1039, 320]], 1039, 300, 1)).toEqual({ index: 0, size: [1039, 320] });
  });
});
