/**
 * The web-platform globals the core may use. Node ≥ 20, browsers and workers all provide them;
 * declaring only these (instead of the DOM lib) keeps DOM and Node APIs out of src/core.
 */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
interface ReadableStreamReadResult<T> {
  done: boolean;
  value: T | undefined;
}
interface ReadableStreamDefaultReader<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  releaseLock(): void;
}
interface ReadableStream<T> {
  getReader(): ReadableStreamDefaultReader<T>;
  pipeThrough<U>(transform: { writable: WritableStream<T>; readable: ReadableStream<U> }): ReadableStream<U>;
}
interface WritableStreamDefaultWriter<T> {
  write(chunk: T): Promise<void>;
  close(): Promise<void>;
  releaseLock(): void;
}
interface WritableStream<T> {
  getWriter(): WritableStreamDefaultWriter<T>;
}
declare class CompressionStream {
  constructor(format: 'deflate' | 'deflate-raw' | 'gzip');
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}
declare class DecompressionStream {
  constructor(format: 'deflate' | 'deflate-raw' | 'gzip');
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
}
declare const console: {
  log(...a: unknown[]): void;
  warn(...a: unknown[]): void;
  error(...a: unknown[]): void;
};
declare function structuredClone<T>(v: T): T;
declare function setTimeout(fn: () => void, ms?: number): unknown;
declare const performance: { now(): number };
