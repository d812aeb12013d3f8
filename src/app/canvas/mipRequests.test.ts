import { describe, expect, it } from 'vitest';
import { MipRequests, type MipPort } from './mipRequests';
import type { MipMessage, MipReply } from './mipLevels.worker';
import type { MipLevel } from './mipLevels';

/** A worker stand-in: records what it is sent; `reply` answers as the worker would. */
function fakePort() {
  const sent: MipMessage[] = [];
  const port: MipPort & { sent: MipMessage[]; reply(r: MipReply): void } = {
    sent,
    onmessage: null,
    onerror: null,
    postMessage: (m) => void sent.push(m),
    reply(r) {
      port.onmessage?.({ data: r } as MessageEvent<MipReply>);
    },
  };
  return port;
}

/** A copy whose close() is counted. */
const level = (factor: number) => {
  const l = { image: { closed: false, close() { this.closed = true; } }, factor };
  return l as unknown as MipLevel & { image: { closed: boolean } };
};
const blob = new Blob(['png bytes']);
const settled = () => new Promise((r) => setTimeout(r, 0));

describe('MipRequests', () => {
  it('asks the worker only when a pane shows the image, once for all panes', async () => {
    const port = fakePort();
    let spawned = 0;
    const r = new MipRequests(() => (spawned++, port));
    const image = {};
    r.register(image, blob);
    expect(spawned).toBe(0); // decoded is not shown: no worker, no request
    const a = r.ask(image);
    const b = r.ask(image); // a second pane, side by side
    expect(port.sent).toEqual([{ id: 1, blob }]);
    expect(b).toBe(a);
    const copies = [level(2), level(4)];
    port.reply({ id: 1, levels: copies });
    expect(await a).toBe(copies);
    expect(r.stats).toEqual({ asked: 1, cancelled: 0, made: 1, late: 0 });
    // Shown again later: the copies made, without a new request.
    r.release(image);
    r.release(image);
    expect(await r.ask(image)).toBe(copies);
    expect(port.sent).toHaveLength(1);
  });

  it('cancels a request when the last pane showing the image lets go, and only then', async () => {
    const port = fakePort();
    const r = new MipRequests(() => port);
    const image = {};
    r.register(image, blob);
    const a = r.ask(image);
    r.ask(image);
    r.release(image);
    expect(port.sent).toEqual([{ id: 1, blob }]); // one pane still shows it
    r.release(image);
    expect(port.sent).toEqual([{ id: 1, blob }, { cancel: 1 }]);
    expect(await a).toBeNull(); // settled, nothing left waiting
    expect(r.stats).toEqual({ asked: 1, cancelled: 1, made: 0, late: 0 });
    // Copies the worker had finished before the cancel reached it are closed, not kept.
    const late = [level(2)];
    port.reply({ id: 1, levels: late });
    expect(late[0].image.closed).toBe(true);
    expect(r.stats).toMatchObject({ made: 0, late: 1 });
    // Shown again: asked anew.
    const again = r.ask(image);
    expect(port.sent.at(-1)).toEqual({ id: 2, blob });
    const copies = [level(2)];
    port.reply({ id: 2, levels: copies });
    expect(await again).toBe(copies);
    expect(copies[0].image.closed).toBe(false);
  });

  it('leaves an image not decoded for it, and a release without an ask, alone', () => {
    const port = fakePort();
    const r = new MipRequests(() => port);
    expect(r.ask({})).toBeUndefined();
    const image = {};
    r.register(image, blob);
    r.release(image);
    expect(port.sent).toEqual([]);
    expect(r.stats).toEqual({ asked: 0, cancelled: 0, made: 0, late: 0 });
  });

  it('answers null (the pane makes its own copies) without a worker, or when it fails or errs', async () => {
    const none = new MipRequests(() => null);
    const i1 = {};
    none.register(i1, blob);
    expect(await none.ask(i1)).toBeNull();
    const throws = new MipRequests(() => {
      throw new Error('no workers here');
    });
    throws.register(i1, blob);
    expect(await throws.ask(i1)).toBeNull();

    const port = fakePort();
    const r = new MipRequests(() => port);
    const [i2, i3] = [{}, {}];
    r.register(i2, blob);
    r.register(i3, blob);
    const a = r.ask(i2);
    const b = r.ask(i3);
    port.reply({ id: 1, error: 'not an image' });
    expect(await a).toBeNull();
    const warn = console.warn;
    console.warn = () => {};
    try {
      port.onerror?.({ message: 'boom', preventDefault() {} } as ErrorEvent);
    } finally {
      console.warn = warn;
    }
    expect(await b).toBeNull();
    await settled();
    // The outcome is kept: a pane showing i2 again is not sent to a worker that failed it.
    expect(await r.ask(i2)).toBeNull();
    expect(port.sent).toHaveLength(2);
  });
});
