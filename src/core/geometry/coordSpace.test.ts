/** The coordinate-space check on hand-made samples: when it speaks, and when it stays silent. */
import { describe, expect, it } from 'vitest';
import type { Box } from './box';
import { inspectSpace, pixelReadingWarning, rel1000ReadingWarning, type SpaceSample } from './coordSpace';

describe('the coordinate-space check itself', () => {
  const sample = (raw: Box[], gt: Box[], alt: Box[] | null): SpaceSample => ({ gt, raw, scored: raw, alt, size: { width: 1600, height: 1200 } });

  it('lets a rel1000 answer overshoot 1000 now and then, and says it when many boxes do or the pixel reading fits better', () => {
    const gt: Box[] = [[100, 100, 200, 200]];
    const fits: Box[] = [[100, 100, 200, 200]];
    const far: Box[] = [[900, 900, 1000, 1000]];
    // 1 of 20 boxes at 1003, the 0–1000 reading fits: nothing to say.
    const few = [sample([[100, 100, 200, 1003]], gt, far), ...Array.from({ length: 19 }, () => sample(fits, gt, far))];
    expect(rel1000ReadingWarning(inspectSpace(few, 0.5), 'boxes', 0.5, 'fix')).toBeNull();
    // 3 of 20: said, without a claim or a fix.
    const many = [...Array.from({ length: 3 }, () => sample([[100, 100, 200, 1003]], gt, far)), ...Array.from({ length: 17 }, () => sample(fits, gt, far))];
    expect(rel1000ReadingWarning(inspectSpace(many, 0.5), 'boxes', 0.5, 'fix')).toBe(
      'coordinate space: 3 of 20 boxes read as rel1000 have coordinates beyond 1000, which that space cannot hold; read as pixels they reach 0 of 20 GT boxes at IoU ≥ 0.5, read as rel1000 (as scored) 17',
    );
    // One box beyond 1000, but the pixel reading reaches more GT: said, with the fix.
    const alt = [sample([[1100, 100, 1300, 200]], gt, fits)];
    expect(rel1000ReadingWarning(inspectSpace(alt, 0.5), 'boxes', 0.5, 'fix')).toMatch(/they look like absolute boxes given as rel1000: fix$/);
  });

  it('says nothing of pixel boxes that reach past 1000, or that sit on images no larger than 1000 px', () => {
    const gt: Box[] = [[100, 100, 1200, 200]];
    expect(pixelReadingWarning(inspectSpace([sample([[100, 100, 1200, 200]], gt, null)], 0.5), 'boxes', 0.5, 'fix')).toBeNull();
    const small: SpaceSample = { gt: [[10, 10, 20, 20]], raw: [[10, 10, 20, 20]], scored: [[10, 10, 20, 20]], alt: [[1, 1, 2, 2]], size: { width: 800, height: 600 } };
    expect(pixelReadingWarning(inspectSpace([small], 0.5), 'boxes', 0.5, 'fix')).toBeNull();
  });
});
