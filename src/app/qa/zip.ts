/**
 * The ZIP writer for downloading a corrected GT that spans several files as one archive: fflate's
 * `zipSync` (deflate, UTF-8 names flagged, CRC-32). Pure: text in, bytes out. Every entry is dated
 * 1980-01-01 so the same GT always gives the same bytes.
 */
import { zipSync, type Zippable } from 'fflate';

const EPOCH = new Date(1980, 0, 1);

/** path → text, in the order given (paths use "/"; a leading "/" is dropped). */
export function zipTexts(files: Record<string, string>): Uint8Array {
  const enc = new TextEncoder();
  const entries: Zippable = {};
  for (const [path, text] of Object.entries(files)) entries[path.replace(/^\/+/, '')] = enc.encode(text);
  if (Object.keys(entries).length > 0xffff) throw new Error('too many files for one archive (65535 at most)');
  return zipSync(entries, { level: 6, mtime: EPOCH });
}
