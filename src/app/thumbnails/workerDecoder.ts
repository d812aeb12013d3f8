/** The page side of thumbs.worker.ts: one shared worker, promise per request, AbortSignal → cancel. */
import { thumbnailWorker } from '../../worker/spawn';
import type { ThumbReply, ThumbRequest } from './thumbs.worker';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (b: Blob) => void; reject: (e: Error) => void }>();

function getWorker(): Worker {
  if (!worker) {
    worker = thumbnailWorker();
    worker.onmessage = (ev: MessageEvent<ThumbReply>) => {
      const reply = ev.data;
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ('blob' in reply) w.resolve(reply.blob);
      else w.reject(new Error(reply.error));
    };
  }
  return worker;
}

export function decodeInWorker(blob: Blob, width: number, signal: AbortSignal): Promise<Blob> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('thumbnail no longer needed', 'AbortError'));
    const id = nextId++;
    const w = getWorker();
    waiting.set(id, { resolve, reject });
    signal.addEventListener(
      'abort',
      () => {
        if (!waiting.delete(id)) return;
        w.postMessage({ type: 'cancel', id } satisfies ThumbRequest);
        reject(new DOMException('thumbnail no longer needed', 'AbortError'));
      },
      { once: true },
    );
    w.postMessage({ type: 'decode', id, blob, width } satisfies ThumbRequest);
  });
}
