import { describe, expect, it } from 'vitest';
import { boxFromDrag, boxFromRect, moveVertex, removeVertex, roundCoords, translate } from './editGeometry';

describe('editor geometry', () => {
  it('turns a drag in any direction into a box, ignoring clicks', () => {
    expect(boxFromDrag(10, 20, 2, 4, 1)).toEqual([2, 4, 10, 20]);
    expect(boxFromDrag(10, 20, 10.5, 40, 1)).toBeNull();
  });
  it('reads a resized (even flipped) rectangle back as a box', () => {
    expect(boxFromRect(10, 10, 20, 10, 1.5, 2)).toEqual([10, 10, 40, 30]);
    expect(boxFromRect(10, 10, 20, 10, -1, 1)).toEqual([-10, 10, 10, 20]);
  });
  it('moves and removes polygon vertices without touching the input', () => {
    const p = [0, 0, 10, 0, 10, 10, 0, 10];
    expect(moveVertex(p, 2, 12, 11)).toEqual([0, 0, 10, 0, 12, 11, 0, 10]);
    expect(translate(p, 1, 2)).toEqual([1, 2, 11, 2, 11, 12, 1, 12]);
    expect(removeVertex(p, 0)).toEqual([10, 0, 10, 10, 0, 10]);
    expect(removeVertex([0, 0, 1, 0, 1, 1], 0)).toBeNull();
    expect(p).toEqual([0, 0, 10, 0, 10, 10, 0, 10]);
    expect(roundCoords([1.23456, 2.005])).toEqual([1.23, 2.01]);
  });
});
