/**
 * Mouse input through the X server, as a real mouse's reaches Chromium: the XTEST extension's
 * FakeInput request makes the X server generate the same core and XInput2 events a USB mouse's
 * reports become, and Chromium's X11 platform forwards them to the page like any others.
 *
 * Why not CDP `Input.dispatchMouseEvent`: DevTools forwards an injected wheel event only once the
 * page has made a frame (content/browser/devtools/protocol/input_handler.cc, DispatchWebMouseEvent:
 * InsertVisualStateCallback), a wait no real mouse's event has; it shifts when wheel steps reach
 * the page and makes pauses in a gesture that a real wheel does not.
 *
 * A bare X11 client (the protocol over the server's Unix socket, no library): the connection
 * set-up, QueryExtension for XTEST's major opcode, then FakeInput requests. Nothing is read back
 * but the replies and errors to those.
 */
import { connect, type Socket } from 'node:net';
import type { SendInput } from './frameTrace';

/** X11 event types FakeInput takes (X.h). */
export const X_BUTTON_PRESS = 4;
export const X_BUTTON_RELEASE = 5;
export const X_MOTION_NOTIFY = 6;

/** The connection set-up request: little-endian, protocol 11.0, no authorisation. */
export function setupRequest(): Buffer {
  const b = Buffer.alloc(12);
  b.write('l', 0, 'latin1');
  b.writeUInt16LE(11, 2);
  b.writeUInt16LE(0, 4);
  return b;
}

/** QueryExtension (opcode 98) for `name`. */
export function queryExtensionRequest(name: string): Buffer {
  const n = Buffer.byteLength(name, 'latin1');
  const padded = (n + 3) & ~3;
  const b = Buffer.alloc(8 + padded);
  b.writeUInt8(98, 0);
  b.writeUInt16LE((8 + padded) / 4, 2);
  b.writeUInt16LE(n, 4);
  b.write(name, 8, 'latin1');
  return b;
}

/**
 * XTEST FakeInput (minor opcode 2, xXTestFakeInputReq: 36 bytes). For a motion, `detail` 0 means
 * absolute coordinates on the root window of the pointer's screen (root None); for a button, the
 * button number (1 left, 4 / 5 wheel up / down). Time 0: at once.
 */
export function fakeInputRequest(major: number, type: number, detail: number, x = 0, y = 0): Buffer {
  const b = Buffer.alloc(36);
  b.writeUInt8(major, 0);
  b.writeUInt8(2, 1);
  b.writeUInt16LE(9, 2);
  b.writeUInt8(type, 4);
  b.writeUInt8(detail, 5);
  // time (8), root (12): 0; pads.
  b.writeInt16LE(x, 24);
  b.writeInt16LE(y, 26);
  return b;
}

export interface XTestConnection {
  move(x: number, y: number): void;
  button(button: number, down: boolean): void;
  /** Resolves once the server has handled every request sent so far (a round trip). */
  sync(): Promise<void>;
  /** X errors the server sent back (each a request it refused), as text. */
  errors: string[];
  close(): void;
}

/** Connects to display `:n` over its Unix socket and finds XTEST. */
export async function connectXTest(display: number): Promise<XTestConnection> {
  const sock: Socket = connect(`/tmp/.X11-unix/X${display}`);
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', () => resolve());
    sock.once('error', reject);
  });
  let buf = Buffer.alloc(0);
  const errors: string[] = [];
  // Resolvers of the replies to come, in the order their requests were sent: the set-up's first.
  const replies: ((b: Buffer) => void)[] = [];
  let setUp = false;
  // The length of the message at the head of `b`, or Infinity until enough of it is there: the
  // set-up reply is 8 bytes and 4 × its length field more; then a reply is 32 bytes and 4 × its
  // length field more, an error or an event 32 bytes.
  const lengthOf = (b: Buffer) => {
    if (!setUp) return b.length < 8 ? Infinity : 8 + 4 * b.readUInt16LE(6);
    if (b.length < 32) return Infinity;
    return b[0] === 1 ? 32 + 4 * b.readUInt32LE(4) : 32;
  };
  sock.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    for (let n = lengthOf(buf); buf.length >= n; n = lengthOf(buf)) {
      const msg = buf.subarray(0, n);
      buf = buf.subarray(n);
      if (!setUp || msg[0] === 1) {
        setUp = true;
        replies.shift()?.(msg);
      } else if (msg[0] === 0) errors.push(`X error ${msg[1]} for request ${msg[10]}.${msg.readUInt16LE(8)}`);
      // Events (kind ≥ 2) are not asked for and not expected.
    }
  });
  const reply = (req: Buffer) =>
    new Promise<Buffer>((resolve) => {
      replies.push(resolve);
      sock.write(req);
    });
  const setup = await reply(setupRequest());
  if (setup[0] !== 1) {
    sock.destroy();
    throw new Error(`X server :${display} refused the connection (status ${setup[0]})`);
  }
  const ext = await reply(queryExtensionRequest('XTEST'));
  if (ext[8] !== 1) {
    sock.destroy();
    throw new Error(`X server :${display} has no XTEST extension`);
  }
  const major = ext[9];
  return {
    move: (x, y) => sock.write(fakeInputRequest(major, X_MOTION_NOTIFY, 0, Math.round(x), Math.round(y))),
    button: (button, down) => sock.write(fakeInputRequest(major, down ? X_BUTTON_PRESS : X_BUTTON_RELEASE, button)),
    // GetInputFocus (opcode 43) has a reply and no effect: the usual X round trip.
    sync: async () => {
      const b = Buffer.alloc(4);
      b.writeUInt8(43, 0);
      b.writeUInt16LE(1, 2);
      await reply(b);
    },
    errors,
    close: () => sock.destroy(),
  };
}

/**
 * Plays the CDP-shaped events of a scripted gesture (frameTrace.ts) through XTEST: page
 * coordinates plus `origin` (where the page's top-left is on the X screen), the left button for
 * presses and releases, a wheel step as one notch (button 4 up / zooms in, 5 down: a press and
 * its release, which Chromium makes one wheel event of deltaY ∓120).
 */
export function xInput(x: XTestConnection, origin: { x: number; y: number }): SendInput {
  let at: [number, number] | null = null;
  const moveTo = (px: number, py: number) => {
    if (at && at[0] === px && at[1] === py) return;
    at = [px, py];
    x.move(origin.x + px, origin.y + py);
  };
  return ({ params: p }) => {
    const px = Number(p.x);
    const py = Number(p.y);
    switch (p.type) {
      case 'mouseMoved':
        return moveTo(px, py);
      case 'mousePressed':
        moveTo(px, py);
        return x.button(1, true);
      case 'mouseReleased':
        moveTo(px, py);
        return x.button(1, false);
      case 'mouseWheel': {
        moveTo(px, py);
        const b = Number(p.deltaY) < 0 ? 4 : 5;
        x.button(b, true);
        return x.button(b, false);
      }
      default:
        throw new Error(`no X input for ${String(p.type)}`);
    }
  };
}
