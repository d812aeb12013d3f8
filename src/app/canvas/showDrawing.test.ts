import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type Konva from 'konva';
import { drawNow, showDrawing, type PendingShow } from './showDrawing';

/** A stand-in for a Konva layer: batchDraw on the prototype (as Konva's), draws counted. */
class FakeLayer {
  draws = 0;
  batched = 0;
  batchDraw() {
    this.batched++;
    return this;
  }
  draw() {
    this.draws++;
    return this;
  }
}
const asLayers = (ls: FakeLayer[]) => ls as unknown as Konva.Layer[];

describe('drawNow', () => {
  it('draws, at once and once, the layers whose redraw was asked during the update, and only those', () => {
    const [a, b, c] = [new FakeLayer(), new FakeLayer(), new FakeLayer()];
    drawNow(asLayers([a, b, c]), () => {
      a.batchDraw();
      a.batchDraw();
      c.batchDraw();
      // Not drawn yet: the asks are only noted during the update.
      expect(a.draws + c.draws).toBe(0);
    });
    expect([a.draws, b.draws, c.draws]).toEqual([1, 0, 1]);
    // No batched draw was left queued for a later frame.
    expect([a.batched, b.batched, c.batched]).toEqual([0, 0, 0]);
  });

  it("gives the layers Konva's batchDraw back afterwards, also when the update throws", () => {
    const a = new FakeLayer();
    drawNow(asLayers([a]), () => undefined);
    expect(Object.prototype.hasOwnProperty.call(a, 'batchDraw')).toBe(false);
    a.batchDraw();
    expect(a.batched).toBe(1);
    expect(() =>
      drawNow(asLayers([a]), () => {
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(Object.prototype.hasOwnProperty.call(a, 'batchDraw')).toBe(false);
    expect(a.draws).toBe(0);
  });
});

describe('showDrawing', () => {
  const pane = (wanted: () => boolean) => {
    const layer = new FakeLayer();
    const log: string[] = [];
    const s: PendingShow = {
      wanted,
      show: () => {
        log.push('shown');
        layer.batchDraw();
      },
      dropped: () => log.push('dropped'),
      stage: () => ({ getLayers: () => [layer] }) as unknown as Konva.Stage,
    };
    return { s, log, layer };
  };
  const frames = vi.fn();
  beforeEach(() => {
    frames.mockClear();
    vi.stubGlobal('requestAnimationFrame', frames);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows every drawing queued in this task and still wanted, together, at the end of the task, and draws its layers then', async () => {
    const a = pane(() => true);
    const b = pane(() => true);
    showDrawing(a.s);
    showDrawing(b.s);
    // Not within the call: the drawings released in this task go on show together (linked panes).
    expect([a.log, b.log]).toEqual([[], []]);
    await Promise.resolve();
    expect([a.log, b.log]).toEqual([['shown'], ['shown']]);
    expect([a.layer.draws, b.layer.draws]).toEqual([1, 1]);
    // Drawn there, not left for Konva's next animation frame.
    expect([a.layer.batched, b.layer.batched]).toEqual([0, 0]);
    expect(frames).not.toHaveBeenCalled();
  });

  it('drops a drawing that the motion overtook before it was shown, and shows nothing of it', async () => {
    let still = true;
    const a = pane(() => still);
    showDrawing(a.s);
    still = false; // a wheel step reached the page first
    await Promise.resolve();
    expect(a.log).toEqual(['dropped']);
    expect(a.layer.draws).toBe(0);
  });

  it('a drawing queued after the last flush is shown in a flush of its own', async () => {
    const a = pane(() => true);
    showDrawing(a.s);
    await Promise.resolve();
    const b = pane(() => true);
    showDrawing(b.s);
    await Promise.resolve();
    expect([a.log, b.log]).toEqual([['shown'], ['shown']]);
    expect(a.layer.draws).toBe(1);
  });
});
