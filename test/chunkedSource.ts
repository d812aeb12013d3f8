/**
 * Tests' streaming source: a FileSource whose files stream in fixed-size chunks, as the Node and
 * browser sources stream big files, so readers are tested with lines and multi-byte characters
 * cut at every place. `sizes` lets a test list a file as larger than it is (the size checks of a
 * reader without a gigabyte of test data).
 */
import { MemorySource, type FileSource } from '../src/core/io/fileSource';

export function chunkedSource(files: MemorySource | Record<string, string | Uint8Array>, chunk: number, sizes: Record<string, number> = {}): FileSource {
  const src = files instanceof MemorySource ? files : new MemorySource('c', files);
  return {
    label: src.label,
    list: () => src.list().map((e) => (sizes[e.path] !== undefined ? { ...e, size: sizes[e.path] } : e)),
    read: (p) => src.read(p),
    readRange: (p, a, b) => src.readRange(p, a, b),
    async *stream(p) {
      const bytes = await src.read(p);
      for (let i = 0; i < bytes.byteLength; i += chunk) yield bytes.subarray(i, i + chunk);
    },
  };
}
