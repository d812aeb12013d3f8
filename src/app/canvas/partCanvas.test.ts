import { describe, expect, it } from 'vitest';
import { partCanvasSize, ROW_STEP } from './partCanvas';

describe("a raster worker's canvas size for a part", () => {
  it('stays put for the bands of a drawing (a few rows apart), so the buffer made after one part serves the next', () => {
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
