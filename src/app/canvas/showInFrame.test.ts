import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type Konva from 'konva';
import { drawNow, showInFrame, type FrameShow } from './showInFrame';

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

describe('showInFrame', () => {
  let frames: FrameRequestCallback[] = [];
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
  });
  afterEach(() => vi.unstubAllGlobals());
  const nextFrame = () => {
    const run = frames.splice(0);
    for (const f of run) f(0);
  };

  const pane = (wanted: () => boolean) => {
    const layer = new FakeLayer();
    const log: string[] = [];
    const s: FrameShow = {
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

  it('waits for the next frame, then shows every queued drawing still wanted and draws its layers in that frame', () => {
    const a = pane(() => true);
    const b = pane(() => true);
    showInFrame(a.s);
    showInFrame(b.s);
    expect(frames).toHaveLength(1); // one frame for both (linked panes switch together)
    expect(a.log).toEqual([]);
    nextFrame();
    expect([a.log, b.log]).toEqual([['shown'], ['shown']]);
    expect([a.layer.draws, b.layer.draws]).toEqual([1, 1]);
    expect(frames).toHaveLength(0);
  });

  it('drops a drawing that the motion overtook before its frame, and shows nothing of it', () => {
    let still = true;
    const a = pane(() => still);
    showInFrame(a.s);
    still = false; // a wheel step reached the page before the frame
    nextFrame();
    expect(a.log).toEqual(['dropped']);
    expect(a.layer.draws).toBe(0);
  });
});
