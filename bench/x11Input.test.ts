import { describe, expect, it } from 'vitest';
import { fakeInputRequest, queryExtensionRequest, setupRequest, X_BUTTON_PRESS, X_MOTION_NOTIFY, xInput, type XTestConnection } from './x11Input';

describe('X11 requests', () => {
  it('opens a little-endian protocol 11.0 connection without authorisation', () => {
    expect([...setupRequest()]).toEqual([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('asks for an extension by name, padded to 4 bytes, with its length in words', () => {
    const b = queryExtensionRequest('XTEST');
    expect(b.length).toBe(16);
    expect([b[0], b.readUInt16LE(2), b.readUInt16LE(4)]).toEqual([98, 4, 5]);
    expect(b.subarray(8, 13).toString('latin1')).toBe('XTEST');
  });

  it('lays out FakeInput as xXTestFakeInputReq (36 bytes: type, detail, time, root, rootX, rootY)', () => {
    const m = fakeInputRequest(132, X_MOTION_NOTIFY, 0, 700, -3);
    expect(m.length).toBe(36);
    expect([m[0], m[1], m.readUInt16LE(2), m[4], m[5]]).toEqual([132, 2, 9, 6, 0]);
    expect([m.readUInt32LE(8), m.readUInt32LE(12), m.readInt16LE(24), m.readInt16LE(26)]).toEqual([0, 0, 700, -3]);
    const p = fakeInputRequest(132, X_BUTTON_PRESS, 4);
    expect([p[4], p[5], p.readInt16LE(24)]).toEqual([4, 4, 0]);
  });
});

describe('a scripted gesture through XTEST', () => {
  it('moves only when the position changes, uses button 1 for drags and one notch (4 in, 5 out) per wheel step', () => {
    const log: string[] = [];
    const x: XTestConnection = {
      move: (px, py) => log.push(`move ${px},${py}`),
      button: (b, down) => log.push(`${down ? 'down' : 'up'} ${b}`),
      sync: async () => {},
      errors: [],
      close: () => {},
    };
    const send = xInput(x, { x: 0, y: 87 });
    send({ at: 0, params: { type: 'mousePressed', x: 10, y: 20 } });
    send({ at: 0, params: { type: 'mouseMoved', x: 11, y: 20 } });
    send({ at: 0, params: { type: 'mouseReleased', x: 11, y: 20 } });
    send({ at: 0, params: { type: 'mouseWheel', x: 11, y: 20, deltaY: -120 } });
    send({ at: 0, params: { type: 'mouseWheel', x: 11, y: 20, deltaY: 120 } });
    expect(log).toEqual(['move 10,107', 'down 1', 'move 11,107', 'up 1', 'down 4', 'up 4', 'down 5', 'up 5']);
    expect(() => send({ at: 0, params: { type: 'touchStart' } })).toThrow(/no X input/);
  });
});
